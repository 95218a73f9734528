/**
 * The loan's lifecycle statechart (model version 2, issue 17: the open states hold a plan, `on_terms` or
 * `scheduled`), tested from the model itself:
 * - model-based paths (xstate/graph) reach every leaf; the shortest prefix reaching each leaf is extended by every
 *   event the leaf accepts, so every transition is taken; every path is replayed on a real actor (coverage
 *   recorded by tests/support/model-coverage.ts, state nodes and transition definitions, parents included) and
 *   through `advanceLoan`, what the server runs, which must agree leaf by leaf; the expected totals derive from
 *   `loanLeaves` and `loanEventsAcceptedAt`, not from the recorder's own listing;
 * - the accepted/refused matrix, leaf by leaf, against the state nodes and against issue 17 written out once;
 * - the plan survives what should keep it: payments and reversals, a hold and its release;
 * - the metadata: every state's status code is the spec's (spec section 4, Status codes, written out here once
 *   more on purpose), a plan's status is its parent's, and the unentered statuses are neither states nor targets;
 * - stored snapshots: version 2 leaves are restored as is, version 1 top-level states are migrated (an open one
 *   was on its terms), anything else is refused.
 */

import { describe, expect, it } from 'vitest'
import { type AnyStateNode, createActor } from 'xstate'
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
  type LoanEventType,
  type LoanLeaf,
  type LoanState,
  type LoanStatusName,
  leafOf,
  leafOfValue,
  loanEventDefinitions,
  loanEventsAcceptedAt,
  loanEventTypes,
  loanLeaves,
  loanLifecycleMachine,
  loanPlans,
  loanStateMeta,
  loanStateOfStatus,
  loanStates,
  loanStatusCode,
  loanStatusOf,
  migratePersistedLoan,
  type PersistedLoan,
  planOf,
  restoreLoan,
  stateValueOf,
  topStateOf,
  unenteredLoanStates,
} from '../../domain/loan/loan-lifecycle.machine'
import { createCoverageRecorder, formatCoverage, listTransitions } from '../support/model-coverage'

const allEvents: LoanEvent[] = loanEventTypes.map((type) => ({ type }))
const persisted = (value: LoanLeaf): PersistedLoan => ({ version: LOAN_MODEL_VERSION, value })
const nextLeaf = (leaf: LoanLeaf, type: LoanEventType) =>
  advanceLoan(persisted(leaf), { type })?.value ?? null
const nodeOf = (leaf: LoanLeaf) => loanLifecycleMachine.getStateNodeById(`loanLifecycle.${leaf}`)
/** A state node's leaf: its path, down the initial children of a compound node ('active' -> 'active.on_terms'). */
const leafOfNode = (node: AnyStateNode): LoanLeaf => {
  let leaf = node
  while (leaf.initial?.target[0]) leaf = leaf.initial.target[0]
  return leaf.path.join('.') as LoanLeaf
}

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

/**
 * Issue 17, written out from the issue rather than from the model: what each leaf accepts and where it leads.
 * Everything not listed is refused.
 */
const issueMatrix: Record<LoanLeaf, Partial<Record<LoanEventType, LoanLeaf>>> = {
  draft: { DISBURSED: 'active.on_terms', CANCELLED: 'cancelled' },
  cancelled: {},
  'active.on_terms': {
    PAYMENT_POSTED: 'active.on_terms',
    PAYMENT_REVERSED: 'active.on_terms',
    EXTENDED: 'active.on_terms',
    SCHEDULE_AGREED: 'active.scheduled',
    HOLD: 'on_hold.on_terms',
    REPAID: 'paid',
  },
  'active.scheduled': {
    PAYMENT_POSTED: 'active.scheduled',
    PAYMENT_REVERSED: 'active.scheduled',
    HOLD: 'on_hold.scheduled',
    REPAID: 'paid',
  },
  'on_hold.on_terms': {
    PAYMENT_POSTED: 'on_hold.on_terms',
    PAYMENT_REVERSED: 'on_hold.on_terms',
    RELEASE: 'active.on_terms',
    REPAID: 'paid',
  },
  'on_hold.scheduled': {
    PAYMENT_POSTED: 'on_hold.scheduled',
    PAYMENT_REVERSED: 'on_hold.scheduled',
    RELEASE: 'active.scheduled',
    REPAID: 'paid',
  },
  paid: {
    PAYMENT_POSTED: 'paid',
    PAYMENT_REVERSED: 'paid',
    CREDIT_REFUNDED: 'paid',
    REOPENED: 'active.on_terms',
    REOPENED_ON_SCHEDULE: 'active.scheduled',
  },
}

describe('loan lifecycle statechart', () => {
  it('model-based paths reach every state node and take every transition (replayed on the machine and the server)', () => {
    const model = createTestModel(loanLifecycleMachine, { events: allEvents })
    const paths = model.getShortestPaths()
    // The shortest prefix (events without xstate.init) reaching each leaf along the planned paths.
    const reach = new Map<LoanLeaf, LoanEvent[]>()
    for (const path of paths) {
      const events: LoanEvent[] = []
      for (const step of path.steps) {
        if (step.event.type in loanEventDefinitions) events.push(step.event as LoanEvent)
        const leaf = leafOfValue(step.state.value)
        if ((reach.get(leaf)?.length ?? Number.POSITIVE_INFINITY) > events.length)
          reach.set(leaf, [...events])
      }
    }
    expect([...reach.keys()].sort()).toEqual([...loanLeaves].sort())

    // Every planned path as is, then each leaf's prefix extended by every event the machine accepts there.
    const replays: { events: LoanEvent[]; ends?: LoanLeaf }[] = paths.map((path) => ({
      events: path.steps.map((s) => s.event as LoanEvent).filter((e) => e.type in loanEventDefinitions),
      ends: leafOfValue(path.state.value),
    }))
    for (const [leaf, prefix] of reach) {
      const snapshot = restoreLoan(persisted(leaf))
      for (const event of allEvents.filter((e) => snapshot.can(e)))
        replays.push({ events: [...prefix, event] })
    }

    const recorder = createCoverageRecorder(loanLifecycleMachine)
    const pairsTaken = new Set<string>()
    for (const { events, ends } of replays) {
      const actor = createActor(loanLifecycleMachine, { inspect: recorder.inspect }).start()
      let server = initialLoan
      for (const event of events) {
        actor.send(event)
        const next = advanceLoan(server, event)
        expect(next, `${server.value} ${event.type}`).not.toBeNull()
        pairsTaken.add(`${server.value} ${event.type}`)
        server = next!
        expect(server.value, event.type).toBe(leafOfValue(actor.getSnapshot().value))
        expect(actor.getSnapshot().value).toEqual(stateValueOf(server.value))
        expect(server.version).toBe(LOAN_MODEL_VERSION)
      }
      if (ends) expect(server.value).toBe(ends)
      actor.stop()
    }

    const report = recorder.report()
    console.info(
      `${formatCoverage('loan-lifecycle', report)} (${paths.length} planned paths, ${replays.length} replays, ${pairsTaken.size} leaf-event pairs)`,
    )
    expect(report.states.missing).toEqual([])
    expect(report.transitions.missing).toEqual([])
    expect(report.states.covered).toBe(report.states.total)
    expect(report.transitions.covered).toBe(report.transitions.total)

    // Every (leaf, event) pair the model accepts was taken, and no other.
    const expectedPairs = loanLeaves.flatMap((leaf) => loanEventsAcceptedAt(leaf).map((e) => `${leaf} ${e}`))
    expect([...pairsTaken].sort()).toEqual(expectedPairs.sort())
    // State nodes: every leaf, and each parent of a plan once (active, on_hold).
    const stateNodes = new Set(
      loanLeaves.flatMap((leaf) => (planOf(leaf) ? [topStateOf(leaf), leaf] : [leaf])),
    )
    expect(report.states.total).toBe(stateNodes.size)
    // Transitions: a parent's transition (REPAID) is one definition however many of its leaves accept it, and it
    // leads them all to the same leaf; a plan's own transitions lead each plan somewhere of its own.
    const definitions = new Set(
      expectedPairs.map((pair) => {
        const [leaf, type] = pair.split(' ') as [LoanLeaf, LoanEventType]
        return `${topStateOf(leaf)} ${type} -> ${nextLeaf(leaf, type)}`
      }),
    )
    const sharedByPlans = expectedPairs.length - definitions.size
    expect(report.transitions.total).toBe(definitions.size)
    expect(sharedByPlans).toBe(
      loanStates.filter((s) => isOpenLoanState(s)).length * (loanPlans.length - 1), // REPAID on each parent
    )
  })

  it.each(
    loanLeaves,
  )('at %s accepts exactly the events it has a transition for (or its parent has), refusing the rest', (leaf) => {
    const node = nodeOf(leaf)
    const accepted: LoanEventType[] = []
    for (const { type } of allEvents) {
      const next = advanceLoan(persisted(leaf), { type })
      // The leaf's own transition, else its parent's (the machine's own lookup order).
      const definition = node.transitions.get(type)?.[0] ?? node.parent?.transitions.get(type)?.[0]
      const expected = issueMatrix[leaf][type] ?? null
      expect(next?.value ?? null, `${leaf} ${type}`).toBe(expected)
      expect(restoreLoan(persisted(leaf)).can({ type }), `${leaf} ${type}`).toBe(expected !== null)
      if (!definition) {
        expect(next, `${leaf} ${type}`).toBeNull()
        continue
      }
      accepted.push(type)
      expect(next, `${leaf} ${type}`).toEqual({
        version: LOAN_MODEL_VERSION,
        value: leafOfNode(definition.target![0]!),
      })
    }
    expect([...loanEventsAcceptedAt(leaf)].sort()).toEqual(accepted.sort())
    expect(Object.keys(issueMatrix[leaf]).sort()).toEqual(accepted.sort())
  })

  it('every transition names its target, so self-transitions are enabled too; they keep the plan', () => {
    const transitions = listTransitions(loanLifecycleMachine)
    expect(transitions.length).toBeGreaterThan(0)
    for (const t of transitions) expect(t.targets, t.key).toHaveLength(1)
    // The partial payment, the reversal that changes nothing, the paid extension and the refund keep the leaf they
    // arrive in: they are the leaves' own, so none of them resets a plan to on_terms.
    const selfLoops = transitions.filter((t) => t.targets[0] === t.source)
    expect(selfLoops.length).toBeGreaterThan(0)
    for (const t of selfLoops) {
      const leaf = t.source.replace(/^loanLifecycle\./, '') as LoanLeaf
      expect(loanLeaves, t.key).toContain(leaf)
      expect(nextLeaf(leaf, t.event as LoanEventType), t.key).toBe(leaf)
    }
    // A parent of plans never targets itself or one of its plans (that would reset or pick the plan).
    const parents = transitions.filter(
      (t) => Object.keys(loanLifecycleMachine.getStateNodeById(t.source).states).length > 0,
    )
    expect(parents.map((t) => t.event)).toEqual(['REPAID', 'REPAID'])
    for (const t of parents) expect(t.targets[0]!.startsWith(t.source), t.key).toBe(false)
  })

  it('keeps the plan: a payment or reversal on a schedule stays on it, a hold and its release keep it', () => {
    expect(nextLeaf('active.scheduled', 'PAYMENT_POSTED')).toBe('active.scheduled')
    expect(nextLeaf('active.scheduled', 'PAYMENT_REVERSED')).toBe('active.scheduled')
    expect(nextLeaf('active.scheduled', 'HOLD')).toBe('on_hold.scheduled')
    expect(nextLeaf('on_hold.scheduled', 'PAYMENT_POSTED')).toBe('on_hold.scheduled')
    expect(nextLeaf('on_hold.scheduled', 'RELEASE')).toBe('active.scheduled')
    expect(nextLeaf('active.on_terms', 'HOLD')).toBe('on_hold.on_terms')
    expect(nextLeaf('on_hold.on_terms', 'RELEASE')).toBe('active.on_terms')
    // On a real actor too, through a whole story: payout, schedule, payment, hold, payment, release, repaid.
    const actor = createActor(loanLifecycleMachine).start()
    const story: [LoanEventType, LoanLeaf][] = [
      ['DISBURSED', 'active.on_terms'],
      ['EXTENDED', 'active.on_terms'],
      ['SCHEDULE_AGREED', 'active.scheduled'],
      ['PAYMENT_POSTED', 'active.scheduled'],
      ['HOLD', 'on_hold.scheduled'],
      ['PAYMENT_REVERSED', 'on_hold.scheduled'],
      ['RELEASE', 'active.scheduled'],
      ['REPAID', 'paid'],
      ['REOPENED_ON_SCHEDULE', 'active.scheduled'],
    ]
    for (const [type, leaf] of story) {
      actor.send({ type })
      expect(leafOfValue(actor.getSnapshot().value), type).toBe(leaf)
    }
    actor.stop()
  })

  it('extends and schedules only an active loan on its terms; reopens on either plan only from paid', () => {
    const acceptingLeaves = (type: LoanEventType) =>
      loanLeaves.filter((leaf) => nextLeaf(leaf, type) !== null)
    expect(acceptingLeaves('EXTENDED')).toEqual(['active.on_terms'])
    expect(acceptingLeaves('SCHEDULE_AGREED')).toEqual(['active.on_terms'])
    expect(acceptingLeaves('REOPENED')).toEqual(['paid'])
    expect(acceptingLeaves('REOPENED_ON_SCHEDULE')).toEqual(['paid'])
    expect(acceptingLeaves('REPAID').sort()).toEqual(
      loanLeaves.filter((leaf) => isOpenLoanState(topStateOf(leaf))).sort(),
    )
  })

  it('starts at draft; cancelled is final and accepts nothing', () => {
    expect(initialLoan).toEqual({ version: 2, value: 'draft' })
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
    // Only a gateway's webhook is public; a back-office user's calls are back-office calls; a client's are the
    // client's own.
    for (const type of loanEventTypes) {
      const { calls, sentBy } = loanEventDefinitions[type]
      for (const c of calls.filter((c) => c.includes('/web/public/')))
        expect(sentBy as readonly string[], `${type} ${c}`).toContain('gateway')
      if (sentBy.every((s) => s === 'back-office'))
        for (const c of calls) expect(c, type).toContain('/web/private/back-office/')
      if (sentBy.every((s) => s === 'client'))
        for (const c of calls) expect(c, type).toContain('/web/private/client/')
    }
    // Every event is used by some transition.
    const used = new Set(listTransitions(loanLifecycleMachine).map((t) => t.event))
    expect(loanEventTypes.filter((type) => !used.has(type))).toEqual([])
  })
})

describe('leaves, plans and XState values', () => {
  it('the leaves are the top-level states, with the open ones split by plan', () => {
    expect(loanLeaves).toEqual([
      'draft',
      'cancelled',
      'active.on_terms',
      'active.scheduled',
      'on_hold.on_terms',
      'on_hold.scheduled',
      'paid',
    ])
    expect([...loanPlans]).toEqual(['on_terms', 'scheduled'])
    // Exactly the open states hold a plan, and their children are the plans.
    for (const state of loanStates) {
      const children = Object.keys(loanLifecycleMachine.root.states[state]!.states)
      expect(children, state).toEqual(isOpenLoanState(state) ? [...loanPlans] : [])
    }
  })

  it.each(loanLeaves)('%s: leafOf, topStateOf, planOf, stateValueOf and leafOfValue agree', (leaf) => {
    const state = topStateOf(leaf)
    const plan = planOf(leaf)
    expect(loanStates).toContain(state)
    expect(leafOf(state, plan)).toBe(leaf)
    expect(leafOfValue(stateValueOf(leaf))).toBe(leaf)
    expect(restoreLoan(persisted(leaf)).value).toEqual(stateValueOf(leaf))
    expect(plan === null).toBe(!isOpenLoanState(state))
  })

  it('an open state without a plan is on its terms; a plan means nothing to the other states', () => {
    expect(leafOf('active', null)).toBe('active.on_terms')
    expect(leafOf('on_hold', undefined)).toBe('on_hold.on_terms')
    expect(leafOf('paid', 'scheduled')).toBe('paid')
    expect(leafOf('draft', 'on_terms')).toBe('draft')
    expect(stateValueOf('active.scheduled')).toEqual({ active: 'scheduled' })
    expect(stateValueOf('paid')).toBe('paid')
    // Asked of a top-level open state, the accepted events are those of its initial plan.
    expect(loanEventsAcceptedAt('active')).toEqual(loanEventsAcceptedAt('active.on_terms'))
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

  it.each(
    loanLeaves.filter((leaf) => planOf(leaf)),
  )('%s: a plan answers its parent state status, with a label and a description of its own', (leaf) => {
    const meta = nodeOf(leaf).meta!
    expect(meta.status).toBe(specCode(topStateOf(leaf)))
    expect(loanStatusOf(leaf)).toBe(specCode(topStateOf(leaf)))
    expect(meta.label.trim()).not.toBe('')
    expect(nodeOf(leaf).description?.trim(), leaf).toBeTruthy()
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
    // An open loan takes payments and can be repaid, on either plan; a closed one can only be reopened.
    for (const leaf of loanLeaves.filter((l) => open.includes(topStateOf(l))))
      expect(loanEventsAcceptedAt(leaf), leaf).toEqual(expect.arrayContaining(['PAYMENT_POSTED', 'REPAID']))
    for (const state of closed) {
      expect(nextLeaf(state as LoanLeaf, 'REOPENED')).toBe('active.on_terms')
      expect(nextLeaf(state as LoanLeaf, 'REOPENED_ON_SCHEDULE')).toBe('active.scheduled')
    }
    for (const leaf of loanLeaves.filter(
      (l) => !open.includes(topStateOf(l)) && !closed.includes(topStateOf(l)),
    ))
      expect(nextLeaf(leaf, 'PAYMENT_POSTED'), leaf).toBeNull()
  })
})

describe('stored snapshots', () => {
  it.each(loanLeaves)('%s of version 2 is restored as is, also after a JSON round trip', (leaf) => {
    const stored = JSON.parse(JSON.stringify(persisted(leaf)))
    expect(migratePersistedLoan(stored)).toEqual({ version: 2, value: leaf })
    expect(leafOfValue(restoreLoan(migratePersistedLoan(stored)!).value)).toBe(leaf)
  })

  // Version 1 named top-level states only; its open loans were on their terms (there were no schedules).
  it.each([
    ['draft', 'draft'],
    ['cancelled', 'cancelled'],
    ['active', 'active.on_terms'],
    ['on_hold', 'on_hold.on_terms'],
    ['paid', 'paid'],
  ] as [LoanState, LoanLeaf][])('version 1 %s becomes version 2 %s', (v1, leaf) => {
    const migrated = migratePersistedLoan(JSON.parse(JSON.stringify({ version: 1, value: v1 })))
    expect(migrated).toEqual({ version: 2, value: leaf })
    // Migrating again changes nothing, and the migrated loan moves on like any other.
    expect(migratePersistedLoan(migrated)).toEqual(migrated)
    for (const { type } of allEvents)
      expect(advanceLoan(migrated!, { type })?.value ?? null).toBe(nextLeaf(leaf, type))
  })

  it('every version 1 state is migrated (the top-level states did not change)', () => {
    for (const state of loanStates)
      expect(migratePersistedLoan({ version: 1, value: state })?.value, state).toBe(leafOf(state, null))
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'active.on_terms'],
    ['a number', 4],
    ['an array', [2, 'active.on_terms']],
    ['an empty object', {}],
    ['no version', { value: 'active.on_terms' }],
    ['a future version', { version: 3, value: 'active.on_terms' }],
    ['a future version with a version 1 value', { version: 3, value: 'active' }],
    ['version 0', { version: 0, value: 'active' }],
    ['a version as text', { version: '2', value: 'active.on_terms' }],
    ['a version 1 as text', { version: '1', value: 'active' }],
    ['no value', { version: 2 }],
    ['no value in version 1', { version: 1 }],
    ['a top-level open state in version 2', { version: 2, value: 'active' }],
    ['on_hold without its plan in version 2', { version: 2, value: 'on_hold' }],
    ['a version 2 leaf in version 1', { version: 1, value: 'active.on_terms' }],
    ['a scheduled leaf in version 1', { version: 1, value: 'active.scheduled' }],
    ['an unknown leaf', { version: 2, value: 'active.overdue' }],
    ['an unknown state', { version: 2, value: 'overdue' }],
    ['an unknown version 1 state', { version: 1, value: 'overdue' }],
    ['a plan on a state without plans', { version: 2, value: 'paid.scheduled' }],
    ['a plan alone', { version: 2, value: 'scheduled' }],
    ['an unentered status', { version: 2, value: 'terminated' }],
    ['an unentered status in version 1', { version: 1, value: 'terminated' }],
    ['a status code as value', { version: 2, value: 4 }],
    ['an XState object value', { version: 2, value: { active: 'on_terms' } }],
    ['an XState object value in version 1', { version: 1, value: { active: 'on_terms' } }],
    ['a prototype key', { version: 2, value: 'toString' }],
    ['a prototype key in version 1', { version: 1, value: '__proto__' }],
    ['a padded leaf', { version: 2, value: ' active.on_terms' }],
    ['an upper-case leaf', { version: 2, value: 'ACTIVE.ON_TERMS' }],
  ])('refuses %s', (_name, stored) => {
    expect(migratePersistedLoan(stored)).toBeNull()
  })
})
