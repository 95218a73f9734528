/**
 * The loan's lifecycle statechart, tested from the model itself (no copied table of its transitions):
 * - model-based paths (xstate/graph) reach every state; each path is extended by every event its last state
 *   accepts, so every transition is taken; the paths are replayed on a real actor (coverage recorded by
 *   tests/support/model-coverage.ts) and through `advanceLoan`, what the server runs, which must agree;
 * - every event is refused (`advanceLoan` answers null) wherever the model has no transition for it;
 * - the metadata: every state's status code is the spec's (spec section 4, Status codes, written out here once
 *   more on purpose), and the unentered statuses are neither states nor targets;
 * - stored snapshots: only the current version and a state of the model are restored.
 */

import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  advanceLoan,
  initialLoan,
  isClosedLoanState,
  isEnteredLoanState,
  isOpenLoanState,
  LOAN_MODEL_VERSION,
  type LoanEvent,
  type LoanEventSender,
  type LoanState,
  type LoanStatusName,
  loanEventDefinitions,
  loanEventsAcceptedAt,
  loanEventTypes,
  loanLifecycleMachine,
  loanStateMeta,
  loanStateOfStatus,
  loanStates,
  loanStatusCode,
  loanStatusOf,
  migratePersistedLoan,
  restoreLoan,
  unenteredLoanStates,
} from '../../domain/loan/loan-lifecycle.machine'
import { createCoverageRecorder, formatCoverage, listTransitions } from '../support/model-coverage'

const allEvents: LoanEvent[] = loanEventTypes.map((type) => ({ type }))
const persisted = (value: LoanState) => ({ version: 1 as const, value })

/** The spec's loan status table (spec section 4, Status codes), copied from the spec, not from the model. */
const specLoanStatuses: [string, number][] = [
  ['draft', 1],
  ['cancelled', 2],
  ['cannot make offer', 3],
  ['active', 4],
  ['paid', 5],
  ['on hold', 6],
  ['terminated', 8],
  ['sold debt', 9],
  ['write off', 10],
]
const specCode = (state: string) => specLoanStatuses.find(([name]) => name.replace(/ /g, '_') === state)?.[1]

describe('loan lifecycle statechart', () => {
  it('model-based paths reach every state and take every transition (replayed on the machine and the server)', () => {
    const model = createTestModel(loanLifecycleMachine, { events: allEvents })
    const recorder = createCoverageRecorder(loanLifecycleMachine)
    let replays = 0
    for (const path of model.getShortestPaths()) {
      const events = path.steps.map((s) => s.event as LoanEvent).filter((e) => e.type in loanEventDefinitions)
      const last = loanLifecycleMachine.resolveState({ value: path.state.value, context: {} })
      // Every event the path's last state accepts, one at a time: together they take every transition.
      const accepted = allEvents.filter((event) => last.can(event))
      for (const extra of [null, ...accepted]) {
        const replay = extra ? [...events, extra] : events
        const actor = createActor(loanLifecycleMachine, { inspect: recorder.inspect }).start()
        let server = initialLoan
        for (const event of replay) {
          actor.send(event)
          const next = advanceLoan(server, event)
          expect(next, `${server.value} ${event.type}`).not.toBeNull()
          server = next!
          expect(server.value).toBe(actor.getSnapshot().value)
          expect(server.version).toBe(LOAN_MODEL_VERSION)
        }
        if (!extra) expect(server.value).toBe(path.state.value)
        actor.stop()
        replays++
      }
    }
    const report = recorder.report()
    console.info(`${formatCoverage('loan-lifecycle', report)} (${replays} replays)`)
    expect(report.states.missing).toEqual([])
    expect(report.transitions.missing).toEqual([])
    expect(report.states.total).toBe(loanStates.length)
    expect(report.transitions.total).toBe(
      loanStates.reduce((n, state) => n + loanEventsAcceptedAt(state).length, 0),
    )
  })

  it.each(
    loanStates,
  )('at %s accepts exactly the events it has a transition for, refusing the rest', (state) => {
    const node = loanLifecycleMachine.root.states[state]!
    const accepted: string[] = []
    for (const event of allEvents) {
      const next = advanceLoan(persisted(state), event)
      const definitions = node.transitions.get(event.type)
      if (!definitions) {
        expect(next, `${state} ${event.type}`).toBeNull()
        expect(restoreLoan(persisted(state)).can(event), `${state} ${event.type}`).toBe(false)
        continue
      }
      accepted.push(event.type)
      expect(next, `${state} ${event.type}`).toEqual({
        version: LOAN_MODEL_VERSION,
        value: definitions[0]!.target?.[0]?.key ?? state,
      })
    }
    expect([...loanEventsAcceptedAt(state)].sort()).toEqual(accepted.sort())
  })

  it('every transition names its target, so self-transitions are enabled too', () => {
    const transitions = listTransitions(loanLifecycleMachine)
    expect(transitions.length).toBeGreaterThan(0)
    for (const t of transitions) expect(t.targets, t.key).toHaveLength(1)
    // The partial payment, the reversal that changes nothing and the refund keep the state they arrive in.
    const selfLoops = transitions.filter((t) => t.targets[0] === t.source).map((t) => t.key)
    expect(selfLoops.length).toBeGreaterThan(0)
    for (const key of selfLoops) {
      const [, state, event] = /^loanLifecycle\.(\w+) --(\w+)-->/.exec(key)!
      expect(advanceLoan(persisted(state as LoanState), { type: event as LoanEvent['type'] })?.value).toBe(
        state,
      )
    }
  })

  it('starts at draft; cancelled is final and accepts nothing', () => {
    expect(initialLoan).toEqual({ version: 1, value: 'draft' })
    expect(createActor(loanLifecycleMachine).getSnapshot().value).toBe('draft')
    expect(loanLifecycleMachine.root.states.cancelled!.type).toBe('final')
    expect(loanEventsAcceptedAt('cancelled')).toEqual([])
    for (const event of allEvents) expect(advanceLoan(persisted('cancelled'), event)).toBeNull()
    const finals = loanStates.filter((s) => loanLifecycleMachine.root.states[s]!.type === 'final')
    expect(finals).toEqual(['cancelled'])
  })

  it('every event has a label and is sent by someone; an event a call sends names its calls', () => {
    const senders: readonly LoanEventSender[] = ['client', 'back-office', 'job', 'gateway']
    for (const type of loanEventTypes) {
      const { label, calls, sentBy } = loanEventDefinitions[type]
      expect(label.trim(), type).not.toBe('')
      expect(sentBy.length, type).toBeGreaterThan(0)
      for (const s of sentBy) expect(senders, type).toContain(s)
      if (sentBy.some((s) => s !== 'job')) expect(calls.length, type).toBeGreaterThan(0)
      for (const c of calls) expect(c, type).toMatch(/^(GET|POST|PUT|DELETE) \/web\/(private|public)\//)
    }
    // Only a gateway's webhook is public; a back-office user's calls are back-office calls.
    for (const type of loanEventTypes) {
      const { calls, sentBy } = loanEventDefinitions[type]
      for (const c of calls.filter((c) => c.includes('/web/public/')))
        expect(sentBy as readonly string[], `${type} ${c}`).toContain('gateway')
      if (sentBy.every((s) => s === 'back-office'))
        for (const c of calls) expect(c, type).toContain('/web/private/back-office/')
    }
    // Every event is used by some transition.
    const used = new Set(listTransitions(loanLifecycleMachine).map((t) => t.event))
    expect(loanEventTypes.filter((type) => !used.has(type))).toEqual([])
  })
})

describe('the metadata on the states', () => {
  it('loanStatusCode is the spec table, all nine statuses', () => {
    expect(Object.entries(loanStatusCode)).toEqual(
      specLoanStatuses.map(([name, code]) => [name.replace(/ /g, '_'), code]),
    )
  })

  it.each(loanStates)('%s: its status code is the spec one, and the code leads back to it', (state) => {
    const meta = loanLifecycleMachine.root.states[state]!.meta!
    expect(meta.status).toBe(specCode(state))
    expect(meta.label.trim()).not.toBe('')
    expect(loanStateMeta(state)).toEqual(meta)
    expect(loanStatusOf(state)).toBe(specCode(state))
    expect(loanStateOfStatus(loanStatusOf(state))).toBe(state)
    expect(loanLifecycleMachine.root.states[state]!.description?.trim(), state).toBeTruthy()
  })

  it('the unentered statuses are not states, no transition targets them, and their code finds no state', () => {
    const unentered = Object.keys(unenteredLoanStates) as LoanStatusName[]
    expect(unentered.sort()).toEqual(['cannot_make_offer', 'sold_debt', 'terminated', 'write_off'])
    const states = Object.keys(loanLifecycleMachine.root.states)
    expect(states).toEqual(loanStates)
    const targets = new Set(listTransitions(loanLifecycleMachine).flatMap((t) => t.targets))
    for (const state of unentered) {
      expect(states).not.toContain(state)
      expect([...targets].some((id) => id.endsWith(`.${state}`))).toBe(false)
      expect(isEnteredLoanState(state)).toBe(false)
      expect(loanStateMeta(state).status).toBe(specCode(state))
      expect(loanStateMeta(state).label.trim()).not.toBe('')
      expect(loanStateOfStatus(loanStatusCode[state])).toBeUndefined()
    }
    // Together they are every status of the spec, each once.
    expect([...states, ...unentered].sort()).toEqual(Object.keys(loanStatusCode).sort())
    for (const code of [0, 7, 11, -1, 4.5]) expect(loanStateOfStatus(code), String(code)).toBeUndefined()
  })

  it('open loans owe money (active, on hold); a paid loan is closed; draft and cancelled are neither', () => {
    const open = loanStates.filter(isOpenLoanState)
    const closed = loanStates.filter(isClosedLoanState)
    expect(open.sort()).toEqual(['active', 'on_hold'])
    expect(closed).toEqual(['paid'])
    // An open loan takes payments and can be repaid; a closed one can only be reopened.
    for (const state of open) expect(loanEventsAcceptedAt(state)).toEqual(expect.arrayContaining(['REPAID']))
    for (const state of closed)
      expect(advanceLoan(persisted(state), { type: 'REOPENED' })?.value).toBe('active')
    for (const state of loanStates.filter((s) => !open.includes(s) && !closed.includes(s)))
      expect(advanceLoan(persisted(state), { type: 'PAYMENT_POSTED' }), state).toBeNull()
  })
})

describe('stored snapshots', () => {
  it.each(
    loanStates,
  )('%s of the current version is restored as is, also after a JSON round trip', (state) => {
    const stored = JSON.parse(JSON.stringify(persisted(state)))
    expect(migratePersistedLoan(stored)).toEqual({ version: LOAN_MODEL_VERSION, value: state })
    expect(restoreLoan(migratePersistedLoan(stored)!).value).toBe(state)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'active'],
    ['a number', 4],
    ['an array', ['active']],
    ['an empty object', {}],
    ['no version', { value: 'active' }],
    ['a future version', { version: 2, value: 'active' }],
    ['version 0', { version: 0, value: 'active' }],
    ['a version as text', { version: '1', value: 'active' }],
    ['no value', { version: 1 }],
    ['an unknown state', { version: 1, value: 'overdue' }],
    ['an unentered status', { version: 1, value: 'terminated' }],
    ['a status code as value', { version: 1, value: 4 }],
    ['an object value', { version: 1, value: { active: 'x' } }],
    ['a prototype key', { version: 1, value: 'toString' }],
  ])('refuses %s', (_name, stored) => {
    expect(migratePersistedLoan(stored)).toBeNull()
  })
})
