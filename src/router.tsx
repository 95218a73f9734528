import { createRouter, type ErrorComponentProps, type RouterHistory } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import type { AppServices } from './app/services'
import { routeTree } from './route-tree.gen'

// The error pages load when one is needed: no public page's first paint waits for them (issue 21 item 3).
const LazyNotFoundPage = lazy(() =>
  import('./ui/errors/not-found-page').then((m) => ({ default: m.NotFoundPage })),
)
const LazyGenericErrorPage = lazy(() =>
  import('./ui/errors/generic-error-page').then((m) => ({ default: m.GenericErrorPage })),
)
function NotFoundPage() {
  return (
    <Suspense fallback={null}>
      <LazyNotFoundPage />
    </Suspense>
  )
}
function GenericErrorPage(props: ErrorComponentProps) {
  return (
    <Suspense fallback={null}>
      <LazyGenericErrorPage {...props} />
    </Suspense>
  )
}

export type RouterContext = Pick<
  AppServices,
  'api' | 'queryClient' | 'shell' | 'auth' | 'journey' | 'application'
>

/** The services the routes read, and nothing else of the app's services (their `stop`, say). */
export const routerContextOf = (services: AppServices): RouterContext => ({
  api: services.api,
  queryClient: services.queryClient,
  shell: services.shell,
  auth: services.auth,
  journey: services.journey,
  application: services.application,
})

/** `history`: the server's render (src/entry-server.tsx) passes a memory history; the browser's is the default. */
export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    history,
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: GenericErrorPage,
  })
}

export type AppRouter = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
