/**
 * The back office's sandbox switches in the browser's sandbox facts (domain/journey/routing.ts `isSandbox`,
 * docs/decisions/0039): the instance's sandbox mode puts every visitor in sandbox mode, as the QA cookie does; a
 * client's own puts that client in it once their profile is known; absent facts mean off. The flow-sync machine
 * then stops routing the journey for them (machines/flow-sync.machine.ts).
 */
import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { type ClientFacts, isSandbox, type SessionFacts } from '../../domain/journey/routing'
import { flowSyncMachine } from '../../machines/flow-sync.machine'

const client = (over: Partial<ClientFacts> = {}): ClientFacts => ({
  firstName: 'Maria',
  status: 1,
  soldDebt: false,
  closedLoansCount: 0,
  ...over,
})
const visitor: SessionFacts = { admin: false, qaDisableFlow: false, client: null }

describe('sandbox facts from the back office switches', () => {
  it('the instance switch puts any visitor in sandbox mode; a client switch only that client', () => {
    expect(isSandbox(visitor)).toBe(false)
    expect(isSandbox({ ...visitor, instanceSandbox: false })).toBe(false)
    expect(isSandbox({ ...visitor, instanceSandbox: true })).toBe(true)
    expect(isSandbox({ ...visitor, client: client() })).toBe(false)
    expect(isSandbox({ ...visitor, client: client({ sandbox: false }) })).toBe(false)
    expect(isSandbox({ ...visitor, client: client({ sandbox: true }) })).toBe(true)
  })

  it('a logged-in client whose own switch is on leaves the polling for the sandbox, and comes back when it is off', () => {
    const actor = createActor(flowSyncMachine).start()
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts: { ...visitor, client: null } })
    expect(actor.getSnapshot().matches('polling')).toBe(true)
    actor.send({
      type: 'SESSION.CHANGED',
      loggedIn: true,
      facts: { ...visitor, client: client({ sandbox: true }) },
    })
    expect(actor.getSnapshot().matches('sandbox')).toBe(true)
    actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts: { ...visitor, client: client() } })
    expect(actor.getSnapshot().matches('polling')).toBe(true)
    actor.stop()
  })
})
