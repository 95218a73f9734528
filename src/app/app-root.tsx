/**
 * The app's React tree around its router: the same for the browser (src/main.tsx) and for the server's renders
 * (src/entry-server.tsx). A page the server rendered hydrates only if both build this very tree.
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { type Messages, MessagesProvider } from '../i18n/messages'
import type { AppRouter } from '../router'
import { AppServicesProvider } from './app-context'
import type { AppServices } from './services'

export function AppRoot({
  services,
  router,
  messages,
}: {
  services: AppServices
  router: AppRouter
  messages: Messages
}) {
  return (
    <StrictMode>
      <MessagesProvider messages={messages}>
        <AppServicesProvider services={services}>
          <QueryClientProvider client={services.queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </AppServicesProvider>
      </MessagesProvider>
    </StrictMode>
  )
}
