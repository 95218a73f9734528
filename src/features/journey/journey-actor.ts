/**
 * The journey actor the app runs: the journey machine with its `fetchFlow` actor provided. The flow call is
 * injected (`getFlow`), so the feature depends on no particular HTTP client; its answer is checked against the
 * spec's step and status names, and anything else counts as a failed fetch (the last known flow stays).
 */
import { createActor, fromPromise } from 'xstate'
import { type Flow, parseFlow } from '../../../domain/flow-routes'
import { journeyMachine } from '../../../machines/journey.machine'

export const FLOW_PATH = '/private/client/flow'

export interface JourneyActorOptions {
  /** `GET /web/private/client/flow`; the signal aborts when a newer request or a logout supersedes it. */
  getFlow: (signal: AbortSignal) => Promise<unknown>
}

export class UnexpectedFlowError extends Error {
  constructor() {
    super('journey: the flow answer has an unknown step or status')
  }
}

export function journeyMachineWith({ getFlow }: JourneyActorOptions) {
  return journeyMachine.provide({
    actors: {
      fetchFlow: fromPromise<Flow, void>(async ({ signal }) => {
        const flow = parseFlow(await getFlow(signal))
        if (!flow) throw new UnexpectedFlowError()
        return flow
      }),
    },
  })
}

/** Created once with the app services, started, and handed to the router context. */
export function createJourneyActor(options: JourneyActorOptions) {
  return createActor(journeyMachineWith(options)).start()
}
