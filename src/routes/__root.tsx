import { createRootRouteWithContext, HeadContent, Outlet } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { useShell } from '../app/app-context'
import type { RouterContext } from '../router'
import { ServerFailurePage } from '../ui/errors/server-failure-page'
import { Layout } from '../ui/layout/layout'
import { Notices } from '../ui/shell/notices'
import { ProgressBar } from '../ui/shell/progress-bar'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
})

function Root() {
  const shell = useShell()
  const failure = useSelector(shell, (s) => (s.matches({ page: 'failed' }) ? s.context.failure : null))
  return (
    <>
      <HeadContent />
      <ProgressBar />
      <Layout>
        {failure ? <ServerFailurePage status={failure.status} path={failure.path} /> : <Outlet />}
      </Layout>
      <Notices />
    </>
  )
}
