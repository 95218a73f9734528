/**
 * Accepting a payment-schedule special offer on My loan (issue 17 item 5; spec section 3 Payment schedule): the
 * client opens one of the loan's offers, reviews it as it would be agreed today, asks for the SMS code (which
 * renders the amendment and its disclosure statement) and signs with the code; the loan is then on the schedule.
 *
 * - closed: the offers are listed. OPEN with an offer's id loads it (`loadOffer`, GET .../special-offer/submit/{id})
 *   in loading; a failed load waits in loadFailed (RETRY, CANCEL).
 * - reviewing: the instalments, the interest, the documents already rendered and, when the decision refuses it
 *   today, why. CONTINUE (only an available offer) goes to signing; CANCEL closes.
 * - signing: the shared code request (machines/code-request.machine.ts, in the screen) asks POST .../submit/{id}
 *   without a code: the documents are rendered and the code sent; the screen passes the documents on (DOCUMENTS).
 *   SIGN sends the code (`acceptOffer`, the same call with the code) in verifying; a wrong code or a refusal (409:
 *   no longer open, the figures changed) comes back to signing with the reason. BACK returns to the review.
 * - accepted: the schedule in force, as the server answered it. The app's actor has asked My loan to reload.
 *
 * No fetch and no React here: the app provides the two actors (`scheduleOfferMachine.provide({ actors })`).
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import type { AmendmentDocument, PaymentSchedule, ScheduleOffer } from '../domain/contract/servicing-answers'

/** A refused call: the API's error code, and its message when the call was refused as a conflict (409). */
export interface OfferProblem {
  code: string
  message: string | null
}

/** An actor's failure as the screen shows it: a 409's message says exactly why (the decision, a changed figure). */
export function problemOf(error: unknown): OfferProblem {
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

export interface AcceptInput {
  offerId: number
  code: string
}

export interface ScheduleOfferContext {
  /** The offer opened, or null while closed. */
  offerId: number | null
  /** The offer as the server quoted it today. */
  offer: ScheduleOffer | null
  /** The amendment and disclosure: those already rendered, then those the code request rendered. */
  documents: AmendmentDocument[]
  /** The schedule in force once accepted. */
  schedule: PaymentSchedule | null
  problem: OfferProblem | null
}

export type ScheduleOfferEvent =
  | { type: 'OPEN'; offerId: number }
  | { type: 'RETRY' }
  | { type: 'CANCEL' }
  | { type: 'CONTINUE' }
  | { type: 'BACK' }
  | { type: 'DOCUMENTS'; documents: AmendmentDocument[] }
  | { type: 'SIGN'; code: string }

const closedContext = (): ScheduleOfferContext => ({
  offerId: null,
  offer: null,
  documents: [],
  schedule: null,
  problem: null,
})

export const scheduleOfferMachine = setup({
  types: {
    context: {} as ScheduleOfferContext,
    events: {} as ScheduleOfferEvent,
  },
  actors: {
    // Provided by the app: GET /private/client/loan/active/payment-schedule/special-offer/submit/{id}.
    loadOffer: fromPromise<ScheduleOffer, { offerId: number }>(async () => {
      throw new Error('schedule offer: provide the loadOffer actor')
    }),
    // Provided by the app: POST .../special-offer/submit/{id} {code}; answers the schedule in force.
    acceptOffer: fromPromise<PaymentSchedule, AcceptInput>(async () => {
      throw new Error('schedule offer: provide the acceptOffer actor')
    }),
  },
  guards: {
    available: ({ context }) => context.offer?.available === true,
  },
  actions: {
    open: assign(({ event }) => ({
      ...closedContext(),
      offerId: event.type === 'OPEN' ? event.offerId : null,
    })),
    close: assign(closedContext),
    storeOffer: assign((_, params: { offer: ScheduleOffer }) => ({
      offer: params.offer,
      documents: params.offer.documents,
      problem: null,
    })),
    storeDocuments: assign(({ event }) => ({
      documents: event.type === 'DOCUMENTS' ? event.documents : [],
      problem: null,
    })),
    storeSchedule: assign((_, params: { schedule: PaymentSchedule }) => ({
      schedule: params.schedule,
      problem: null,
    })),
    storeProblem: assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    clearProblem: assign({ problem: null }),
  },
}).createMachine({
  id: 'scheduleOffer',
  context: closedContext,
  initial: 'closed',
  states: {
    closed: {
      description: 'The loan’s offers are listed; OPEN one to review it.',
      on: { OPEN: { target: 'loading', actions: 'open' } },
    },
    loading: {
      description: 'GET .../special-offer/submit/{id}: the offer as it would be agreed today.',
      invoke: {
        id: 'loadOffer',
        src: 'loadOffer',
        input: ({ context }) => ({ offerId: context.offerId as number }),
        onDone: {
          target: 'reviewing',
          actions: { type: 'storeOffer', params: ({ event }) => ({ offer: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeProblem', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      description: 'The offer could not be loaded: try again or close.',
      on: {
        RETRY: { target: 'loading', actions: 'clearProblem' },
        CANCEL: { target: 'closed', actions: 'close' },
      },
    },
    reviewing: {
      description: 'The instalments, the interest, the documents and, when refused today, why.',
      on: {
        CONTINUE: { guard: 'available', target: 'signing', actions: 'clearProblem' },
        CANCEL: { target: 'closed', actions: 'close' },
      },
    },
    signing: {
      description:
        'The code request renders the documents and sends the SMS code (DOCUMENTS); SIGN sends the code.',
      on: {
        DOCUMENTS: { actions: 'storeDocuments' },
        SIGN: { target: 'verifying', actions: 'clearProblem' },
        BACK: { target: 'reviewing', actions: 'clearProblem' },
        CANCEL: { target: 'closed', actions: 'close' },
      },
    },
    verifying: {
      description: 'POST .../special-offer/submit/{id} {code}: signs and puts the loan on the schedule.',
      invoke: {
        id: 'acceptOffer',
        src: 'acceptOffer',
        input: ({ context, event }) => ({
          offerId: context.offerId as number,
          code: event.type === 'SIGN' ? event.code : '',
        }),
        onDone: {
          target: 'accepted',
          actions: { type: 'storeSchedule', params: ({ event }) => ({ schedule: event.output }) },
        },
        onError: {
          target: 'signing',
          actions: { type: 'storeProblem', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    accepted: {
      description: 'The schedule is in force; My loan shows it.',
      type: 'final',
    },
  },
})

export type ScheduleOfferSnapshot = SnapshotFrom<typeof scheduleOfferMachine>

export type ScheduleOfferStep = 'review' | 'sign'

/** The step the screen shows; null when closed, loading, failed or accepted. */
export function stepOf(snapshot: ScheduleOfferSnapshot): ScheduleOfferStep | null {
  if (snapshot.matches('reviewing')) return 'review'
  if (snapshot.matches('signing') || snapshot.matches('verifying')) return 'sign'
  return null
}

/** A call is on its way: the buttons wait. */
export const isBusy = (snapshot: ScheduleOfferSnapshot) =>
  snapshot.matches('loading') || snapshot.matches('verifying')
