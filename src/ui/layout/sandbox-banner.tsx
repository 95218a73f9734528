import { useSelector } from '@xstate/react'
import { lazy, Suspense, useState } from 'react'
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
const SandboxPanel = lazy(() =>
  Promise.all([import('../../features/sandbox/sandbox-panel'), ensureMessages(['sandbox'])]).then(
    ([panel]) => panel,
  ),
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
 * the start and says nothing new later. Nothing shows until the server has answered, and nothing if it fails.
 */
export function SandboxBanner() {
  const m = useMessages()
  // A failed answer hides the banner rather than replacing the page with the full-page error.
  const { data } = useDeployment()
  // Read once per mount: the panel's "Leave sandbox mode" removes the cookie and says so itself.
  const [qa] = useState(() => readCookie(SANDBOX_COOKIE) !== null)
  const caller = useSelector(useAuthActor(), callerOf)
  if (!data?.sandbox) return null
  const texts = m.layout.sandbox
  const grants = { qa, instance: data.sandboxMode, client: caller === 'sandboxClient' }
  return (
    <section className="sandbox-banner" aria-label={texts.label}>
      <p className="sandbox-banner__text">
        <strong className="sandbox-banner__title">{texts.title}</strong> {texts.text}
      </p>
      {grants.qa || grants.instance || grants.client ? (
        <Suspense fallback={null}>
          <SandboxPanel grants={grants} clientLoggedIn={caller !== 'other'} />
        </Suspense>
      ) : null}
    </section>
  )
}
