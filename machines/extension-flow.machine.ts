/**
 * Extending the active loan (issue 17 item 5, /profile/rollover/{id}): choose an extension, review what it costs,
 * sign its agreement and disclosure with the SMS code, pay its fee. The new due date takes effect when the fee
 * posts; the page learns of it from the active loan (the payment watch asks for it every few seconds and the
 * screen passes each answer on as LOAN_UPDATED).
 *
 * - opening: where the flow starts, from the loan's rollovers and the id in the address (`startOf`): the one
 *   asked for, else the one in progress (chosen, not paid), else the cheapest available. In effect already:
 *   inEffect. Signed: paying. Chosen: applying (its application, asked again, is the same one). None available:
 *   unavailable. Otherwise choosing.
 * - choosing: SELECT picks an available extension, CHOOSE sends it (`chooseRollover`, PUT .../rollover: its invoice
 *   becomes unpaid at today's fee) in saving; then applying asks for its application (`openApplication`).
 *   A refused call (409: a cap, the window...) comes back to choosing with the API's message.
 * - reviewing: the disclosure's figures on screen. AGREE goes to signing, BACK to choosing.
 * - signing: the shared code request (machines/code-request.machine.ts) renders the documents and sends the code;
 *   the screen passes the documents on (DOCUMENTS). SIGN sends the code (`signRollover`) in verifying; a wrong or
 *   refused code comes back here with the reason.
 * - paying: PAY with a channel asks for the fee's payment intention (`createIntention`, purpose extension_fee);
 *   awaitingPayment shows how to pay; CHANGE_CHANNEL comes back to choose another way.
 * - inEffect: the fee posted: the rollover is active and the loan's due date is its newDueDate.
 *
 * While the flow runs, LOAN_UPDATED brings the active loan's rollovers: the flow's rollover in effect ends the
 * flow (inEffect); one lost (its invoice expired, a cap or the window now refuses it) starts over from opening,
 * saying why.
 *
 * No fetch and no React here: the app provides the four actors (`extensionFlowMachine.provide({ actors })`).
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import type { PaymentIntention } from '../domain/contract/payments'
import type { AmendmentDocument, Rollover, RolloverApplication } from '../domain/contract/servicing-answers'
import type { ExtensionType } from '../domain/loan/servicing-config'
import type { PaymentChannelCode } from '../domain/payments/channels'

// ---------------------------------------------------------------------------------------------------------
// Reading rollovers

/** Chosen: its invoice is unpaid (the fee is fixed; payable once signed). */
export const isChosen = (rollover: Rollover) => rollover.invoices.some((i) => i.status === 'unpaid')

/** The last Manila day the chosen extension's fee can be paid, or null before it is chosen. */
export const payableUntilOf = (rollover: Rollover) =>
  rollover.invoices.find((i) => i.status === 'unpaid')?.payableUntil ?? null

/** What the client may choose from: the extensions not taken (drafts and a chosen one), cheapest first. */
export function extensionOptions(rollovers: readonly Rollover[]): Rollover[] {
  return rollovers
    .filter((r) => r.status === 'inactive')
    .sort((a, b) => a.fee.amount - b.fee.amount || a.term - b.term || a.id - b.id)
}

/**
 * The best available choice: the one in progress (chosen and still available: choosing another would undo it and
 * its signature), else the cheapest available; null when none is.
 */
export function bestChoice(rollovers: readonly Rollover[]): Rollover | null {
  const available = extensionOptions(rollovers).filter((r) => r.available)
  return available.find(isChosen) ?? available[0] ?? null
}

/** Why the flow says something before the client acts: the server's refusal, or one of ours (no message). */
export interface FlowNotice {
  /** `notOffered` (the id asked for is not this loan's), `expired`, or the rollover's refusal code. */
  code: string
  message: string | null
}

/** A refused call: the API's error code, and its message when the call was refused as a conflict (409). */
export interface FlowProblem {
  code: string
  message: string | null
}

/** An actor's failure as the screen shows it. */
export function problemOf(error: unknown): FlowProblem {
  const { code, status, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown
    status?: unknown
    message?: unknown
  }
  return {
    code: typeof code === 'string' && code ? code : 'error',
    message: status === 409 && typeof message === 'string' && message ? message : null,
  }
}

export interface FlowStart {
  selectedId: number | null
  /** The rollover the flow continues with (in effect, signed or chosen), or null to choose. */
  rollover: Rollover | null
  notice: FlowNotice | null
}

/**
 * Where the flow starts: the rollover asked for when it is this loan's and still open (or already in effect);
 * else the best available choice, with a notice saying why the one asked for is not it.
 */
export function startOf(rollovers: readonly Rollover[], requestedId: number | null): FlowStart {
  const best = bestChoice(rollovers)
  const fromBest = (notice: FlowNotice | null): FlowStart => ({
    selectedId: best?.id ?? null,
    rollover: best && isChosen(best) ? best : null,
    notice,
  })
  if (requestedId === null) return fromBest(null)
  const requested = rollovers.find((r) => r.id === requestedId)
  if (!requested) return fromBest({ code: 'notOffered', message: null })
  if (requested.status === 'active') return { selectedId: requested.id, rollover: requested, notice: null }
  if (requested.status === 'inactive' && requested.available)
    return { selectedId: requested.id, rollover: isChosen(requested) ? requested : null, notice: null }
  return fromBest(requested.refusal ?? { code: 'expired', message: null })
}

/** A rollover is lost to the flow when it can no longer be taken: its invoice expired, or it is refused now. */
function isLost(fresh: Rollover | undefined): boolean {
  return !fresh || fresh.status === 'expired' || (fresh.status === 'inactive' && !fresh.available)
}

// ---------------------------------------------------------------------------------------------------------
// The machine

export interface ExtensionFlowInput {
  /** The active loan's rollovers and its due date now. */
  rollovers: Rollover[]
  dueDate: string
  /** The id in the address (/profile/rollover/{id}); null without one. */
  requestedId?: number | null
}

export interface ExtensionFlowContext {
  rollovers: Rollover[]
  dueDate: string
  requestedId: number | null
  /** The extension picked on the choose step. */
  selectedId: number | null
  /** The extension the flow carries on with, as the server last answered it (chosen, signed, in effect). */
  rollover: Rollover | null
  applicationId: number | null
  /** The agreement and disclosure rendered for signing (after the code was sent), then signed. */
  documents: AmendmentDocument[]
  /** The channel the fee is paid through (kept when the client comes back to choose another). */
  channel: PaymentChannelCode | null
  intention: PaymentIntention | null
  notice: FlowNotice | null
  problem: FlowProblem | null
}

/** What the active loan says now (the screen sends it each time the loan's answer changes). */
export interface LoanUpdate {
  rollovers: Rollover[]
  dueDate: string
}

export type ExtensionFlowEvent =
  | { type: 'SELECT'; id: number }
  | { type: 'CHOOSE' }
  | { type: 'AGREE' }
  | { type: 'BACK' }
  | { type: 'DOCUMENTS'; documents: AmendmentDocument[] }
  | { type: 'SIGN'; code: string }
  | { type: 'PAY'; channel: PaymentChannelCode }
  | { type: 'CHANGE_CHANNEL' }
  | ({ type: 'LOAN_UPDATED' } & LoanUpdate)

export interface ApplicationRef {
  loanId: number
  rolloverId: number
}

export interface SignInput extends ApplicationRef {
  applicationId: number
  code: string
}

const selected = (context: ExtensionFlowContext) =>
  extensionOptions(context.rollovers).find((r) => r.id === context.selectedId && r.available) ?? null

const freshOf = (context: ExtensionFlowContext, update: LoanUpdate) =>
  context.rollover ? update.rollovers.find((r) => r.id === context.rollover?.id) : undefined

const updateOf = (event: ExtensionFlowEvent): LoanUpdate =>
  event.type === 'LOAN_UPDATED' ? event : { rollovers: [], dueDate: '' }

const refOf = (context: ExtensionFlowContext): ApplicationRef => {
  const rollover = context.rollover as Rollover
  return { loanId: rollover.loanId, rolloverId: rollover.id }
}

const started = (
  rollovers: Rollover[],
  dueDate: string,
  requestedId: number | null,
  notice: FlowNotice | null,
) => {
  const start = startOf(rollovers, requestedId)
  return {
    rollovers,
    dueDate,
    requestedId,
    selectedId: start.selectedId,
    rollover: start.rollover,
    applicationId: start.rollover?.applicationId ?? null,
    documents: [],
    channel: null,
    intention: null,
    notice: start.notice ?? notice,
    problem: null,
  } satisfies ExtensionFlowContext
}

export const extensionFlowMachine = setup({
  types: {
    input: {} as ExtensionFlowInput,
    context: {} as ExtensionFlowContext,
    events: {} as ExtensionFlowEvent,
  },
  actors: {
    // Provided by the app: PUT /private/client/loan/active/rollover {type}.
    chooseRollover: fromPromise<Rollover, { type: ExtensionType }>(async () => {
      throw new Error('extension flow: provide the chooseRollover actor')
    }),
    // Provided by the app: POST /private/client/loan/{id}/rollover/{rid}/application.
    openApplication: fromPromise<RolloverApplication, ApplicationRef>(async () => {
      throw new Error('extension flow: provide the openApplication actor')
    }),
    // Provided by the app: POST .../application/{appId}/document {code}.
    signRollover: fromPromise<RolloverApplication, SignInput>(async () => {
      throw new Error('extension flow: provide the signRollover actor')
    }),
    // Provided by the app: POST /private/client/payment-intention {purpose: extension_fee, channel}.
    createIntention: fromPromise<PaymentIntention, { channel: PaymentChannelCode }>(async () => {
      throw new Error('extension flow: provide the createIntention actor')
    }),
  },
  guards: {
    inEffect: ({ context }) => context.rollover?.status === 'active',
    signed: ({ context }) =>
      context.rollover !== null && isChosen(context.rollover) && context.rollover.signed,
    chosen: ({ context }) => context.rollover !== null && isChosen(context.rollover),
    noneAvailable: ({ context }) => extensionOptions(context.rollovers).every((r) => !r.available),
    selectable: ({ context, event }) =>
      event.type === 'SELECT' &&
      extensionOptions(context.rollovers).some((r) => r.id === event.id && r.available),
    hasSelection: ({ context }) => selected(context) !== null,
    applicationSigned: (_, params: { application: RolloverApplication }) =>
      params.application.status === 'signed' && params.application.rollover.signed,
    feePosted: ({ context, event }) => freshOf(context, updateOf(event))?.status === 'active',
    rolloverLost: ({ context, event }) =>
      context.rollover !== null && isLost(freshOf(context, updateOf(event))),
  },
  actions: {
    select: assign(({ event }) => ({
      selectedId: event.type === 'SELECT' ? event.id : null,
      problem: null,
      notice: null,
    })),
    storeChosen: assign(({ context }, params: { rollover: Rollover }) => ({
      rollover: params.rollover,
      selectedId: params.rollover.id,
      // The chosen one as answered; the other type went back to draft, which the next loan answer shows.
      rollovers: context.rollovers.map((r) => (r.id === params.rollover.id ? params.rollover : r)),
      problem: null,
      notice: null,
    })),
    storeApplication: assign((_, params: { application: RolloverApplication }) => ({
      rollover: params.application.rollover,
      applicationId: params.application.id,
      documents: params.application.documents,
      problem: null,
    })),
    storeDocuments: assign(({ event }) => ({
      documents: event.type === 'DOCUMENTS' ? event.documents : [],
      problem: null,
    })),
    storeIntention: assign((_, params: { intention: PaymentIntention }) => ({
      intention: params.intention,
      problem: null,
    })),
    storeProblem: assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    clearProblem: assign({ problem: null }),
    storeChannel: assign(({ event }) => ({
      channel: event.type === 'PAY' ? event.channel : null,
      problem: null,
    })),
    forgetIntention: assign({ intention: null, problem: null }),
    takeLoan: assign(({ event }) => {
      const update = updateOf(event)
      return { rollovers: update.rollovers, dueDate: update.dueDate }
    }),
    takeEffect: assign(({ context, event }) => {
      const update = updateOf(event)
      return {
        rollovers: update.rollovers,
        dueDate: update.dueDate,
        rollover: freshOf(context, update) ?? context.rollover,
        problem: null,
      }
    }),
    /** The flow's rollover was lost: start over on the loan as it is now, saying why. */
    startOver: assign(({ context, event }) => {
      const update = updateOf(event)
      const lost = freshOf(context, update)
      return started(
        update.rollovers,
        update.dueDate,
        null,
        lost?.refusal ?? { code: 'expired', message: null },
      )
    }),
  },
}).createMachine({
  id: 'extensionFlow',
  context: ({ input }) => started(input.rollovers, input.dueDate, input.requestedId ?? null, null),
  initial: 'opening',
  states: {
    opening: {
      description: 'Where the flow starts, from the rollovers and the id asked for (startOf).',
      always: [
        { guard: 'inEffect', target: 'inEffect' },
        { guard: 'signed', target: 'flow.paying' },
        { guard: 'chosen', target: 'flow.applying' },
        { guard: 'noneAvailable', target: 'unavailable' },
        { target: 'flow.choosing' },
      ],
    },
    flow: {
      description: 'Choosing, reviewing, signing and paying; the loan answers may end it or start it over.',
      on: {
        LOAN_UPDATED: [
          { guard: 'feePosted', target: '#extensionFlow.inEffect', actions: 'takeEffect' },
          { guard: 'rolloverLost', target: '#extensionFlow.opening', actions: 'startOver' },
          { actions: 'takeLoan' },
        ],
      },
      initial: 'choosing',
      states: {
        choosing: {
          description: 'The extensions on offer, cheapest first; SELECT one available, CHOOSE it.',
          on: {
            SELECT: { guard: 'selectable', actions: 'select' },
            CHOOSE: { guard: 'hasSelection', target: 'saving', actions: 'clearProblem' },
          },
        },
        saving: {
          description: "PUT .../rollover {type}: its invoice becomes unpaid at today's fee.",
          invoke: {
            id: 'chooseRollover',
            src: 'chooseRollover',
            input: ({ context }) => ({ type: (selected(context) as Rollover).type }),
            onDone: {
              target: 'applying',
              actions: { type: 'storeChosen', params: ({ event }) => ({ rollover: event.output }) },
            },
            onError: {
              target: 'choosing',
              actions: { type: 'storeProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        applying: {
          description:
            'POST .../application: the chosen extension’s application (the same one when asked again).',
          invoke: {
            id: 'openApplication',
            src: 'openApplication',
            input: ({ context }) => refOf(context),
            onDone: [
              {
                guard: {
                  type: 'applicationSigned',
                  params: ({ event }) => ({ application: event.output }),
                },
                target: 'paying',
                actions: { type: 'storeApplication', params: ({ event }) => ({ application: event.output }) },
              },
              {
                target: 'reviewing',
                actions: { type: 'storeApplication', params: ({ event }) => ({ application: event.output }) },
              },
            ],
            onError: {
              target: 'choosing',
              actions: { type: 'storeProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        reviewing: {
          description:
            'The disclosure’s figures: the fee, the days added, the new due date and when it starts.',
          on: {
            AGREE: { target: 'signing', actions: 'clearProblem' },
            BACK: { target: 'choosing', actions: 'clearProblem' },
          },
        },
        signing: {
          description:
            'The code request renders the documents and sends the SMS code (DOCUMENTS); SIGN sends the code.',
          on: {
            DOCUMENTS: { actions: 'storeDocuments' },
            SIGN: { target: 'verifying', actions: 'clearProblem' },
            BACK: { target: 'reviewing', actions: 'clearProblem' },
          },
        },
        verifying: {
          description: 'POST .../document {code}: signs the agreement and disclosure; the fee is payable.',
          invoke: {
            id: 'signRollover',
            src: 'signRollover',
            input: ({ context, event }) => ({
              ...refOf(context),
              applicationId: context.applicationId as number,
              code: event.type === 'SIGN' ? event.code : '',
            }),
            onDone: {
              target: 'paying',
              actions: { type: 'storeApplication', params: ({ event }) => ({ application: event.output }) },
            },
            onError: {
              target: 'signing',
              actions: { type: 'storeProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        paying: {
          description: 'Signed: PAY with a channel asks how to pay the fee.',
          on: { PAY: { target: 'requestingPayment', actions: 'storeChannel' } },
        },
        requestingPayment: {
          description: 'POST /private/client/payment-intention {purpose: extension_fee, channel}.',
          invoke: {
            id: 'createIntention',
            src: 'createIntention',
            input: ({ context }) => ({ channel: context.channel as PaymentChannelCode }),
            onDone: {
              target: 'awaitingPayment',
              actions: { type: 'storeIntention', params: ({ event }) => ({ intention: event.output }) },
            },
            onError: {
              target: 'paying',
              actions: { type: 'storeProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        awaitingPayment: {
          description:
            'How to pay is on screen; the fee posting (LOAN_UPDATED) puts the extension in effect.',
          on: { CHANGE_CHANNEL: { target: 'paying', actions: 'forgetIntention' } },
        },
      },
    },
    inEffect: {
      description: 'The fee posted: the extension is in effect and the loan is due on its newDueDate.',
    },
    unavailable: {
      description: 'No extension can be taken now: each one’s refusal says why.',
    },
  },
})

export type ExtensionFlowSnapshot = SnapshotFrom<typeof extensionFlowMachine>

export type ExtensionStep = 'choose' | 'review' | 'sign' | 'pay'

/** The step of the four the screen shows; null outside them (opening, in effect, unavailable). */
export function stepOf(snapshot: ExtensionFlowSnapshot): ExtensionStep | null {
  if (snapshot.matches({ flow: 'choosing' }) || snapshot.matches({ flow: 'saving' })) return 'choose'
  if (snapshot.matches({ flow: 'applying' }) || snapshot.matches({ flow: 'reviewing' })) return 'review'
  if (snapshot.matches({ flow: 'signing' }) || snapshot.matches({ flow: 'verifying' })) return 'sign'
  if (snapshot.matches('flow')) return 'pay'
  return null
}

/** A call is on its way: the step's buttons wait. */
export function isBusy(snapshot: ExtensionFlowSnapshot): boolean {
  const calling = ['saving', 'applying', 'verifying', 'requestingPayment'] as const
  return calling.some((state) => snapshot.matches({ flow: state }))
}
