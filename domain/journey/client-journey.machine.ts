/**
 * The client's journey as the server keeps it (issue 5): which registration step the client is on. Pure: no
 * actors, no delays, no I/O. The server restores the persisted snapshot inside a transaction, asks the machine
 * whether the event a call stands for fits the current step (`snapshot.can`), and stores the next snapshot in
 * the same transaction. State names are the spec's flow steps, so `GET /flow` answers `snapshot.value` as is.
 *
 * The calls behind each event, and why the steps are in this order, are in
 * docs/decisions/0010-client-journey-on-the-server.md. Events that keep the step (saving a contact, a photo, a
 * payout account) are self-transitions with the step as target (a targetless transition without actions is
 * one `snapshot.can` reports as not enabled): they are accepted only on their step, and refused with a 409
 * elsewhere like every other event.
 */
import { setup, transition } from 'xstate'

export const journeySteps = [
  'new_client_created',
  'work_info',
  'relative_info',
  'address',
  'document_upload',
  'veriff',
  'kontomatik',
  'disbursement_type',
  'no_loan_page',
  'reject_page',
  // Issue 6: the application (docs/decisions/0012). The two *_processing steps are waiting states: the flow
  // answers them with status 'completed' (the app shows the loading page), every other step is 'active'.
  'application_processing',
  'manual_page',
  'offer_decrease',
  'offer_increase',
  'otp_agreement',
  'payout_processing',
  'tmc_page',
  'loan_page',
] as const
export type JourneyStep = (typeof journeySteps)[number]
export type JourneyStatus = 'active' | 'completed'

export type JourneyEvent =
  /** PUT /private/client: names, birth date, gender, civil status, e-mail. */
  | { type: 'SUBMIT_DETAILS' }
  /** PUT /complete-back-office-client: the client confirms details a back-office agent entered. */
  | { type: 'CONFIRM_BACK_OFFICE_DETAILS' }
  /** PUT /complete-step-two: employment and income. */
  | { type: 'SUBMIT_EMPLOYMENT' }
  /** POST /additional/contact: one more contact person; the step stays. */
  | { type: 'ADD_CONTACT' }
  /** PUT /complete-step-three: the relative to contact. */
  | { type: 'SUBMIT_REFERENCE' }
  /** POST /geo: the device's location, with the client's permission; the step stays. */
  | { type: 'RECORD_GEO' }
  /** PUT /complete-step-four: the PSGC address. */
  | { type: 'SUBMIT_ADDRESS' }
  /** POST /id-document/upload and DELETE /id-document/delete/{type}; the step stays. */
  | { type: 'CHANGE_ID_PHOTO' }
  /** POST /id-document/finish: document type, number, expiry, with the photos uploaded. */
  | { type: 'FINISH_ID_DOCUMENT' }
  /** POST /veriff/session; the step stays until a decision. */
  | { type: 'START_VERIFICATION' }
  | { type: 'VERIFICATION_APPROVED' }
  | { type: 'VERIFICATION_RESUBMISSION' }
  | { type: 'VERIFICATION_DECLINED' }
  /** POST /kontomatik/import with credentials the bank refused; the step stays. */
  | { type: 'BANK_LOGIN_FAILED' }
  | { type: 'BANK_DATA_IMPORTED' }
  /** POST /kontomatik/skip: linking a bank is optional. */
  | { type: 'SKIP_BANK_DATA' }
  /** POST /disbursement-type and PUT /disbursement-type/select/{id}; the step stays. */
  | { type: 'SAVE_PAYOUT' }
  /** PUT /finish: the summary is confirmed with a payout method chosen. */
  | { type: 'FINISH' }
  // Issue 6 (docs/decisions/0012): the application, from create to the loan.
  /** POST /private/client/application. */
  | { type: 'APPLY' }
  /** PUT /private/client/application/{id} and POST .../{id}/promocode while it waits; the step stays. */
  | { type: 'CHANGE_APPLICATION' }
  /** POST /private/client/application/{id}/cancel. */
  | { type: 'CANCEL_APPLICATION' }
  /** The decision engine (or the back office, for manual verification). */
  | { type: 'DECISION_APPROVED' }
  | { type: 'DECISION_REJECTED' }
  | { type: 'DECISION_MANUAL' }
  | { type: 'DECISION_DECREASE' }
  | { type: 'DECISION_INCREASE' }
  /** PUT .../special/offer/approve, .../yhat/offer/approve/decrease, .../yhat/offer/approve/increase. */
  | { type: 'OFFER_ANSWERED' }
  /** POST /render/document and the code request of POST /application/agreement/{id}; the step stays. */
  | { type: 'PREPARE_SIGNATURE' }
  /** POST /application/agreement/{id} with the right code. */
  | { type: 'SIGN' }
  | { type: 'PAYOUT_SUCCEEDED' }
  | { type: 'PAYOUT_CASH_PICKUP_READY' }
  | { type: 'PAYOUT_FAILED' }
  /** PUT /finish after a failed payout and a new payout account: the same disbursement is tried again. */
  | { type: 'RETRY_PAYOUT' }

export const clientJourneyMachine = setup({
  types: { events: {} as JourneyEvent },
}).createMachine({
  id: 'clientJourney',
  initial: 'new_client_created',
  states: {
    new_client_created: {
      on: { SUBMIT_DETAILS: 'work_info', CONFIRM_BACK_OFFICE_DETAILS: 'work_info' },
    },
    work_info: { on: { SUBMIT_EMPLOYMENT: 'relative_info' } },
    relative_info: { on: { ADD_CONTACT: 'relative_info', SUBMIT_REFERENCE: 'address' } },
    address: { on: { RECORD_GEO: 'address', SUBMIT_ADDRESS: 'document_upload' } },
    document_upload: { on: { CHANGE_ID_PHOTO: 'document_upload', FINISH_ID_DOCUMENT: 'veriff' } },
    veriff: {
      on: {
        START_VERIFICATION: 'veriff',
        VERIFICATION_RESUBMISSION: 'veriff',
        VERIFICATION_APPROVED: 'kontomatik',
        VERIFICATION_DECLINED: 'reject_page',
      },
    },
    kontomatik: {
      on: {
        BANK_LOGIN_FAILED: 'kontomatik',
        BANK_DATA_IMPORTED: 'disbursement_type',
        SKIP_BANK_DATA: 'disbursement_type',
      },
    },
    /** A failed payout comes back here too: PUT /finish then retries it (RETRY_PAYOUT). */
    disbursement_type: {
      on: { SAVE_PAYOUT: 'disbursement_type', FINISH: 'no_loan_page', RETRY_PAYOUT: 'payout_processing' },
    },
    /** Registration is complete and the client may apply (issue 6, docs/decisions/0012). */
    no_loan_page: { on: { SAVE_PAYOUT: 'no_loan_page', APPLY: 'application_processing' } },
    /**
     * Identity verification declined, or an application rejected. The service accepts APPLY here only from a
     * client whose registration is complete (a payout account selected), which a declined identity never is.
     */
    reject_page: { on: { APPLY: 'application_processing' } },
    application_processing: {
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
      on: {
        CANCEL_APPLICATION: 'no_loan_page',
        DECISION_APPROVED: 'otp_agreement',
        DECISION_REJECTED: 'reject_page',
      },
    },
    offer_decrease: { on: { OFFER_ANSWERED: 'otp_agreement', CANCEL_APPLICATION: 'no_loan_page' } },
    offer_increase: { on: { OFFER_ANSWERED: 'otp_agreement', CANCEL_APPLICATION: 'no_loan_page' } },
    otp_agreement: {
      on: {
        PREPARE_SIGNATURE: 'otp_agreement',
        CHANGE_APPLICATION: 'otp_agreement',
        CANCEL_APPLICATION: 'no_loan_page',
        SIGN: 'payout_processing',
      },
    },
    payout_processing: {
      on: {
        PAYOUT_SUCCEEDED: 'loan_page',
        PAYOUT_CASH_PICKUP_READY: 'tmc_page',
        PAYOUT_FAILED: 'disbursement_type',
      },
    },
    /** Cash pickup: the loan exists and the money waits at the counter; the page shows the pickup number. */
    tmc_page: {},
    /** An active loan (my-loan). */
    loan_page: {},
  },
})

export type JourneySnapshot = ReturnType<typeof clientJourneyMachine.resolveState>

/** What the database keeps: the state value (context is empty today; the shape leaves room for it). */
export interface PersistedJourney {
  value: JourneyStep
}

export const initialJourney: PersistedJourney = { value: 'new_client_created' }

export function restoreJourney(persisted: PersistedJourney): JourneySnapshot {
  return clientJourneyMachine.resolveState({ value: persisted.value, context: {} })
}

/** Steps where the client waits for the server (decision, payout): the app shows the loading page. */
export const waitingSteps: readonly JourneyStep[] = ['application_processing', 'payout_processing']

/** The flow answer of GET /flow: 'completed' while the server works, 'active' on every step the client acts on. */
export function flowOf(persisted: PersistedJourney): { step: JourneyStep; status: JourneyStatus } {
  const step = restoreJourney(persisted).value as JourneyStep
  return { step, status: waitingSteps.includes(step) ? 'completed' : 'active' }
}

/**
 * The journey after an event, or null when the event does not fit the current step. Pure: the caller holds the
 * row lock and writes the result in the same transaction.
 */
export function advanceJourney(persisted: PersistedJourney, event: JourneyEvent): PersistedJourney | null {
  const snapshot = restoreJourney(persisted)
  if (!snapshot.can(event)) return null
  const [next] = transition(clientJourneyMachine, snapshot, event)
  return { value: next.value as JourneyStep }
}
