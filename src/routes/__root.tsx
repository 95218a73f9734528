import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { useShell } from '../app/app-context'
import { sessionEndGuard } from '../app/auth-guards'
import { useAuth } from '../features/auth/use-auth'
import { ensureMessagesFor, useMessages } from '../i18n/messages'
import type { RouterContext } from '../router'
import { ServerFailurePage } from '../ui/errors/server-failure-page'
import { DocumentTitle } from '../ui/layout/document-title'
import { Layout } from '../ui/layout/layout'
import { Notices } from '../ui/shell/notices'

export const Route = createRootRouteWithContext<RouterContext>()({
  // The texts only some pages read (src/i18n/bundles.ts) are there before such a page renders.
  // A logout or a 401/403 during a session takes every page to /login (src/app/auth-guards.ts).
  beforeLoad: async ({ context, location }) => {
    sessionEndGuard(context.auth, location)
    await ensureMessagesFor(location.pathname)
  },
  component: Root,
})

function Root() {
  const shell = useShell()
  const failure = useSelector(shell, (s) => (s.matches({ page: 'failed' }) ? s.context.failure : null))
  const { loggedIn, singleLink, user, send } = useAuth()
  const m = useMessages()
  // A single-link session has no client record to name; its menu holds my loan and its logout only.
  const headerUser = singleLink ? { firstName: m.layout.singleLinkName } : loggedIn ? user : null
  return (
    <>
      <DocumentTitle />
      <Layout user={headerUser} singleLink={singleLink} onLogout={() => send({ type: 'LOGOUT' })}>
        {failure ? <ServerFailurePage status={failure.status} path={failure.path} /> : <Outlet />}
      </Layout>
      <Notices />
    </>
  )
}
