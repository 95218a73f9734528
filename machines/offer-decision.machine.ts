/**
 * The client's answer to a counter-offer (spec section 4 "Offer decisions"; issue 6 item 3).
 *
 * - deciding: the offer is on screen. An application whose status holds no offer (not 13, 17 or 18) leaves
 *   at once for noOffer: nothing to answer. APPROVE (with the chosen amount and term for an increase) or REFUSE.
 *   `decideOffer` (domain/offer-decision.ts) says which call and which body; an answer it refuses (an increase
 *   without a choice, a choice outside principal..offered) stays here with the reason, and no call is made.
 * - submitting: the `sendDecision` actor makes that one call (a PUT approval, or the cancel that refuses a
 *   decrease). A failure goes to failed: RETRY sends the same
 *   call again, BACK returns to deciding.
 * - updating: the client changed the package fee consent on the offer screen (FEE_CONSENT.SET while deciding)
 *   and the answer keeps the application going: the application update (PUT /private/client/application/{id},
 *   spec section 4 "Application update": sent only when the amount, the term or the fee consent changed; the
 *   answer call already set the figures) carries the consent (`updateApplication` actor). A failure goes to
 *   updateFailed, where RETRY sends the update again (never the answer).
 * - reloading: every answered offer reloads the application (`reloadApplication` actor); a failure goes to
 *   reloadFailed, where RETRY reloads again (the answer is not sent twice).
 * - done: the reloaded application is in context; the screen tells the journey to refetch its flow, and the
 *   router moves the client on.
 *
 * No fetch and no React here: the app provides both actors (`offerDecisionMachine.provide({ actors })`).
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import {
  type ApplicationConsentUpdate,
  consentUpdateAfterAnswer,
  type DecisionApplication,
  decideOffer,
  type LoanFigures,
  type OfferAnswer,
  type OfferCall,
  type OfferDecision,
  offerKindOf,
} from '../domain/offer-decision'

export interface OfferDecisionInput {
  application: DecisionApplication
}

export type RefusedAnswer = Extract<OfferDecision, { ok: false }>['reason']

export interface OfferDecisionContext {
  application: DecisionApplication
  /** The call the last accepted answer makes (kept for RETRY). */
  call: OfferCall | null
  /** Why the last answer was not accepted; cleared by the next answer. */
  refused: RefusedAnswer | null
  /** The failed call's error code (the API's `response.code`, or 'error'). */
  errorCode: string | null
  /** The package fee consent the client wants; the application's own until they change it. */
  feeConsent: boolean
}

export type OfferDecisionEvent =
  | { type: 'APPROVE'; choice?: LoanFigures }
  | { type: 'REFUSE' }
  | { type: 'RETRY' }
  | { type: 'BACK' }
  | { type: 'FEE_CONSENT.SET'; enabled: boolean }

/** The error code an actor's failure carries (an ApiError has `code`), for the screen's `data-error-key`. */
export function errorCodeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && code) return code
  }
  return 'error'
}

function answerOf(event: OfferDecisionEvent): OfferAnswer | null {
  if (event.type === 'APPROVE')
    return event.choice ? { type: 'approve', choice: event.choice } : { type: 'approve' }
  if (event.type === 'REFUSE') return { type: 'refuse' }
  return null
}

function decisionFor(context: OfferDecisionContext, event: OfferDecisionEvent): OfferDecision | null {
  const answer = answerOf(event)
  return answer ? decideOffer(context.application, answer) : null
}

export const offerDecisionSetup = setup({
  types: {
    input: {} as OfferDecisionInput,
    context: {} as OfferDecisionContext,
    events: {} as OfferDecisionEvent,
  },
  actors: {
    // Provided by the app: `call` (method, path, body) through its API client.
    sendDecision: fromPromise<void, OfferCall>(async () => {
      throw new Error('offer decision: provide the sendDecision actor')
    }),
    // Provided by the app: GET /private/client/application/actual, mapped to the decision facts.
    reloadApplication: fromPromise<DecisionApplication, { id: number }>(async () => {
      throw new Error('offer decision: provide the reloadApplication actor')
    }),
    // Provided by the app: PUT /private/client/application/{id} with the changed consent.
    updateApplication: fromPromise<void, ApplicationConsentUpdate>(async () => {
      throw new Error('offer decision: provide the updateApplication actor')
    }),
  },
  guards: {
    noOfferToAnswer: ({ context }) => offerKindOf(context.application.status) === null,
    answerAccepted: ({ context, event }) => decisionFor(context, event)?.ok === true,
    consentChanged: ({ context }) =>
      consentUpdateAfterAnswer(context.application, context.call, context.feeConsent) !== null,
  },
  actions: {
    storeCall: assign(({ context, event }) => {
      const decision = decisionFor(context, event)
      return { call: decision?.ok ? decision.call : null, refused: null, errorCode: null }
    }),
    storeRefusal: assign(({ context, event }) => {
      const decision = decisionFor(context, event)
      return { refused: decision && !decision.ok ? decision.reason : null }
    }),
    storeError: assign((_, params: { error: unknown }) => ({ errorCode: errorCodeOf(params.error) })),
    clearError: assign({ errorCode: null }),
    storeConsent: assign((_, params: { enabled: boolean }) => ({ feeConsent: params.enabled })),
    forgetCall: assign({ call: null, errorCode: null }),
    storeApplication: assign((_, params: { application: DecisionApplication }) => ({
      application: params.application,
      errorCode: null,
    })),
  },
})

export const offerDecisionMachine = offerDecisionSetup.createMachine({
  id: 'offerDecision',
  context: ({ input }) => ({
    application: input.application,
    call: null,
    refused: null,
    errorCode: null,
    feeConsent: input.application.feeConsent,
  }),
  initial: 'deciding',
  states: {
    noOffer: {
      description: 'The application holds no counter-offer: nothing to approve or refuse.',
    },
    deciding: {
      description: 'The offer is on screen; the client approves (an increase with a choice) or refuses.',
      always: { guard: 'noOfferToAnswer', target: 'noOffer' },
      on: {
        APPROVE: [
          { guard: 'answerAccepted', target: 'submitting', actions: 'storeCall' },
          { actions: 'storeRefusal' },
        ],
        REFUSE: { guard: 'answerAccepted', target: 'submitting', actions: 'storeCall' },
        'FEE_CONSENT.SET': {
          actions: { type: 'storeConsent', params: ({ event }) => ({ enabled: event.enabled }) },
        },
      },
    },
    submitting: {
      description:
        'The one call the answer makes (special offer, yhat decrease, yhat increase approve, or cancel).',
      invoke: {
        id: 'sendDecision',
        src: 'sendDecision',
        input: ({ context }) => context.call as OfferCall,
        onDone: [{ guard: 'consentChanged', target: 'updating' }, { target: 'reloading' }],
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: {
      description: 'The answer was not taken: RETRY sends the same call, BACK lets the client answer again.',
      on: {
        RETRY: { target: 'submitting', actions: 'clearError' },
        BACK: { target: 'deciding', actions: 'forgetCall' },
      },
    },
    updating: {
      description:
        'The answer was taken and the client changed the package fee consent: the application update carries it.',
      invoke: {
        id: 'updateApplication',
        src: 'updateApplication',
        input: ({ context }) =>
          consentUpdateAfterAnswer(
            context.application,
            context.call,
            context.feeConsent,
          ) as ApplicationConsentUpdate,
        onDone: { target: 'reloading' },
        onError: {
          target: 'updateFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    updateFailed: {
      description:
        'The answer was taken but the consent update failed: RETRY sends the update (never the answer).',
      on: { RETRY: { target: 'updating', actions: 'clearError' } },
    },
    reloading: {
      description: 'The answer was taken: the application is reloaded.',
      invoke: {
        id: 'reloadApplication',
        src: 'reloadApplication',
        input: ({ context }) => ({ id: context.application.id }),
        onDone: {
          target: 'done',
          actions: { type: 'storeApplication', params: ({ event }) => ({ application: event.output }) },
        },
        onError: {
          target: 'reloadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    reloadFailed: {
      description: 'The answer was taken but the reload failed: RETRY reloads (the answer is never re-sent).',
      on: { RETRY: { target: 'reloading', actions: 'clearError' } },
    },
    done: {
      type: 'final',
      description: 'Answered and reloaded: the journey refetches its flow and the router moves the client.',
    },
  },
})

export type OfferDecisionSnapshot = SnapshotFrom<typeof offerDecisionMachine>

/** Busy while the answer or the reload is on its way: the buttons are disabled. */
export function isBusy(snapshot: OfferDecisionSnapshot): boolean {
  return (
    snapshot.matches('submitting') ||
    snapshot.matches('updating') ||
    snapshot.matches('reloading') ||
    snapshot.matches('done')
  )
}
