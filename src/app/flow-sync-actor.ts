/**
 * The flow-sync actor the app runs: machines/flow-sync.machine.ts with its actors and its report provided. The
 * calls are injected (`getFlow`, `getApplication`), so this depends on no particular HTTP client. The flow answer
 * is read against the journey model (`readFlow`): a step or status the model does not know is not a failed
 * fetch but an unrecognised answer, which the machine keeps and the app reports (`reportUnrecognisedFlow`).
 */
import { createActor, fromPromise } from 'xstate'
import type { ApplicationFacts } from '../../domain/journey/destinations'
import { type FlowAnswer, readFlow, type UnrecognisedFlow } from '../../domain/journey/routing'
import { flowSyncMachine } from '../../machines/flow-sync.machine'

export interface FlowSyncActorOptions {
  /** `GET /web/private/client/flow`; the signal aborts when a newer request or a logout supersedes it. */
  getFlow: (signal: AbortSignal) => Promise<unknown>
  /**
   * `GET /web/private/client/application/actual` (null without an application), asked before routing a flow
   * that reads the application (cash pickup, the facebook step). Without it such a flow routes as if the client
   * had no application.
   */
  getApplication?: (signal: AbortSignal) => Promise<unknown>
  /** Where an unrecognised answer is reported; a structured console error unless given. */
  report?: (report: UnrecognisedFlowReport) => void
}

/** What the app reports of an answer it cannot route: the names it carried, never anything about the client. */
export interface UnrecognisedFlowReport extends UnrecognisedFlow {
  event: 'flow.unrecognised'
  message: string
}

export function unrecognisedFlowReport(answer: UnrecognisedFlow): UnrecognisedFlowReport {
  return {
    event: 'flow.unrecognised',
    message:
      'The server named a journey step or status this app does not know; the journey pages show an error.',
    step: answer.step,
    status: answer.status,
  }
}

const consoleReport = (report: UnrecognisedFlowReport) => console.error('[flow-sync]', report)

/** The routing facts of `GET /application/actual`'s answer (spec section 3, Application); null for none. */
export function applicationFactsOf(raw: unknown): ApplicationFacts | null {
  if (typeof raw !== 'object' || raw === null) return null
  const { id, disbursementType, cashPickupNumber } = raw as Record<string, unknown>
  if (typeof id !== 'number' && typeof id !== 'string') return null
  const type = (disbursementType as { type?: unknown } | null | undefined)?.type
  return {
    id: String(id),
    disbursementType: typeof type === 'string' ? type : null,
    cashPickupNumber: typeof cashPickupNumber === 'string' ? cashPickupNumber : null,
  }
}

export function flowSyncMachineWith({
  getFlow,
  getApplication,
  report = consoleReport,
}: FlowSyncActorOptions) {
  return flowSyncMachine.provide({
    actors: {
      fetchFlow: fromPromise<FlowAnswer, void>(async ({ signal }) => readFlow(await getFlow(signal))),
      fetchApplication: fromPromise<ApplicationFacts | null, void>(async ({ signal }) =>
        getApplication ? applicationFactsOf(await getApplication(signal)) : null,
      ),
    },
    actions: {
      reportUnrecognisedFlow: ({ context }) => {
        if (context.unrecognised) report(unrecognisedFlowReport(context.unrecognised))
      },
    },
  })
}

/** Created once with the app services, started, and handed to the router context. */
export function createFlowSyncActor(options: FlowSyncActorOptions) {
  return createActor(flowSyncMachineWith(options)).start()
}
