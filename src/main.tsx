import { type ReactNode, startTransition, useEffect } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import type { Environment } from '../domain/environment'
import { SSR_STATE_ID } from '../domain/page-shell'
import { AppRoot } from './app/app-root'
import { applicationMachineRoutes } from './app/application-services'
import { authRedirect, SETTLE_TIMEOUT_MS } from './app/auth-guards'
import { takeCalculatorQuery } from './app/calculator-form'
import { installChunkReload } from './app/chunk-reload'
import { readCookie } from './app/cookies'
import { announceDeployment, DEPLOYMENT_QUERY_KEY, fetchDeployment } from './app/deployment'
import { journeyMachineRoute } from './app/journey-routing'
import { sessionKnown } from './app/journey-services'
import { followMachines, machineRoute } from './app/machine-routing'
import { keepLanding, trackNavigation } from './app/navigation'
import { type AppServices, createAppServices, TOKEN_COOKIE } from './app/services'
import { loadMessages } from './i18n/messages'
import { createAppRouter, routerContextOf } from './router'
import { preloadClientExtras } from './ui/layout/layout'
import { preloadSandboxPanel } from './ui/layout/sandbox-banner'
import './ui/styles/index.css'

installChunkReload()
// Apply now pressed on the server's page before the app ran: its figures, kept before the router reads the address.
takeCalculatorQuery(window.location, window.history)
keepLanding()
// A public page the server rendered (docs/decisions/0040): the query cache it was rendered with comes with it.
const container = document.getElementById('root')!
const stateElement = document.getElementById(SSR_STATE_ID)
const serverState = stateElement?.textContent
const fromServer = Boolean(serverState) && container.firstElementChild !== null
// A page the server rendered for this browser's session (ADR 0052) is hydrated with it; one rendered for a visitor
// (a public page) is hydrated only by a browser without a session, any other renders its own page over it.
const forSession = fromServer && stateElement?.dataset.for === 'session'
const hydrating = forSession || (fromServer && readCookie(TOKEN_COOKIE) === null)
// The texts are asked for at once; the app is built in the next task (see `start`).
const messagesLoaded = loadMessages('en')
void start()

/**
 * A session's page is inert until the app has hydrated it (ADR 0052): a press on a server-rendered button before
 * then would do nothing. The app's first effects run once hydration has committed.
 */
function Hydrated({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useEffect(() => container.removeAttribute('inert'), [container])
  return children
}

/**
 * How long the first render may wait for the deployment's answer when the page did not come with it: it is asked
 * beside the texts, and a server slower than this gets its banner late rather than holding the page.
 */
const DEPLOYMENT_WAIT_MS = 2_000
/**
 * The deployment (the sandbox banner, docs/decisions/0018) is known at the first render, so the banner is part of
 * it rather than pushing the page down when it arrives (issue 21: Lighthouse counted a layout shift of 0.084): a
 * server-rendered page came with it, any other page asks for it beside its texts.
 */
function knowDeployment(services: AppServices): Promise<unknown> {
  const given = services.queryClient.getQueryData<Environment>(DEPLOYMENT_QUERY_KEY)
  if (given) {
    announceDeployment(given)
    preloadSandboxPanel(given)
    return Promise.resolve()
  }
  const asked = fetchDeployment(services.api).then((environment) => {
    if (!environment) return
    services.queryClient.setQueryData(DEPLOYMENT_QUERY_KEY, environment)
    preloadSandboxPanel(environment)
  })
  return Promise.race([asked, new Promise((resolve) => setTimeout(resolve, DEPLOYMENT_WAIT_MS))])
}

/**
 * Builds the app and draws it. Evaluating the page's modules is one long task; building the services, the router
 * and its guards, putting the server's answers back, and hydrating each start a task of their own, so the browser
 * can paint and answer input between them (Lighthouse's total blocking time counts each task's time past 50 ms,
 * issue 21; on a 4x slower CPU each of these took 50 to 190 ms).
 */
async function start() {
  await nextTask()
  const services = createAppServices({ sessionPage: forSession })
  await nextTask()
  const router = createAppRouter(routerContextOf(services))
  await nextTask()
  trackNavigation(router, services.shell)
  // Routes from machine state: the guards run again whenever one of these machines changes their answer.
  followMachines(router, [
    machineRoute({ actor: services.auth, redirectFor: authRedirect }),
    journeyMachineRoute(services.journey),
    ...applicationMachineRoutes(services.application),
  ])

  await nextTask()
  if (serverState)
    // The calculator's visitor offer is only for the markup it hydrates; a client's calculator prices their own.
    for (const [key, data] of JSON.parse(serverState) as [unknown[], unknown][])
      if (hydrating || key[1] !== 'calculator') services.queryClient.setQueryData(key, data)
  const [messages] = await Promise.all([messagesLoaded, knowDeployment(services)])

  const app = <AppRoot services={services} router={router} messages={messages} />
  // The page on screen stays until the app can draw it whole: its route code, texts and guards are loaded first,
  // and, for a session's page, the session itself (the header shows who is logged in).
  if (forSession) await Promise.all([sessionKnown(services, SETTLE_TIMEOUT_MS), preloadClientExtras()])
  if (fromServer) await router.load()
  await nextTask()
  if (hydrating) {
    // Rendered as the server did: the router's markup without the pending boundary of a client-only start.
    router.ssr = { manifest: undefined }
    // Hydrated in a transition: React works in slices of a few milliseconds and yields to the browser between
    // them, instead of one task as long as the whole page (on a slow phone it held the main thread for hundreds
    // of milliseconds: Lighthouse's total blocking time, issue 21). The server's page stays on screen meanwhile.
    startTransition(() => {
      hydrateRoot(container, forSession ? <Hydrated container={container}>{app}</Hydrated> : app)
    })
  } else {
    container.removeAttribute('inert')
    createRoot(container).render(app)
  }
}

/** The next task: `scheduler.yield()` where the browser has it, else a macrotask. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (scheduler?.yield) return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}
