/**
 * The app's flow-sync actor: the calls it makes, the answers it reports instead of routing, the application it
 * loads for a cash pickup, and the requests it cancels.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SessionFacts } from '../../domain/journey/routing'
import {
  applicationFactsOf,
  createFlowSyncActor,
  type FlowSyncActorOptions,
  type UnrecognisedFlowReport,
} from '../../src/app/flow-sync-actor'

const facts: SessionFacts = {
  admin: false,
  qaDisableFlow: false,
  client: { firstName: 'Maria', status: 1, soldDebt: false, closedLoansCount: 0 },
}

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

function journeyAnswering(
  answers: (() => Promise<unknown>)[],
  options: Omit<FlowSyncActorOptions, 'getFlow'> = {},
) {
  const signals: AbortSignal[] = []
  const actor = createFlowSyncActor({
    getFlow: (signal) => {
      signals.push(signal)
      const next = answers.shift()
      return next ? next() : new Promise(() => {})
    },
    ...options,
  })
  stops.push(() => actor.stop())
  return { actor, signals }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('createFlowSyncActor', () => {
  it('stores a checked flow answer', async () => {
    const { actor } = journeyAnswering([async () => ({ step: 'address', status: 'active', extra: true })])
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
    await settle()
    expect(actor.getSnapshot().context).toMatchObject({
      flow: { step: 'address', status: 'active' },
      target: '/registration/address',
    })
  })

  it('an answer with an unknown step is not a failed fetch: it is reported with the names only', async () => {
    const report = vi.fn<(r: UnrecognisedFlowReport) => void>()
    const { actor } = journeyAnswering(
      [
        async () => ({ step: 'veriff', status: 'active' }),
        async () => ({ step: 'casino', status: 'active', firstName: 'Maria', mobilePhone: '09171234567' }),
      ],
      { report },
    )
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
    await settle()
    actor.send({ type: 'FLOW.REFRESH' })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ polling: 'unrecognised' })
    expect(actor.getSnapshot().context).toMatchObject({
      flow: null,
      failedFetches: 0,
      unrecognised: { step: 'casino', status: 'active' },
    })
    expect(report).toHaveBeenCalledTimes(1)
    expect(report.mock.calls[0]?.[0]).toEqual({
      event: 'flow.unrecognised',
      message: expect.any(String),
      step: 'casino',
      status: 'active',
    })
    expect(JSON.stringify(report.mock.calls)).not.toMatch(/Maria|0917/)
  })

  it('reports to the console by default, as one structured entry', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const { actor } = journeyAnswering([async () => ({ step: 'casino', status: 'paused' })])
      actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
      await settle()
      expect(error).toHaveBeenCalledWith('[flow-sync]', {
        event: 'flow.unrecognised',
        message: expect.any(String),
        step: 'casino',
        status: 'paused',
      })
    } finally {
      error.mockRestore()
    }
  })

  it('a cash pickup loads the actual application and routes to the cash-pickup page', async () => {
    const getApplication = vi.fn(async () => ({
      id: 31,
      status: 7,
      disbursementType: { type: 'cash_pickup', provider: 'cebuana' },
      cashPickupNumber: 'CP0000000031',
      loanAmount: { amount: 500_000, currency: 'PHP' },
    }))
    const { actor } = journeyAnswering([async () => ({ step: 'tmc_page', status: 'active' })], {
      getApplication,
    })
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
    await settle()
    expect(getApplication).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().context).toMatchObject({
      application: { id: '31', disbursementType: 'cash_pickup', cashPickupNumber: 'CP0000000031' },
      target: '/application/accepted-cash',
    })
  })

  it('other steps do not load the application', async () => {
    const getApplication = vi.fn(async () => null)
    const { actor } = journeyAnswering([async () => ({ step: 'loan_page', status: 'active' })], {
      getApplication,
    })
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
    await settle()
    expect(getApplication).not.toHaveBeenCalled()
    expect(actor.getSnapshot().context.target).toBe('/profile/my-loan')
  })

  it('a refresh or a logout aborts the request on its way', async () => {
    const { actor, signals } = journeyAnswering([])
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
    actor.send({ type: 'FLOW.REFRESH' })
    expect(signals.map((s) => s.aborted)).toEqual([true, false])
    actor.send({ type: 'SESSION.CHANGED', loggedIn: false, facts: { ...facts, client: null } })
    expect(signals.map((s) => s.aborted)).toEqual([true, true])
  })
})

describe('applicationFactsOf (GET /application/actual)', () => {
  it('reads the id, the payout type and the pickup number', () => {
    expect(
      applicationFactsOf({ id: 5, disbursementType: { type: 'ewallet' }, cashPickupNumber: null, extra: 1 }),
    ).toEqual({ id: '5', disbursementType: 'ewallet', cashPickupNumber: null })
  })

  it.each([
    null,
    undefined,
    'x',
    { disbursementType: { type: 'cash_pickup' } },
  ])('no application in %j', (raw) => {
    expect(applicationFactsOf(raw)).toBeNull()
  })

  it('a missing payout type is null', () => {
    expect(applicationFactsOf({ id: 'a-1', disbursementType: null })).toEqual({
      id: 'a-1',
      disbursementType: null,
      cashPickupNumber: null,
    })
  })
})
