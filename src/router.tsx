import { createRouter } from '@tanstack/react-router'
import type { AppServices } from './app/services'
import { routeTree } from './route-tree.gen'
import { GenericErrorPage } from './ui/errors/generic-error-page'
import { NotFoundPage } from './ui/errors/not-found-page'

export type RouterContext = Pick<
  AppServices,
  'api' | 'queryClient' | 'shell' | 'auth' | 'journey' | 'application'
>

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: GenericErrorPage,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
