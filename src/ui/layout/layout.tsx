import { useRouterState } from '@tanstack/react-router'
import {
  type ComponentType,
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useEffect,
  useState,
} from 'react'
import { useSessionPage } from '../../app/app-context'
import { rememberLocale } from '../../app/locale-cookie'
import { ensureMessages, useMessages } from '../../i18n/messages'
import type { HeaderUser } from './account'
import { Footer } from './footer'
import { Header } from './header'
// Listens for the browser's install offer from the start; the prompt itself loads after the page (ADR 0045).
import { isAndroid } from './install-offer'
import { SandboxBanner } from './sandbox-banner'
import { SiteBanners } from './site-banners'

export interface LayoutProps {
  children: ReactNode
  /** The signed-in person, once the auth session provides one. */
  user?: HeaderUser | null
  singleLink?: boolean
  onLogout?: () => void
}

/**
 * A logged-in client's extras (the daily limit refresh, the device-data consent and, once given, the tracking:
 * docs/decisions/0042), with their texts, loaded only after the page has loaded: nothing of them is on the home
 * route's critical path.
 */
let extrasModule: Promise<{ default: ComponentType }> | undefined
/**
 * The extras' code and texts. A page the server rendered for the session (ADR 0052) has them in its markup (the
 * device-data consent notice is part of the first paint, not a late arrival that becomes the largest paint):
 * the browser loads them before it hydrates such a page, so they hydrate with the texts they were rendered with.
 */
export const preloadClientExtras = () => {
  extrasModule ??= Promise.all([import('./client-extras'), ensureMessages(['tracking'])]).then(
    ([extras]) => ({
      default: extras.ClientExtras,
    }),
  )
  return extrasModule
}
const ClientExtras = lazy(preloadClientExtras)

/** The Android install prompt (ADR 0045), loaded once the page has loaded: never server-rendered. */
const InstallPrompt = lazy(() =>
  import('./install-prompt').then((prompt) => ({ default: prompt.InstallPrompt })),
)

/** True once the page's load event has passed (never during server rendering). */
function usePageLoaded(): boolean {
  const [loaded, setLoaded] = useState(false)
  useEffect(() => {
    // Spec section 9: the locale cookie, 365 days, written once the app runs in a browser.
    rememberLocale()
    if (document.readyState === 'complete') return setLoaded(true)
    const onLoad = () => setLoaded(true)
    window.addEventListener('load', onLoad, { once: true })
    return () => window.removeEventListener('load', onLoad)
  }, [])
  return loaded
}

/** Every page: skip link, header with navigation and mobile drawer, the page in <main id="main">, footer. */
export function Layout({ children, user, singleLink, onLogout }: LayoutProps) {
  const m = useMessages()
  // The back office's banners head the home page only.
  const home = useRouterState({ select: (state) => state.location.pathname === '/' })
  const loaded = usePageLoaded()
  const sessionPage = useSessionPage()
  return (
    <div className="layout">
      {/* biome-ignore lint/a11y/useValidAnchor: a real in-page link; the handler only keeps the router out of it */}
      <a className="skip-link" href="#main" onClick={skipToMain}>
        {m.layout.skipLink}
      </a>
      <SandboxBanner />
      <Header user={user} singleLink={singleLink} onLogout={onLogout} />
      {user && !singleLink && (loaded || sessionPage) ? (
        <Suspense fallback={null}>
          <ClientExtras />
        </Suspense>
      ) : null}
      <main id="main" className="layout__main" tabIndex={-1}>
        {home ? <SiteBanners /> : null}
        {children}
      </main>
      <Footer />
      {/* The Android install prompt: client-only, loaded after load on Android only, shown where its rules
          allow (ADR 0045); other browsers never fetch its code. */}
      {loaded && isAndroid(navigator.userAgent) ? (
        <Suspense fallback={null}>
          <InstallPrompt />
        </Suspense>
      ) : null}
    </div>
  )
}

/** Moves focus without touching the URL, so the router does not see a navigation. */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('main')
  if (!main) return
  event.preventDefault()
  main.focus()
  main.scrollIntoView()
}
