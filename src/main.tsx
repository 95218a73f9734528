import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { AppServicesProvider } from './app/app-context'
import { applicationMachineRoutes } from './app/application-services'
import { authRedirect } from './app/auth-guards'
import { takeCalculatorQuery } from './app/calculator-form'
import { installChunkReload } from './app/chunk-reload'
import { readCookie } from './app/cookies'
import { journeyMachineRoute } from './app/journey-routing'
import { followMachines, machineRoute } from './app/machine-routing'
import { trackNavigation } from './app/navigation'
import { createAppServices, TOKEN_COOKIE } from './app/services'
import { loadMessages, MessagesProvider } from './i18n/messages'
import { createAppRouter } from './router'
import './ui/styles/index.css'

installChunkReload()
// Apply now pressed on the server's page before the app ran: its figures, kept before the router reads the address.
takeCalculatorQuery(window.location, window.history)
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

// A public page the server rendered (docs/decisions/0040): the query cache it was rendered with comes with it.
const container = document.getElementById('root')!
const serverState = document.getElementById('ssr-state')?.textContent
// The server renders for a visitor: a browser with a session renders its own page over the server's.
const fromServer = Boolean(serverState) && container.firstElementChild !== null
const hydrating = fromServer && readCookie(TOKEN_COOKIE) === null
if (serverState)
  // The calculator's visitor offer is only for the markup it hydrates; a client's calculator prices their own.
  for (const [key, data] of JSON.parse(serverState) as [unknown[], unknown][])
    if (hydrating || key[1] !== 'calculator') services.queryClient.setQueryData(key, data)

loadMessages('en').then(async (messages) => {
  const app = (
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
  // The page on screen stays until the app can draw it whole: its route code, texts and guards are loaded first.
  if (fromServer) await router.load()
  if (hydrating) {
    // Rendered as the server did: the router's markup without the pending boundary of a client-only start.
    router.ssr = { manifest: undefined }
    hydrateRoot(container, app)
  } else createRoot(container).render(app)
})
