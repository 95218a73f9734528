import { useSelector } from '@xstate/react'
import { lazy, Suspense, useState, useSyncExternalStore } from 'react'
import type { Environment } from '../../../domain/environment'
import { SANDBOX_COOKIE } from '../../../domain/journey/routing'
import { type AuthSnapshot, isLoggedIn } from '../../../machines/auth.machine'
import { useAuthActor } from '../../app/app-context'
import { readCookie } from '../../app/cookies'
import { useDeployment } from '../../app/deployment'
import { ensureMessages, useMessages } from '../../i18n/messages'

/**
 * The QA panel, its code and texts loaded only in a browser in sandbox mode (issue 20 item 1): one holding the QA
 * cookie, any browser while the instance's sandbox mode is on, a client whose own sandbox mode is on.
 */
type PanelModule = typeof import('../../features/sandbox/sandbox-panel')
/** The panel's code and texts once loaded: rendered straight away then, not through a suspending `lazy`. */
let loadedPanel: PanelModule['default'] | undefined
let panelLoad: Promise<{ default: PanelModule['default'] }> | undefined
const loadPanel = () => {
  panelLoad ??= Promise.all([
    import('../../features/sandbox/sandbox-panel'),
    ensureMessages(['sandbox']),
  ]).then(
    ([panel]) => {
      loadedPanel = panel.default
      return panel
    },
    (error: unknown) => {
      panelLoad = undefined
      throw error
    },
  )
  return panelLoad
}
const LazySandboxPanel = lazy(loadPanel)

/**
 * Starts loading the panel as soon as the deployment's answer says this browser will show it (src/main.tsx): the
 * QA cookie or the instance's sandbox mode, the grants known before the client is. By the time the banner shows
 * it, it is there, rather than arriving after the page and pushing it down. A visitor without either, and every
 * production deployment, never loads it.
 */
export function preloadSandboxPanel(environment: Environment): void {
  if (environment.sandbox && (environment.sandboxMode || readCookie(SANDBOX_COOKIE) !== null))
    void loadPanel().catch(() => {})
}

const subscribeNothing = () => () => {}
/**
 * False while the server renders and while the browser hydrates what it rendered, true after: the server knows
 * neither the QA cookie nor the client, so the panel is left to the browser (the banner itself is rendered).
 */
const useHydrated = () =>
  useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  )

/** Who is logged in, as the panel needs it: nobody (or a back-office user), a client, a client in sandbox mode. */
type Caller = 'other' | 'client' | 'sandboxClient'

function callerOf(snapshot: AuthSnapshot): Caller {
  if (!isLoggedIn(snapshot) || snapshot.context.claims?.type !== 'client') return 'other'
  // GET /private/client answers the client's own sandbox mode (always false on a production server).
  const user = snapshot.context.user as { sandbox?: boolean } | null
  return user?.sandbox === true ? 'sandboxClient' : 'client'
}

/**
 * On every page while the server runs any adapter on its sandbox provider (docs/decisions/0018): a sandbox
 * deployment must never be mistaken for the real service. A labelled region, not a live one: it is there from
 * the start and says nothing new later. The answer comes with the page (rendered in a public page's HTML, asked
 * before the app's first render otherwise), so the banner never pushes the page down; nothing shows if it failed.
 */
export function SandboxBanner() {
  const m = useMessages()
  // A failed answer hides the banner rather than replacing the page with the full-page error.
  const { data } = useDeployment()
  // Read once per mount: the panel's "Leave sandbox mode" removes the cookie and says so itself.
  const [qa] = useState(() => readCookie(SANDBOX_COOKIE) !== null)
  const caller = useSelector(useAuthActor(), callerOf)
  const hydrated = useHydrated()
  const SandboxPanel = loadedPanel ?? LazySandboxPanel
  if (!data?.sandbox) return null
  const texts = m.layout.sandbox
  const grants = { qa, instance: data.sandboxMode, client: caller === 'sandboxClient' }
  return (
    <section className="sandbox-banner" aria-label={texts.label}>
      <p className="sandbox-banner__text">
        <strong className="sandbox-banner__title">{texts.title}</strong> {texts.text}
      </p>
      {hydrated && (grants.qa || grants.instance || grants.client) ? (
        <Suspense fallback={null}>
          <SandboxPanel grants={grants} clientLoggedIn={caller !== 'other'} />
        </Suspense>
      ) : null}
    </section>
  )
}
