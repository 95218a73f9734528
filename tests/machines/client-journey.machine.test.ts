/**
 * The server's journey statechart: model-based paths from xstate/graph reach every state and take every
 * transition, replayed through `advanceJourney` (what the server runs); then the accept/refuse table, state by
 * event, which is exactly what decides 200 or 409 in the API.
 */
import { describe, expect, it } from 'vitest'
import { createTestModel } from 'xstate/graph'
import {
  advanceJourney,
  clientJourneyMachine,
  flowOf,
  initialJourney,
  type JourneyEvent,
  type JourneyStep,
  journeySteps,
  type PersistedJourney,
} from '../../domain/journey/client-journey.machine'

const allEvents: JourneyEvent[] = [
  'SUBMIT_DETAILS',
  'CONFIRM_BACK_OFFICE_DETAILS',
  'SUBMIT_EMPLOYMENT',
  'ADD_CONTACT',
  'SUBMIT_REFERENCE',
  'RECORD_GEO',
  'SUBMIT_ADDRESS',
  'CHANGE_ID_PHOTO',
  'FINISH_ID_DOCUMENT',
  'START_VERIFICATION',
  'VERIFICATION_APPROVED',
  'VERIFICATION_RESUBMISSION',
  'VERIFICATION_DECLINED',
  'BANK_LOGIN_FAILED',
  'BANK_DATA_IMPORTED',
  'SKIP_BANK_DATA',
  'SAVE_PAYOUT',
  'FINISH',
  'APPLY',
  'CHANGE_APPLICATION',
  'CANCEL_APPLICATION',
  'DECISION_APPROVED',
  'DECISION_REJECTED',
  'DECISION_MANUAL',
  'DECISION_DECREASE',
  'DECISION_INCREASE',
  'OFFER_ANSWERED',
  'PREPARE_SIGNATURE',
  'SIGN',
  'PAYOUT_SUCCEEDED',
  'PAYOUT_CASH_PICKUP_READY',
  'PAYOUT_FAILED',
  'RETRY_PAYOUT',
].map((type) => ({ type }) as JourneyEvent)

/** The decision record of docs/decisions/0010: from each step, each accepted event and where it leads. */
const expected: Record<JourneyStep, Partial<Record<JourneyEvent['type'], JourneyStep>>> = {
  new_client_created: { SUBMIT_DETAILS: 'work_info', CONFIRM_BACK_OFFICE_DETAILS: 'work_info' },
  work_info: { SUBMIT_EMPLOYMENT: 'relative_info' },
  relative_info: { ADD_CONTACT: 'relative_info', SUBMIT_REFERENCE: 'address' },
  address: { RECORD_GEO: 'address', SUBMIT_ADDRESS: 'document_upload' },
  document_upload: { CHANGE_ID_PHOTO: 'document_upload', FINISH_ID_DOCUMENT: 'veriff' },
  veriff: {
    START_VERIFICATION: 'veriff',
    VERIFICATION_RESUBMISSION: 'veriff',
    VERIFICATION_APPROVED: 'kontomatik',
    VERIFICATION_DECLINED: 'reject_page',
  },
  kontomatik: {
    BANK_LOGIN_FAILED: 'kontomatik',
    BANK_DATA_IMPORTED: 'disbursement_type',
    SKIP_BANK_DATA: 'disbursement_type',
  },
  disbursement_type: {
    SAVE_PAYOUT: 'disbursement_type',
    FINISH: 'no_loan_page',
    RETRY_PAYOUT: 'payout_processing',
  },
  no_loan_page: { SAVE_PAYOUT: 'no_loan_page', APPLY: 'application_processing' },
  reject_page: { APPLY: 'application_processing' },
  // Issue 6, docs/decisions/0012.
  application_processing: {
    CHANGE_APPLICATION: 'application_processing',
    CANCEL_APPLICATION: 'no_loan_page',
    DECISION_APPROVED: 'otp_agreement',
    DECISION_REJECTED: 'reject_page',
    DECISION_MANUAL: 'manual_page',
    DECISION_DECREASE: 'offer_decrease',
    DECISION_INCREASE: 'offer_increase',
  },
  manual_page: {
    CANCEL_APPLICATION: 'no_loan_page',
    DECISION_APPROVED: 'otp_agreement',
    DECISION_REJECTED: 'reject_page',
  },
  offer_decrease: { OFFER_ANSWERED: 'otp_agreement', CANCEL_APPLICATION: 'no_loan_page' },
  offer_increase: { OFFER_ANSWERED: 'otp_agreement', CANCEL_APPLICATION: 'no_loan_page' },
  otp_agreement: {
    PREPARE_SIGNATURE: 'otp_agreement',
    CHANGE_APPLICATION: 'otp_agreement',
    CANCEL_APPLICATION: 'no_loan_page',
    SIGN: 'payout_processing',
  },
  payout_processing: {
    PAYOUT_SUCCEEDED: 'loan_page',
    PAYOUT_CASH_PICKUP_READY: 'tmc_page',
    PAYOUT_FAILED: 'disbursement_type',
  },
  tmc_page: {},
  loan_page: {},
}

describe('client journey statechart', () => {
  it('model-based paths reach every state and take every transition', () => {
    const model = createTestModel(clientJourneyMachine, { events: allEvents })
    const paths = model.getShortestPaths()
    const states = new Set<string>()
    const transitions = new Set<string>()
    for (const path of paths) {
      // Replay the path the way the server does: persisted value in, persisted value out.
      let persisted: PersistedJourney = initialJourney
      states.add(persisted.value)
      for (const step of path.steps) {
        const from = persisted.value
        const next = advanceJourney(persisted, step.event as JourneyEvent)
        if (!next) continue
        transitions.add(`${from} --${step.event.type}--> ${next.value}`)
        persisted = next
        states.add(persisted.value)
      }
      expect(persisted.value).toBe(path.state.value)
    }
    // Self-transitions are not on a shortest path to a new state: take each from a path that reaches its state.
    for (const [from, events] of Object.entries(expected)) {
      for (const [type, to] of Object.entries(events)) {
        const next = advanceJourney({ version: 2, value: from as JourneyStep }, { type } as JourneyEvent)
        if (next) transitions.add(`${from} --${type}--> ${next.value}`)
        expect(next?.value, `${from} ${type}`).toBe(to)
      }
    }
    expect([...states].sort()).toEqual([...journeySteps].sort())
    const all = Object.entries(expected).flatMap(([from, events]) =>
      Object.entries(events).map(([type, to]) => `${from} --${type}--> ${to}`),
    )
    expect([...transitions].sort()).toEqual(all.sort())
  })

  it.each(journeySteps)('at %s refuses every event the table does not list', (step) => {
    for (const event of allEvents) {
      const next = advanceJourney({ version: 2, value: step }, event)
      expect(next?.value ?? null, `${step} ${event.type}`).toBe(expected[step][event.type] ?? null)
    }
  })

  it('answers the flow as step and status', () => {
    expect(flowOf(initialJourney)).toEqual({ step: 'new_client_created', status: 'active' })
    expect(flowOf({ version: 2, value: 'no_loan_page' })).toEqual({ step: 'no_loan_page', status: 'active' })
    // The server is working (decision, payout): the app shows the loading page.
    expect(flowOf({ version: 2, value: 'application_processing' })).toEqual({
      step: 'application_processing',
      status: 'completed',
    })
    expect(flowOf({ version: 2, value: 'payout_processing' })).toEqual({ step: 'payout_processing', status: 'completed' })
    expect(flowOf({ version: 2, value: 'otp_agreement' })).toEqual({ step: 'otp_agreement', status: 'active' })
  })
})
