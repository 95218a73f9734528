/**
 * The application's machines that must live at app level, because a route guard reads them (docs/product.md,
 * Pitfalls: "Routes from machine state"; issue 14 item 3): the calculator's submit (machines/calculator-submit.machine.ts).
 *
 * - `createApplicationServices`: the actor, with its `createApplication` call made through the app's API client
 *   and `applicationCreated` asking the journey to refetch its flow.
 * - `calculatorSubmitBeforeLoad`: the `beforeLoad` of every page whose calculator submits (home,
 *   /profile/no-loan). It reads the actor's snapshot and throws the redirect to the page of its state.
 * - `applicationMachineRoutes`: the registrations for `followMachines` (src/app/machine-routing.ts), which re-runs
 *   that guard when the actor's state asks for another page while the calculator's page stays on screen.
 */
import { redirect } from '@tanstack/react-router'
import { type Actor, createActor, fromPromise } from 'xstate'
import {
  type ApplicationFigures,
  calculatorSubmitMachine,
  submitRedirect,
} from '../../machines/calculator-submit.machine'
import type { ApiClient } from '../api/client'
import { createApplication } from '../features/calculator/submit'
import { machineRoute } from './machine-routing'

export type CalculatorSubmitActor = Actor<typeof calculatorSubmitMachine>

export interface ApplicationServices {
  /** The calculator's submit: the page a decision leads to, the application it makes first. */
  submit: CalculatorSubmitActor
}

/**
 * Where the app keeps them: `services.application` (src/app/services.ts), also in the router context. Optional
 * so that an app (or a test harness) wired without them still renders its calculator: its submit does nothing.
 */
export type WithApplicationServices = { application?: ApplicationServices; [service: string]: unknown }

export function createApplicationServices({
  api,
  refreshJourney,
}: {
  api: ApiClient
  /** Asks the journey to refetch the flow now (a new application moves it to application_processing). */
  refreshJourney: () => void
}): ApplicationServices {
  const submit = createActor(
    calculatorSubmitMachine.provide({
      actors: {
        createApplication: fromPromise<unknown, ApplicationFigures>(({ input }) =>
          createApplication(api, input),
        ),
      },
      actions: { applicationCreated: () => refreshJourney() },
    }),
  ).start()
  return { submit }
}

/**
 * `beforeLoad` of a page with a submitting calculator: when the submit's state names another page, the client
 * goes there, and the machine is told (ROUTED), so that the calculator's page is its own again and coming back
 * to it does not bounce. (TanStack replaces the history entry a redirect leaves, as for every guard.) A preload
 * only looks.
 */
export function calculatorSubmitBeforeLoad({
  context,
  location,
  preload,
}: {
  context: WithApplicationServices
  location: { pathname: string }
  preload?: boolean
}): void {
  const submit = context.application?.submit
  if (!submit) return
  const to = submitRedirect(submit.getSnapshot(), location.pathname)
  if (!to) return
  if (!preload) submit.send({ type: 'ROUTED' })
  throw redirect({ to })
}

/** The application's machines for `followMachines(router, [...])`. */
export function applicationMachineRoutes(application: ApplicationServices) {
  return [
    machineRoute({
      actor: application.submit,
      redirectFor: (snapshot, location) => submitRedirect(snapshot, location.pathname),
    }),
  ]
}
