import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppServicesProvider } from './app/app-context'
import { applicationMachineRoutes } from './app/application-services'
import { authRedirect } from './app/auth-guards'
import { installChunkReload } from './app/chunk-reload'
import { journeyMachineRoute } from './app/journey-routing'
import { followMachines, machineRoute } from './app/machine-routing'
import { trackNavigation } from './app/navigation'
import { createAppServices } from './app/services'
import { loadMessages, MessagesProvider } from './i18n/messages'
import { createAppRouter } from './router'
import './ui/styles/index.css'

installChunkReload()
const services = createAppServices()
const router = createAppRouter({
  api: services.api,
  queryClient: services.queryClient,
  shell: services.shell,
  auth: services.auth,
  journey: services.journey,
  application: services.application,
})
trackNavigation(router, services.shell)
// Routes from machine state: the guards run again whenever one of these machines changes their answer.
followMachines(router, [
  machineRoute({ actor: services.auth, redirectFor: authRedirect }),
  journeyMachineRoute(services.journey),
  ...applicationMachineRoutes(services.application),
])

loadMessages('en').then((messages) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MessagesProvider messages={messages}>
        <AppServicesProvider services={services}>
          <QueryClientProvider client={services.queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </AppServicesProvider>
      </MessagesProvider>
    </StrictMode>,
  )
})
