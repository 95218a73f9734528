/**
 * The client's journey (issue 5, issue 14): the one model of which step a client is on. Every other view of the
 * steps derives from this file: the server's transactions and 409s, `GET /flow` and its schema, the browser's
 * routing table (each state's `meta.destination`), the 409 matrix of the API tests, the test helpers that walk a
 * client to a step, and the analyst diagram (docs/statecharts/client-journey.md, annotated with each page).
 *
 * Pure: no actors, no delays, no I/O. The server restores the persisted snapshot inside a transaction, asks the
 * machine whether the event a call stands for fits the current step (`snapshot.can`), and stores the next
 * snapshot and a history row in the same transaction. State names are the spec's flow steps, so `GET /flow`
 * answers `snapshot.value` as is.
 *
 * - Each state's metadata (`JourneyStepMeta`) says what `GET /flow` answers on it (`status`) and where the
 *   browser shows it (`destination`, resolved by ./destinations.ts). `satisfies` makes a step without them a
 *   type error.
 * - Each event's definition (`journeyEventDefinitions`) names the calls and jobs that send it.
 * - `unenteredSteps`: the spec's routing table also names `facebook` and `pre_approval_page`, steps this server
 *   never enters. The browser still routes them (a different back end could answer them), so they carry the same
 *   metadata, but they are not states: no transition reaches them and coverage does not ask for them.
 *
 * Why the steps are in this order: docs/decisions/0010-client-journey-on-the-server.md. Events that keep the
 * step (saving a contact, a photo, a payout account) are self-transitions with the step as target (a targetless
 * transition without actions is one `snapshot.can` reports as not enabled): they are accepted only on their
 * step, and refused with a 409 elsewhere like every other event.
 */
import { setup, transition } from 'xstate'
import type { Destination } from './destinations'

/** What `GET /flow` answers on a step: 'completed' while the server works (the app shows the loading page). */
export type JourneyStatus = 'active' | 'completed'
export const journeyStatuses: readonly JourneyStatus[] = ['active', 'completed']

export interface JourneyStepMeta {
  status: JourneyStatus
  destination: Destination
  /**
   * The phase the analyst diagram draws the step in (docs/statecharts/client-journey.md): required on every state
   * (`JourneyStateConfig`), absent on the steps the server never enters.
   */
  phase?: JourneyPhase
}

/**
 * The journey's phases, in order, as the analyst diagram groups the steps: an overview of the phases and one
 * diagram per phase (scripts/statecharts). A drawing aid only: no call, guard or answer reads it, and a production
 * build drops the descriptions like the states' (scripts/vite-strip-descriptions.ts).
 */
export const journeyPhases = {
  registration: { description: 'The client says who they are, proves it and chooses how to be paid.' },
  application: { description: 'The client applies; the decision engine or an underwriter decides.' },
  signing: { description: 'The client answers a changed offer and signs the agreement.' },
  payout: { description: 'The money is sent, or waits at a cash pickup counter.' },
  loan: { description: 'The loan runs until it is repaid.' },
} as const satisfies Record<string, { description: string }>
export type JourneyPhase = keyof typeof journeyPhases

/** Who sends an event: the client (a call), a back-office user (a call), or a server job. */
export type JourneySender = 'client' | 'back-office' | 'job'

export interface JourneyEventDefinition {
  /** In words, for 409 messages and the diagram. */
  label: string
  /** The calls (method and spec path) that send it; empty when only a job does. */
  calls: readonly string[]
  sentBy: readonly JourneySender[]
}

/** Every event of the journey, with the calls that send it. The event union derives from the keys. */
export const journeyEventDefinitions = {
  SUBMIT_DETAILS: { label: 'Personal details', calls: ['PUT /web/private/client'], sentBy: ['client'] },
  CONFIRM_BACK_OFFICE_DETAILS: {
    label: 'Confirming the details entered for you',
    calls: ['PUT /web/private/client/complete-back-office-client'],
    sentBy: ['client'],
  },
  SUBMIT_EMPLOYMENT: {
    label: 'Employment details',
    calls: ['PUT /web/private/client/complete-step-two'],
    sentBy: ['client'],
  },
  ADD_CONTACT: {
    label: 'An additional contact',
    calls: ['POST /web/private/client/additional/contact'],
    sentBy: ['client'],
  },
  SUBMIT_REFERENCE: {
    label: 'The reference person',
    calls: ['PUT /web/private/client/complete-step-three'],
    sentBy: ['client'],
  },
  RECORD_GEO: { label: 'The device location', calls: ['POST /web/private/client/geo'], sentBy: ['client'] },
  SUBMIT_ADDRESS: {
    label: 'The address',
    calls: ['PUT /web/private/client/complete-step-four'],
    sentBy: ['client'],
  },
  CHANGE_ID_PHOTO: {
    label: 'An identity document photo',
    calls: [
      'POST /web/private/client/id-document/upload',
      'DELETE /web/private/client/id-document/delete/{type}',
    ],
    sentBy: ['client'],
  },
  FINISH_ID_DOCUMENT: {
    label: 'The identity document',
    calls: ['POST /web/private/client/id-document/finish'],
    sentBy: ['client'],
  },
  START_VERIFICATION: {
    label: 'Identity verification',
    calls: ['POST /web/private/client/veriff/session'],
    sentBy: ['client'],
  },
  VERIFICATION_APPROVED: {
    label: 'An identity verification decision',
    calls: ['GET /web/private/client/veriff/decision/{id}'],
    sentBy: ['client'],
  },
  VERIFICATION_RESUBMISSION: {
    label: 'An identity verification decision',
    calls: ['GET /web/private/client/veriff/decision/{id}'],
    sentBy: ['client'],
  },
  VERIFICATION_DECLINED: {
    label: 'An identity verification decision',
    calls: ['GET /web/private/client/veriff/decision/{id}'],
    sentBy: ['client'],
  },
  BANK_LOGIN_FAILED: {
    label: 'Bank linking',
    calls: ['POST /web/private/client/kontomatik/import'],
    sentBy: ['client'],
  },
  BANK_DATA_IMPORTED: {
    label: 'Bank linking',
    calls: ['POST /web/private/client/kontomatik/import'],
    sentBy: ['client'],
  },
  SKIP_BANK_DATA: {
    label: 'Skipping bank linking',
    calls: ['POST /web/private/client/kontomatik/skip'],
    sentBy: ['client'],
  },
  SAVE_PAYOUT: {
    label: 'A payout method',
    calls: [
      'POST /web/private/client/disbursement-type',
      'PUT /web/private/client/disbursement-type/select/{id}',
    ],
    sentBy: ['client'],
  },
  FINISH: { label: 'Finishing registration', calls: ['PUT /web/private/client/finish'], sentBy: ['client'] },
  APPLY: { label: 'A new application', calls: ['POST /web/private/client/application'], sentBy: ['client'] },
  CHANGE_APPLICATION: {
    label: 'A change to the application',
    calls: [
      'PUT /web/private/client/application/{id}',
      'POST /web/private/client/application/{applicationId}/promocode',
    ],
    sentBy: ['client'],
  },
  CANCEL_APPLICATION: {
    label: 'Cancelling the application',
    calls: ['POST /web/private/client/application/{id}/cancel'],
    sentBy: ['client'],
  },
  DECISION_APPROVED: {
    label: 'A decision on the application',
    calls: ['PUT /web/private/back-office/application/{id}/decision'],
    sentBy: ['job', 'back-office'],
  },
  DECISION_REJECTED: {
    label: 'A decision on the application',
    calls: ['PUT /web/private/back-office/application/{id}/decision'],
    sentBy: ['job', 'back-office'],
  },
  DECISION_MANUAL: { label: 'A decision on the application', calls: [], sentBy: ['job'] },
  DECISION_DECREASE: { label: 'A decision on the application', calls: [], sentBy: ['job'] },
  DECISION_INCREASE: { label: 'A decision on the application', calls: [], sentBy: ['job'] },
  OFFER_ANSWERED: {
    label: 'An answer to the offer',
    calls: [
      'PUT /web/private/client/special/offer/approve',
      'PUT /web/private/client/yhat/offer/approve/decrease',
      'PUT /web/private/client/yhat/offer/approve/increase',
    ],
    sentBy: ['client'],
  },
  PREPARE_SIGNATURE: {
    label: 'The loan documents',
    calls: [
      'POST /web/private/client/render/document',
      'POST /web/private/client/application/agreement/{id}',
    ],
    sentBy: ['client'],
  },
  SIGN: {
    label: 'Signing the agreement',
    calls: ['POST /web/private/client/application/agreement/{id}'],
    sentBy: ['client'],
  },
  PAYOUT_SUCCEEDED: { label: 'A payout result', calls: [], sentBy: ['job'] },
  PAYOUT_CASH_PICKUP_READY: { label: 'A payout result', calls: [], sentBy: ['job'] },
  PAYOUT_FAILED: { label: 'A payout result', calls: [], sentBy: ['job'] },
  /** PUT /finish after a failed payout and a new payout account: the same disbursement is tried again. */
  RETRY_PAYOUT: {
    label: 'Retrying the payout',
    calls: ['PUT /web/private/client/finish'],
    sentBy: ['client'],
  },
  /** The loan lifecycle reached paid (domain/loan/loan-lifecycle.machine.ts REPAID): the client may borrow again. */
  LOAN_REPAID: {
    label: 'The loan was repaid',
    // The gateway's webhook and reconciliation post as jobs; the back office posts or assigns by hand.
    calls: ['POST /web/private/back-office/payments', 'POST /web/private/back-office/payments/{id}/assign'],
    sentBy: ['job', 'back-office'],
  },
  /** The back office cancelled a signed loan whose money never left (loan lifecycle CANCELLED). */
  LOAN_CANCELLED: {
    label: 'The loan was cancelled before its payout',
    calls: ['POST /web/private/back-office/loan/{id}/cancel'],
    sentBy: ['back-office'],
  },
  /**
   * An additional application (issue 18) ended without a new loan (cancelled, rejected) while the client's loan
   * still runs: back to my loan. The server sends it itself (a job, 'return-to-loan'), right after the cancel or
   * the rejection.
   */
  RETURN_TO_LOAN: { label: 'Back to the running loan', calls: [], sentBy: ['job'] },
  /** A reversal made a paid loan owe again (loan lifecycle REOPENED). */
  LOAN_REOPENED: {
    label: 'A repaid loan was reopened',
    calls: ['POST /web/private/back-office/payments/{id}/reversal'],
    sentBy: ['back-office'],
  },
} as const satisfies Record<string, JourneyEventDefinition>

export type JourneyEventType = keyof typeof journeyEventDefinitions
export type JourneyEvent = { type: JourneyEventType }
export const journeyEventTypes = Object.keys(journeyEventDefinitions) as JourneyEventType[]

interface JourneyStateConfig {
  meta: JourneyStepMeta & { phase: JourneyPhase }
  description?: string
  on?: Partial<Record<JourneyEventType, string>>
}

const active = (destination: Destination): JourneyStepMeta => ({ status: 'active', destination })
const activeIn = (phase: JourneyPhase, destination: Destination) => ({ ...active(destination), phase })
const waiting = (phase: JourneyPhase) => ({
  status: 'completed' as const,
  destination: { page: 'loading' as const },
  phase,
})

/** The steps, in the order a new client usually meets them. The step union derives from the keys. */
const steps = {
  new_client_created: {
    description:
      'Just signed up with a verified phone: the client gives names, birth date, gender, civil status and e-mail. A client whose details staff entered (a lead) confirms them instead.',
    meta: activeIn('registration', { when: 'hasFirstName', yes: 'apply', no: 'details' }),
    on: { SUBMIT_DETAILS: 'work_info', CONFIRM_BACK_OFFICE_DETAILS: 'work_info' },
  },
  work_info: {
    description:
      'Employment: type of work, employer or business, monthly income and expenses (they feed the decision and the affordability check).',
    meta: activeIn('registration', { page: 'employment' }),
    on: { SUBMIT_EMPLOYMENT: 'relative_info' },
  },
  relative_info: {
    description:
      'A reference person (a relative or friend) the client names, with their mobile number. Hiram never contacts references to collect a debt (SEC MC 18 s.2019).',
    meta: activeIn('registration', { page: 'reference' }),
    on: { ADD_CONTACT: 'relative_info', SUBMIT_REFERENCE: 'address' },
  },
  address: {
    description:
      'Home address picked from the official PSGC lists (region, province, city, barangay) plus the street; the phone location may be recorded with consent.',
    meta: activeIn('registration', { page: 'address' }),
    on: { RECORD_GEO: 'address', SUBMIT_ADDRESS: 'document_upload' },
  },
  document_upload: {
    description: 'A government ID: its type and number, and photos of it and of the client holding it.',
    meta: activeIn('registration', { page: 'documents' }),
    on: { CHANGE_ID_PHOTO: 'document_upload', FINISH_ID_DOCUMENT: 'veriff' },
  },
  veriff: {
    description:
      'The identity check: the provider compares the ID photos with a selfie. Approved moves on; declined ends on the rejected page; a request for new photos stays here.',
    meta: activeIn('registration', { page: 'documentVerification' }),
    on: {
      START_VERIFICATION: 'veriff',
      VERIFICATION_RESUBMISSION: 'veriff',
      VERIFICATION_APPROVED: 'kontomatik',
      VERIFICATION_DECLINED: 'reject_page',
    },
  },
  kontomatik: {
    description:
      'Optional bank link: the client may import bank statements (a better-informed decision) or skip this step.',
    meta: activeIn('registration', { page: 'bankData' }),
    on: {
      BANK_LOGIN_FAILED: 'kontomatik',
      BANK_DATA_IMPORTED: 'disbursement_type',
      SKIP_BANK_DATA: 'disbursement_type',
    },
  },
  disbursement_type: {
    description: 'A failed payout comes back here too: PUT /finish then retries it (RETRY_PAYOUT).',
    meta: activeIn('registration', { page: 'payment' }),
    on: {
      SAVE_PAYOUT: 'disbursement_type',
      FINISH: 'no_loan_page',
      RETRY_PAYOUT: 'payout_processing',
      LOAN_CANCELLED: 'no_loan_page',
    },
  },
  no_loan_page: {
    description: 'Registration is complete and the client may apply (docs/decisions/0012).',
    meta: activeIn('application', { when: 'hasClosedLoans', yes: 'noLoan', no: 'apply' }),
    on: {
      SAVE_PAYOUT: 'no_loan_page',
      APPLY: 'application_processing',
      LOAN_REOPENED: 'loan_page',
      RETURN_TO_LOAN: 'loan_page',
    },
  },
  reject_page: {
    description:
      'Identity verification declined, or an application rejected. APPLY is accepted here only from a client whose registration is complete (a payout account selected), which a declined identity never is.',
    meta: activeIn('application', { page: 'rejected' }),
    on: { APPLY: 'application_processing', RETURN_TO_LOAN: 'loan_page' },
  },
  application_processing: {
    description: 'The decision engine works: GET /flow answers status completed (the loading page).',
    meta: waiting('application'),
    on: {
      CHANGE_APPLICATION: 'application_processing',
      CANCEL_APPLICATION: 'no_loan_page',
      DECISION_APPROVED: 'otp_agreement',
      DECISION_REJECTED: 'reject_page',
      DECISION_MANUAL: 'manual_page',
      DECISION_DECREASE: 'offer_decrease',
      DECISION_INCREASE: 'offer_increase',
    },
  },
  manual_page: {
    description:
      'The decision engine could not decide alone: an underwriter reviews the application in the back office queue; the client waits on a page that says so.',
    meta: activeIn('application', { page: 'manualVerification' }),
    on: {
      CANCEL_APPLICATION: 'no_loan_page',
      DECISION_APPROVED: 'otp_agreement',
      DECISION_REJECTED: 'reject_page',
    },
  },
  offer_decrease: {
    description:
      'The engine approved a lower amount (or shorter term) than asked: the client accepts it or cancels.',
    meta: activeIn('signing', { page: 'offerDecrease' }),
    on: { OFFER_ANSWERED: 'otp_agreement', CANCEL_APPLICATION: 'no_loan_page' },
  },
  offer_increase: {
    description:
      'The engine may lend more than asked: the client takes the higher amount or keeps the one asked for.',
    meta: activeIn('signing', { page: 'offerIncrease' }),
    on: { OFFER_ANSWERED: 'otp_agreement', CANCEL_APPLICATION: 'no_loan_page' },
  },
  otp_agreement: {
    description:
      'The offer is ready: the client reads the loan agreement and disclosure statement (RA 3765) and signs with the code sent by SMS.',
    meta: activeIn('signing', { page: 'summary' }),
    on: {
      PREPARE_SIGNATURE: 'otp_agreement',
      CHANGE_APPLICATION: 'otp_agreement',
      CANCEL_APPLICATION: 'no_loan_page',
      SIGN: 'payout_processing',
    },
  },
  payout_processing: {
    description: 'The payout runs: GET /flow answers status completed (the loading page).',
    meta: waiting('payout'),
    // No LOAN_CANCELLED here: the back office cancels only a loan whose payout failed, and the failure has already
    // taken the client back to disbursement_type (the model-based API test found it unreachable).
    on: {
      PAYOUT_SUCCEEDED: 'loan_page',
      PAYOUT_CASH_PICKUP_READY: 'tmc_page',
      PAYOUT_FAILED: 'disbursement_type',
    },
  },
  tmc_page: {
    description:
      'Cash pickup: the loan exists and the money waits at the counter; the page shows the pickup number.',
    meta: activeIn('payout', { when: 'cashPickupReady', yes: 'acceptedCash', no: 'accepted' }),
    on: { LOAN_REPAID: 'no_loan_page' },
  },
  loan_page: {
    description:
      'An active loan (my loan). Repaid in full, the loan lifecycle sends LOAN_REPAID. APPLY: an additional loan, when the additional-loan rule allows it (domain/loan/additional-loan.ts, issue 18).',
    meta: activeIn('loan', { page: 'myLoan' }),
    on: { LOAN_REPAID: 'no_loan_page', APPLY: 'application_processing' },
  },
} as const satisfies Record<string, JourneyStateConfig>

export type JourneyStep = keyof typeof steps
export const journeySteps = Object.keys(steps) as JourneyStep[]

/** Steps of the spec's routing table that this server never enters (see the file comment). */
export const unenteredSteps = {
  /** A marketing detour: the external site, with the query and the application id. */
  facebook: active({ external: 'facebook' }),
  /** A pre-approved client's first page: apply. */
  pre_approval_page: active({ page: 'apply' }),
} as const satisfies Record<string, JourneyStepMeta>

/** Every step `GET /flow` may name: the machine's states, then the ones it never enters. */
export type FlowStep = JourneyStep | keyof typeof unenteredSteps
export const flowSteps: readonly FlowStep[] = [
  ...journeySteps,
  ...(Object.keys(unenteredSteps) as (keyof typeof unenteredSteps)[]),
]

export function stepMeta(step: FlowStep): JourneyStepMeta {
  return step in steps ? steps[step as JourneyStep].meta : unenteredSteps[step as keyof typeof unenteredSteps]
}

export function isEnteredStep(step: FlowStep): step is JourneyStep {
  return step in steps
}

export const clientJourneyMachine = setup({
  types: { events: {} as JourneyEvent, meta: {} as JourneyStepMeta },
}).createMachine({
  id: 'clientJourney',
  initial: 'new_client_created',
  states: steps,
})

export type ClientJourneySnapshot = ReturnType<typeof clientJourneyMachine.resolveState>

/**
 * The model's version, stored with every snapshot. Bump it when a change to the states makes stored snapshots
 * mean something else, and add the step from the previous version to `migratePersistedJourney`.
 */
export const JOURNEY_MODEL_VERSION = 2

/** What the database keeps: the model's version and the state value (context is empty; the shape leaves room). */
export interface PersistedJourney {
  version: typeof JOURNEY_MODEL_VERSION
  value: JourneyStep
}

export const initialJourney: PersistedJourney = {
  version: JOURNEY_MODEL_VERSION,
  value: 'new_client_created',
}

/**
 * A stored snapshot of any version this code knows, brought to the current one; null for anything else (a
 * hand-edited or future snapshot must not be guessed at).
 * - version 1 (issues 5-13): `{ value }` without a version; the steps were the same.
 */
export function migratePersistedJourney(stored: unknown): PersistedJourney | null {
  if (typeof stored !== 'object' || stored === null) return null
  const { version, value } = stored as { version?: unknown; value?: unknown }
  const known = typeof value === 'string' && (journeySteps as readonly string[]).includes(value)
  if (!known) return null
  if (version === undefined || version === 1 || version === JOURNEY_MODEL_VERSION) {
    return { version: JOURNEY_MODEL_VERSION, value: value as JourneyStep }
  }
  return null
}

export function restoreJourney(persisted: PersistedJourney): ClientJourneySnapshot {
  return clientJourneyMachine.resolveState({ value: persisted.value, context: {} })
}

/** Steps where the client waits for the server (decision, payout): their status is 'completed'. */
export const waitingSteps: readonly JourneyStep[] = journeySteps.filter(
  (s) => steps[s].meta.status === 'completed',
)

export interface Flow {
  step: FlowStep
  status: JourneyStatus
}

/** The flow answer of GET /flow: the step and its status from the step's metadata. */
export function flowOf(persisted: PersistedJourney): { step: JourneyStep; status: JourneyStatus } {
  const step = restoreJourney(persisted).value as JourneyStep
  return { step, status: steps[step].meta.status }
}

/**
 * The journey after an event, or null when the event does not fit the current step. Pure: the caller holds the
 * row lock and writes the result in the same transaction.
 */
export function advanceJourney(persisted: PersistedJourney, event: JourneyEvent): PersistedJourney | null {
  const snapshot = restoreJourney(persisted)
  if (!snapshot.can(event)) return null
  const [next] = transition(clientJourneyMachine, snapshot, event)
  return { version: JOURNEY_MODEL_VERSION, value: next.value as JourneyStep }
}

/** The events each step accepts (from the machine's transitions), e.g. for the 409 matrix. */
export function eventsAcceptedAt(step: JourneyStep): JourneyEventType[] {
  const on = (steps[step] as JourneyStateConfig).on ?? {}
  return Object.keys(on) as JourneyEventType[]
}
