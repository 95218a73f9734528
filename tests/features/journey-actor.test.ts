/** The app's journey actor: the flow call it makes, the answers it refuses, and the requests it cancels. */
import { afterEach, describe, expect, it } from 'vitest'
import type { JourneyFacts } from '../../domain/flow-routes'
import { createJourneyActor } from '../../src/features/journey/journey-actor'

const facts: JourneyFacts = {
  admin: false,
  qaDisableFlow: false,
  client: { firstName: 'Maria', status: 1, soldDebt: false, closedLoansCount: 0 },
  application: null,
}

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

function journeyAnswering(answers: (() => Promise<unknown>)[]) {
  const signals: AbortSignal[] = []
  const actor = createJourneyActor({
    getFlow: (signal) => {
      signals.push(signal)
      const next = answers.shift()
      return next ? next() : new Promise(() => {})
    },
  })
  stops.push(() => actor.stop())
  return { actor, signals }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('createJourneyActor', () => {
  it('stores a checked flow answer', async () => {
    const { actor } = journeyAnswering([async () => ({ step: 'address', status: 'active', extra: true })])
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
    await settle()
    expect(actor.getSnapshot().context).toMatchObject({
      flow: { step: 'address', status: 'active' },
      target: '/registration/address',
    })
  })

  it('an answer with an unknown step is a failed fetch: the last flow stays', async () => {
    const { actor } = journeyAnswering([
      async () => ({ step: 'veriff', status: 'active' }),
      async () => ({ step: 'casino', status: 'active' }),
    ])
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
    await settle()
    actor.send({ type: 'FLOW.REFRESH' })
    await settle()
    expect(actor.getSnapshot().context).toMatchObject({ flow: { step: 'veriff' }, failedFetches: 1 })
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
