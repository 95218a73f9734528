import { useRouterState } from '@tanstack/react-router'
import type { MouseEvent, ReactNode } from 'react'
import { useMessages } from '../../i18n/messages'
import type { HeaderUser } from './account'
import { Footer } from './footer'
import { Header } from './header'
import { SandboxBanner } from './sandbox-banner'
import { SiteBanners } from './site-banners'

export interface LayoutProps {
  children: ReactNode
  /** The signed-in person, once the auth session provides one. */
  user?: HeaderUser | null
  singleLink?: boolean
  onLogout?: () => void
}

/** Every page: skip link, header with navigation and mobile drawer, the page in <main id="main">, footer. */
export function Layout({ children, user, singleLink, onLogout }: LayoutProps) {
  const m = useMessages()
  // The back office's banners head the home page only.
  const home = useRouterState({ select: (state) => state.location.pathname === '/' })
  return (
    <div className="layout">
      {/* biome-ignore lint/a11y/useValidAnchor: a real in-page link; the handler only keeps the router out of it */}
      <a className="skip-link" href="#main" onClick={skipToMain}>
        {m.layout.skipLink}
      </a>
      <SandboxBanner />
      <Header user={user} singleLink={singleLink} onLogout={onLogout} />
      <main id="main" className="layout__main" tabIndex={-1}>
        {home ? <SiteBanners /> : null}
        {children}
      </main>
      <Footer />
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
