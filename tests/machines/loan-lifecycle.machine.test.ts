/**
 * The loan's lifecycle statechart (model version 3, issue 18: an active loan's plan, `on_terms` or `scheduled`,
 * holds a standing, `current` or `overdue`; a debt sale and a write-off are states), tested from the model itself:
 * - model-based paths (xstate/graph) reach every leaf; the shortest prefix reaching each leaf is extended by every
 *   event the leaf accepts, so every transition is taken; every path is replayed on a real actor (coverage
 *   recorded by tests/support/model-coverage.ts, state nodes and transition definitions, parents included) and
 *   through `advanceLoan`, what the server runs, which must agree leaf by leaf; the expected totals derive from
 *   `loanLeaves`, `loanEventsAcceptedAt` and where issue 18 puts each shared event, not from the recorder's own
 *   listing;
 * - the accepted/refused matrix, leaf by leaf, against the state nodes (the definition found on the leaf, its plan
 *   node or its top-level state, the machine's own lookup order) and against issue 18 written out once;
 * - the plan and the standing survive what should keep them: payments and reversals; a hold keeps the plan and
 *   drops the standing, its release returns to the plan's current standing; stories through overdue, a debt sale
 *   and a write-off;
 * - the metadata: every state's status code is the spec's (spec section 4, Status codes, written out here once
 *   more on purpose), a plan's and a standing's status is its top-level state's, and the unentered statuses are
 *   neither states nor targets;
 * - stored snapshots: version 3 leaves are restored as is, version 1 top-level states and version 2 leaves are
 *   migrated (an open loan was on its terms; an active one was current), anything else is refused.
 */

import { describe, expect, it } from 'vitest'
import { type AnyStateNode, createActor } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  advanceLoan,
  initialLoan,
  isClosedLoanState,
  isDefaultedLoanState,
  isEnteredLoanState,
  isOnTerms,
  isOpenLoanState,
  isOverdueLeaf,
  isScheduled,
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
  loanStandings,
  loanStateMeta,
  loanStateOfStatus,
  loanStates,
  loanStatusCode,
  loanStatusOf,
  migratePersistedLoan,
  type PersistedLoan,
  planOf,
  restoreLoan,
  standingOf,
  stateValueOf,
  topStateOf,
  unenteredLoanStates,
} from '../../domain/loan/loan-lifecycle.machine'
import {
  createCoverageRecorder,
  formatCoverage,
  listStateIds,
  listTransitions,
} from '../support/model-coverage'

const allEvents: LoanEvent[] = loanEventTypes.map((type) => ({ type }))
const persisted = (value: LoanLeaf): PersistedLoan => ({ version: LOAN_MODEL_VERSION, value })
const nextLeaf = (leaf: LoanLeaf, type: LoanEventType) =>
  advanceLoan(persisted(leaf), { type })?.value ?? null
const nodeOf = (leaf: LoanLeaf) => loanLifecycleMachine.getStateNodeById(`loanLifecycle.${leaf}`)
/** A state node's path without the machine's id ('active.on_terms'). */
const pathOf = (node: AnyStateNode) => node.path.join('.')
/** A state node's leaf: its path, down the initial children ('active' -> 'active.on_terms.current'). */
const leafOfNode = (node: AnyStateNode): LoanLeaf => {
  let leaf = node
  while (leaf.initial?.target[0]) leaf = leaf.initial.target[0]
  return pathOf(leaf) as LoanLeaf
}
/** The node whose transition handles the event at a leaf: the leaf, else its plan node, else its top-level state. */
const definingNode = (leaf: LoanLeaf, type: LoanEventType): AnyStateNode | undefined => {
  for (let node: AnyStateNode | undefined = nodeOf(leaf); node?.parent; node = node.parent)
    if (node.transitions.get(type)?.length) return node
  return undefined
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
 * Issue 18 (on issue 17's), written out from the issues rather than from the model: what each leaf accepts and
 * where it leads. Everything not listed is refused.
 */
const issueMatrix: Record<LoanLeaf, Partial<Record<LoanEventType, LoanLeaf>>> = {
  draft: { DISBURSED: 'active.on_terms.current', CANCELLED: 'cancelled' },
  cancelled: {},
  'active.on_terms.current': {
    PAYMENT_POSTED: 'active.on_terms.current',
    PAYMENT_REVERSED: 'active.on_terms.current',
    OVERDUE: 'active.on_terms.overdue',
    EXTENDED: 'active.on_terms.current',
    SCHEDULE_AGREED: 'active.scheduled.current',
    HOLD: 'on_hold.on_terms',
    REPAID: 'paid',
  },
  'active.on_terms.overdue': {
    PAYMENT_POSTED: 'active.on_terms.overdue',
    PAYMENT_REVERSED: 'active.on_terms.overdue',
    DEBT_SOLD: 'sold_debt',
    WRITTEN_OFF: 'write_off',
    EXTENDED: 'active.on_terms.current',
    SCHEDULE_AGREED: 'active.scheduled.current',
    HOLD: 'on_hold.on_terms',
    REPAID: 'paid',
  },
  'active.scheduled.current': {
    PAYMENT_POSTED: 'active.scheduled.current',
    PAYMENT_REVERSED: 'active.scheduled.current',
    OVERDUE: 'active.scheduled.overdue',
    HOLD: 'on_hold.scheduled',
    REPAID: 'paid',
  },
  'active.scheduled.overdue': {
    PAYMENT_POSTED: 'active.scheduled.overdue',
    PAYMENT_REVERSED: 'active.scheduled.overdue',
    CAUGHT_UP: 'active.scheduled.current',
    DEBT_SOLD: 'sold_debt',
    WRITTEN_OFF: 'write_off',
    HOLD: 'on_hold.scheduled',
    REPAID: 'paid',
  },
  'on_hold.on_terms': {
    PAYMENT_POSTED: 'on_hold.on_terms',
    PAYMENT_REVERSED: 'on_hold.on_terms',
    RELEASE: 'active.on_terms.current',
    REPAID: 'paid',
    WRITTEN_OFF: 'write_off',
  },
  'on_hold.scheduled': {
    PAYMENT_POSTED: 'on_hold.scheduled',
    PAYMENT_REVERSED: 'on_hold.scheduled',
    RELEASE: 'active.scheduled.current',
    REPAID: 'paid',
    WRITTEN_OFF: 'write_off',
  },
  paid: {
    PAYMENT_POSTED: 'paid',
    PAYMENT_REVERSED: 'paid',
    CREDIT_REFUNDED: 'paid',
    REOPENED: 'active.on_terms.current',
    REOPENED_ON_SCHEDULE: 'active.scheduled.current',
  },
  sold_debt: { PAYMENT_POSTED: 'sold_debt', PAYMENT_REVERSED: 'sold_debt' },
  write_off: { PAYMENT_POSTED: 'write_off', PAYMENT_REVERSED: 'write_off' },
}

/** The events issue 18 puts on an active plan node, shared by both its standings. */
const planEvents: Record<(typeof loanPlans)[number], LoanEventType[]> = {
  on_terms: ['EXTENDED', 'SCHEDULE_AGREED', 'HOLD'],
  scheduled: ['HOLD'],
}
/**
 * Where issues 17 and 18 define an event a leaf accepts: on its top-level state when every leaf of that state
 * accepts it alike (REPAID on active and on hold; WRITTEN_OFF on hold), on its plan node when both standings do
 * (`planEvents`), else on the leaf itself.
 */
const issueScope = (leaf: LoanLeaf, type: LoanEventType): string => {
  const state = topStateOf(leaf)
  if ((type === 'REPAID' && isOpenLoanState(state)) || (type === 'WRITTEN_OFF' && state === 'on_hold'))
    return state
  const plan = planOf(leaf)
  if (state === 'active' && plan && planEvents[plan].includes(type)) return `active.${plan}`
  return leaf
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
    // State nodes: every leaf and each of its ancestors once (active, active.on_terms, active.scheduled, on_hold).
    const stateNodes = new Set(
      loanLeaves.flatMap((leaf) => leaf.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))),
    )
    expect(report.states.total).toBe(stateNodes.size)
    expect(stateNodes.size).toBe(loanLeaves.length + 4)
    // Transitions: an event defined on a top-level state or a plan node is one definition however many of its
    // leaves accept it (issueScope); every other one is the leaf's own.
    const definitions = new Set(
      expectedPairs.map((pair) => {
        const [leaf, type] = pair.split(' ') as [LoanLeaf, LoanEventType]
        return `${issueScope(leaf, type)} ${type}`
      }),
    )
    expect(report.transitions.total).toBe(definitions.size)
    const leavesOf = (state: LoanState) => loanLeaves.filter((leaf) => topStateOf(leaf) === state).length
    const shared = expectedPairs.length - definitions.size
    // A definition shared by n leaves counts n pairs for one definition: n - 1 more pairs than definitions.
    const extraPairs = (n: number) => n - 1
    expect(shared).toBe(
      extraPairs(leavesOf('active')) + // REPAID on active (4 leaves)
        extraPairs(leavesOf('on_hold')) + // REPAID on hold (2 leaves)
        extraPairs(leavesOf('on_hold')) + // WRITTEN_OFF on hold
        Object.values(planEvents).flat().length * extraPairs(loanStandings.length), // on each plan node, both standings
    )
  })

  it.each(
    loanLeaves,
  )('at %s accepts exactly the events it has a transition for (or its plan node or top-level state has), refusing the rest', (leaf) => {
    const accepted: LoanEventType[] = []
    for (const { type } of allEvents) {
      const next = advanceLoan(persisted(leaf), { type })
      const owner = definingNode(leaf, type)
      const expected = issueMatrix[leaf][type] ?? null
      expect(next?.value ?? null, `${leaf} ${type}`).toBe(expected)
      expect(restoreLoan(persisted(leaf)).can({ type }), `${leaf} ${type}`).toBe(expected !== null)
      if (!owner) {
        expect(next, `${leaf} ${type}`).toBeNull()
        continue
      }
      accepted.push(type)
      // Defined where the issues put it: a shared event once, on the node above the leaves sharing it.
      expect(pathOf(owner), `${leaf} ${type}`).toBe(issueScope(leaf, type))
      expect(next, `${leaf} ${type}`).toEqual({
        version: LOAN_MODEL_VERSION,
        value: leafOfNode(owner.transitions.get(type)![0]!.target![0]!),
      })
    }
    expect([...loanEventsAcceptedAt(leaf)].sort()).toEqual(accepted.sort())
    expect(Object.keys(issueMatrix[leaf]).sort()).toEqual(accepted.sort())
  })

  it('every transition names its target, so self-transitions are enabled too; they keep the plan and the standing', () => {
    const transitions = listTransitions(loanLifecycleMachine)
    expect(transitions.length).toBeGreaterThan(0)
    for (const t of transitions) expect(t.targets, t.key).toHaveLength(1)
    // The partial payment, the reversal that changes nothing and the refund keep the leaf they arrive in: they
    // are the leaves' own, so none of them resets a plan to on_terms or a standing to current.
    const selfLoops = transitions.filter((t) => t.targets[0] === t.source)
    expect(selfLoops.length).toBeGreaterThan(0)
    for (const t of selfLoops) {
      const leaf = t.source.replace(/^loanLifecycle\./, '') as LoanLeaf
      expect(loanLeaves, t.key).toContain(leaf)
      expect(nextLeaf(leaf, t.event as LoanEventType), t.key).toBe(leaf)
    }
    // The transitions of a compound node are the shared ones, each where the issues put it.
    const compound = transitions.filter(
      (t) => Object.keys(loanLifecycleMachine.getStateNodeById(t.source).states).length > 0,
    )
    const bySource: Record<string, string[]> = {}
    for (const t of compound) {
      const source = t.source.replace(/^loanLifecycle\./, '')
      bySource[source] = [...(bySource[source] ?? []), t.event]
    }
    expect(bySource).toEqual({
      active: ['REPAID'],
      'active.on_terms': planEvents.on_terms,
      'active.scheduled': planEvents.scheduled,
      on_hold: ['REPAID', 'WRITTEN_OFF'],
    })
    // None targets itself (that would reset its plan or standing to the initial one); the only one targeting
    // inside itself is the paid extension, which names the leaf it clears the standing to.
    for (const t of compound) expect(t.targets[0], t.key).not.toBe(t.source)
    const inward = compound.filter((t) => t.targets[0]!.startsWith(`${t.source}.`))
    expect(inward.map((t) => `${t.event} -> ${t.targets[0]}`)).toEqual([
      'EXTENDED -> loanLifecycle.active.on_terms.current',
    ])
  })

  it('keeps the plan and the standing: payments and reversals stay, a hold keeps the plan, its release is current', () => {
    for (const leaf of loanLeaves.filter((l) => topStateOf(l) === 'active')) {
      expect(nextLeaf(leaf, 'PAYMENT_POSTED'), leaf).toBe(leaf)
      expect(nextLeaf(leaf, 'PAYMENT_REVERSED'), leaf).toBe(leaf)
      // The hold keeps the plan, not the standing (no accrual, no reminders while held).
      expect(nextLeaf(leaf, 'HOLD'), leaf).toBe(`on_hold.${planOf(leaf)}`)
      // Repaid from either standing.
      expect(nextLeaf(leaf, 'REPAID'), leaf).toBe('paid')
    }
    expect(nextLeaf('on_hold.scheduled', 'PAYMENT_POSTED')).toBe('on_hold.scheduled')
    expect(nextLeaf('on_hold.scheduled', 'RELEASE')).toBe('active.scheduled.current')
    expect(nextLeaf('on_hold.on_terms', 'RELEASE')).toBe('active.on_terms.current')
    // The standing changes only by OVERDUE and (on a schedule) CAUGHT_UP, within the plan; on terms only an
    // extension or a schedule clears it (nothing else moves a passed due date).
    expect(nextLeaf('active.scheduled.overdue', 'CAUGHT_UP')).toBe('active.scheduled.current')
    expect(nextLeaf('active.on_terms.overdue', 'CAUGHT_UP')).toBeNull()
    for (const plan of loanPlans) {
      expect(nextLeaf(`active.${plan}.current`, 'OVERDUE')).toBe(`active.${plan}.overdue`)
      expect(nextLeaf(`active.${plan}.overdue`, 'OVERDUE')).toBeNull()
      expect(nextLeaf(`active.${plan}.current`, 'CAUGHT_UP')).toBeNull()
    }
    expect(nextLeaf('active.on_terms.overdue', 'EXTENDED')).toBe('active.on_terms.current')
    expect(nextLeaf('active.on_terms.overdue', 'SCHEDULE_AGREED')).toBe('active.scheduled.current')
  })

  /** Replays a story on a real actor and through `advanceLoan`, checking the leaf after each event. */
  const playStory = (story: [LoanEventType, LoanLeaf][]) => {
    const actor = createActor(loanLifecycleMachine).start()
    let server = initialLoan
    for (const [type, leaf] of story) {
      actor.send({ type })
      expect(leafOfValue(actor.getSnapshot().value), type).toBe(leaf)
      server = advanceLoan(server, { type })!
      expect(server?.value, type).toBe(leaf)
    }
    actor.stop()
    return server
  }

  it('a whole story: payout, overdue, a payment while overdue, extension, schedule, overdue, caught up, hold, repaid, reopened', () => {
    playStory([
      ['DISBURSED', 'active.on_terms.current'],
      ['EXTENDED', 'active.on_terms.current'],
      ['OVERDUE', 'active.on_terms.overdue'],
      ['PAYMENT_POSTED', 'active.on_terms.overdue'],
      ['EXTENDED', 'active.on_terms.current'],
      ['OVERDUE', 'active.on_terms.overdue'],
      ['SCHEDULE_AGREED', 'active.scheduled.current'],
      ['PAYMENT_POSTED', 'active.scheduled.current'],
      ['OVERDUE', 'active.scheduled.overdue'],
      ['PAYMENT_POSTED', 'active.scheduled.overdue'],
      ['PAYMENT_REVERSED', 'active.scheduled.overdue'],
      ['CAUGHT_UP', 'active.scheduled.current'],
      ['HOLD', 'on_hold.scheduled'],
      ['PAYMENT_REVERSED', 'on_hold.scheduled'],
      ['RELEASE', 'active.scheduled.current'],
      ['OVERDUE', 'active.scheduled.overdue'],
      ['REPAID', 'paid'],
      ['REOPENED_ON_SCHEDULE', 'active.scheduled.current'],
    ])
  })

  it('a story ending in a debt sale: payments after the sale still post (Civil Code Art. 1626), nothing else does', () => {
    const end = playStory([
      ['DISBURSED', 'active.on_terms.current'],
      ['OVERDUE', 'active.on_terms.overdue'],
      ['PAYMENT_POSTED', 'active.on_terms.overdue'],
      ['DEBT_SOLD', 'sold_debt'],
      ['PAYMENT_POSTED', 'sold_debt'],
      ['PAYMENT_REVERSED', 'sold_debt'],
    ])
    for (const { type } of allEvents.filter((e) => !['PAYMENT_POSTED', 'PAYMENT_REVERSED'].includes(e.type)))
      expect(advanceLoan(end, { type }), type).toBeNull()
  })

  it('a story ending in a write-off from a hold: a later payment is a recovery, nothing else is accepted', () => {
    const end = playStory([
      ['DISBURSED', 'active.on_terms.current'],
      ['OVERDUE', 'active.on_terms.overdue'],
      ['HOLD', 'on_hold.on_terms'],
      ['PAYMENT_POSTED', 'on_hold.on_terms'],
      ['WRITTEN_OFF', 'write_off'],
      ['PAYMENT_POSTED', 'write_off'],
    ])
    for (const { type } of allEvents.filter((e) => !['PAYMENT_POSTED', 'PAYMENT_REVERSED'].includes(e.type)))
      expect(advanceLoan(end, { type }), type).toBeNull()
  })

  it('which leaves accept the plan, standing and default events', () => {
    const acceptingLeaves = (type: LoanEventType) =>
      loanLeaves.filter((leaf) => nextLeaf(leaf, type) !== null)
    const activeLeaves = (standing: 'current' | 'overdue') =>
      loanPlans.map((plan) => `active.${plan}.${standing}` as LoanLeaf)
    const onHold = loanPlans.map((plan) => `on_hold.${plan}` as LoanLeaf)
    // Only an active loan on its terms is extended or scheduled, current or overdue.
    expect(acceptingLeaves('EXTENDED')).toEqual(['active.on_terms.current', 'active.on_terms.overdue'])
    expect(acceptingLeaves('SCHEDULE_AGREED')).toEqual(['active.on_terms.current', 'active.on_terms.overdue'])
    expect(acceptingLeaves('OVERDUE')).toEqual(activeLeaves('current'))
    expect(acceptingLeaves('CAUGHT_UP')).toEqual(['active.scheduled.overdue'])
    // Only an overdue debt is sold; an overdue one or one on hold is written off.
    expect(acceptingLeaves('DEBT_SOLD')).toEqual(activeLeaves('overdue'))
    expect(acceptingLeaves('WRITTEN_OFF')).toEqual([...activeLeaves('overdue'), ...onHold])
    expect(acceptingLeaves('HOLD')).toEqual(loanLeaves.filter((leaf) => topStateOf(leaf) === 'active'))
    expect(acceptingLeaves('RELEASE')).toEqual(onHold)
    expect(acceptingLeaves('REOPENED')).toEqual(['paid'])
    expect(acceptingLeaves('REOPENED_ON_SCHEDULE')).toEqual(['paid'])
    expect(acceptingLeaves('REPAID').sort()).toEqual(
      loanLeaves.filter((leaf) => isOpenLoanState(topStateOf(leaf))).sort(),
    )
    for (const leaf of acceptingLeaves('DEBT_SOLD')) expect(nextLeaf(leaf, 'DEBT_SOLD')).toBe('sold_debt')
    for (const leaf of acceptingLeaves('WRITTEN_OFF')) expect(nextLeaf(leaf, 'WRITTEN_OFF')).toBe('write_off')
  })

  it('starts at draft; cancelled is final and accepts nothing; a sold or written-off debt is not final', () => {
    expect(initialLoan).toEqual({ version: 3, value: 'draft' })
    expect(LOAN_MODEL_VERSION).toBe(3)
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
    // The daily run marks and clears the standing.
    expect(loanEventDefinitions.OVERDUE.sentBy).toEqual(['job'])
    expect(loanEventDefinitions.CAUGHT_UP.sentBy).toContain('job')
    // Every event is used by some transition.
    const used = new Set(listTransitions(loanLifecycleMachine).map((t) => t.event))
    expect(loanEventTypes.filter((type) => !used.has(type))).toEqual([])
  })
})

describe('leaves, plans, standings and XState values', () => {
  it('the leaves are the top-level states, the open ones split by plan, an active plan by standing', () => {
    expect(loanLeaves).toEqual([
      'draft',
      'cancelled',
      'active.on_terms.current',
      'active.on_terms.overdue',
      'active.scheduled.current',
      'active.scheduled.overdue',
      'on_hold.on_terms',
      'on_hold.scheduled',
      'paid',
      'sold_debt',
      'write_off',
    ])
    expect([...loanPlans]).toEqual(['on_terms', 'scheduled'])
    expect([...loanStandings]).toEqual(['current', 'overdue'])
    // Exactly the open states hold a plan, and their children are the plans; an active plan holds the standings.
    for (const state of loanStates) {
      const node = loanLifecycleMachine.root.states[state]!
      expect(Object.keys(node.states), state).toEqual(isOpenLoanState(state) ? [...loanPlans] : [])
      for (const plan of Object.values(node.states) as AnyStateNode[]) {
        expect(Object.keys(plan.states), pathOf(plan)).toEqual(state === 'active' ? [...loanStandings] : [])
        if (state === 'active') expect(leafOfNode(plan), pathOf(plan)).toBe(`${pathOf(plan)}.current`)
      }
    }
    expect(leafOfNode(loanLifecycleMachine.root.states.active!)).toBe('active.on_terms.current')
    expect(leafOfNode(loanLifecycleMachine.root.states.on_hold!)).toBe('on_hold.on_terms')
  })

  it.each(
    loanLeaves,
  )('%s: leafOf, topStateOf, planOf, standingOf, the predicates, stateValueOf and leafOfValue agree', (leaf) => {
    const state = topStateOf(leaf)
    const plan = planOf(leaf)
    const standing = standingOf(leaf)
    expect(loanStates).toContain(state)
    expect(leafOf(state, plan, standing)).toBe(leaf)
    expect(leafOfValue(stateValueOf(leaf))).toBe(leaf)
    expect(restoreLoan(persisted(leaf)).value).toEqual(stateValueOf(leaf))
    expect(plan === null).toBe(!isOpenLoanState(state))
    expect(standing === null).toBe(state !== 'active')
    expect(isOnTerms(leaf)).toBe(state === 'active' && plan === 'on_terms')
    expect(isScheduled(leaf)).toBe(state === 'active' && plan === 'scheduled')
    expect(isOverdueLeaf(leaf)).toBe(leaf.endsWith('.overdue'))
    // The XState value nests as deep as the leaf.
    const value = stateValueOf(leaf)
    if (standing) expect(value).toEqual({ active: { [plan!]: standing } })
    else if (plan) expect(value).toEqual({ [state]: plan })
    else expect(value).toBe(state)
  })

  it('an open state without a plan is on its terms, an active one without a standing current; the rest ignore them', () => {
    expect(leafOf('active', null)).toBe('active.on_terms.current')
    expect(leafOf('active', 'scheduled')).toBe('active.scheduled.current')
    expect(leafOf('active', 'scheduled', null)).toBe('active.scheduled.current')
    expect(leafOf('active', undefined, 'overdue')).toBe('active.on_terms.overdue')
    expect(leafOf('on_hold', undefined)).toBe('on_hold.on_terms')
    expect(leafOf('on_hold', 'scheduled', 'overdue')).toBe('on_hold.scheduled')
    expect(leafOf('paid', 'scheduled')).toBe('paid')
    expect(leafOf('sold_debt', 'on_terms', 'overdue')).toBe('sold_debt')
    expect(leafOf('draft', 'on_terms')).toBe('draft')
    expect(stateValueOf('active.scheduled.overdue')).toEqual({ active: { scheduled: 'overdue' } })
    expect(stateValueOf('on_hold.scheduled')).toEqual({ on_hold: 'scheduled' })
    expect(stateValueOf('paid')).toBe('paid')
    expect(leafOfValue({ active: { on_terms: 'overdue' } })).toBe('active.on_terms.overdue')
    expect(leafOfValue({ on_hold: 'scheduled' })).toBe('on_hold.scheduled')
    // Asked of a top-level open state, the accepted events are those of its initial leaf.
    expect(loanEventsAcceptedAt('active')).toEqual(loanEventsAcceptedAt('active.on_terms.current'))
    expect(loanEventsAcceptedAt('on_hold')).toEqual(loanEventsAcceptedAt('on_hold.on_terms'))
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

  it('a sold debt answers status 9 and a written-off loan status 10', () => {
    expect(loanStatusOf('sold_debt')).toBe(9)
    expect(loanStatusOf('write_off')).toBe(10)
    expect(loanStateOfStatus(9)).toBe('sold_debt')
    expect(loanStateOfStatus(10)).toBe('write_off')
  })

  // Every plan node and every standing: 'active.on_terms', 'active.on_terms.current', ..., 'on_hold.scheduled'.
  const nested = listStateIds(loanLifecycleMachine)
    .map((id) => id.replace(/^loanLifecycle\./, ''))
    .filter((path) => path.includes('.'))
  it.each(
    nested,
  )('%s: a plan or a standing answers its top-level state status, with a label and a description of its own', (path) => {
    const node = loanLifecycleMachine.getStateNodeById(`loanLifecycle.${path}`)
    const state = path.split('.')[0]!
    expect(node.meta!.status).toBe(specCode(state))
    expect(node.meta!.label.trim()).not.toBe('')
    expect(node.description?.trim(), path).toBeTruthy()
    if (loanLeaves.includes(path as LoanLeaf)) expect(loanStatusOf(path as LoanLeaf)).toBe(specCode(state))
  })

  it('the standings answer status 4: paid as agreed, or overdue; the two plans describe each standing', () => {
    expect(nested.filter((path) => path.split('.').length === 3)).toHaveLength(4)
    for (const plan of loanPlans) {
      const current = nodeOf(`active.${plan}.current`)
      const overdue = nodeOf(`active.${plan}.overdue`)
      expect([current.meta!.status, overdue.meta!.status]).toEqual([4, 4])
      expect(current.meta!.label).not.toBe(overdue.meta!.label)
      expect(current.description).not.toBe(overdue.description)
    }
    // Each plan says it its own way.
    expect(nodeOf('active.on_terms.overdue').description).not.toBe(
      nodeOf('active.scheduled.overdue').description,
    )
  })

  it('the unentered statuses are not states, no transition targets them, and their code finds no state', () => {
    const unentered = Object.keys(unenteredLoanStates) as LoanStatusName[]
    expect(unentered.sort()).toEqual(['cannot_make_offer', 'terminated'])
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
    // Issue 18 made states of these two: a transition reaches each.
    for (const state of ['sold_debt', 'write_off'] as LoanStatusName[]) {
      expect(isEnteredLoanState(state), state).toBe(true)
      expect(targets.has(`loanLifecycle.${state}`), state).toBe(true)
    }
    // Together they are every status of the spec, each once.
    expect([...states, ...unentered].sort()).toEqual(Object.keys(loanStatusCode).sort())
    for (const code of [0, 7, 11, -1, 4.5]) expect(loanStateOfStatus(code), String(code)).toBeUndefined()
  })

  it('open loans owe money (active, on hold); a paid loan is closed; a sold or written-off one defaulted; draft and cancelled are none', () => {
    const open = loanStates.filter(isOpenLoanState)
    const closed = loanStates.filter(isClosedLoanState)
    const defaulted = loanStates.filter(isDefaultedLoanState)
    expect(open.sort()).toEqual(['active', 'on_hold'])
    expect(closed).toEqual(['paid'])
    expect(defaulted).toEqual(['sold_debt', 'write_off'])
    // An open loan takes payments and can be repaid, on either plan and standing; a closed one can be reopened.
    for (const leaf of loanLeaves.filter((l) => open.includes(topStateOf(l))))
      expect(loanEventsAcceptedAt(leaf), leaf).toEqual(expect.arrayContaining(['PAYMENT_POSTED', 'REPAID']))
    for (const state of closed) {
      expect(nextLeaf(state as LoanLeaf, 'REOPENED')).toBe('active.on_terms.current')
      expect(nextLeaf(state as LoanLeaf, 'REOPENED_ON_SCHEDULE')).toBe('active.scheduled.current')
    }
    // A defaulted loan still records payments and their reversals, and nothing else: it never reopens.
    for (const state of defaulted)
      expect([...loanEventsAcceptedAt(state)].sort(), state).toEqual(['PAYMENT_POSTED', 'PAYMENT_REVERSED'])
    for (const leaf of loanLeaves.filter((l) => ![...open, ...closed, ...defaulted].includes(topStateOf(l))))
      expect(nextLeaf(leaf, 'PAYMENT_POSTED'), leaf).toBeNull()
  })
})

describe('stored snapshots', () => {
  it.each(loanLeaves)('%s of version 3 is restored as is, also after a JSON round trip', (leaf) => {
    const stored = JSON.parse(JSON.stringify(persisted(leaf)))
    expect(migratePersistedLoan(stored)).toEqual({ version: 3, value: leaf })
    expect(leafOfValue(restoreLoan(migratePersistedLoan(stored)!).value)).toBe(leaf)
  })

  /** Migrates, then checks migrating again changes nothing and the migrated loan moves on like any other. */
  const expectMigrated = (stored: unknown, leaf: LoanLeaf) => {
    const migrated = migratePersistedLoan(JSON.parse(JSON.stringify(stored)))
    expect(migrated).toEqual({ version: 3, value: leaf })
    expect(migratePersistedLoan(migrated)).toEqual(migrated)
    for (const { type } of allEvents)
      expect(advanceLoan(migrated!, { type })?.value ?? null, type).toBe(nextLeaf(leaf, type))
  }

  // Version 1 named the top-level states draft, cancelled, active, on_hold and paid only; its open loans were on
  // their terms (there were no schedules), and an active one current (there was no standing).
  it.each([
    ['draft', 'draft'],
    ['cancelled', 'cancelled'],
    ['active', 'active.on_terms.current'],
    ['on_hold', 'on_hold.on_terms'],
    ['paid', 'paid'],
  ] as [LoanState, LoanLeaf][])('version 1 %s becomes version 3 %s', (v1, leaf) => {
    expectMigrated({ version: 1, value: v1 }, leaf)
  })

  // Version 2 (issue 17) held a plan in the open states and no standing: its active loans were current (the daily
  // run marks one overdue again if it is); a loan on hold has no standing in version 3 either.
  it.each([
    ['draft', 'draft'],
    ['cancelled', 'cancelled'],
    ['active.on_terms', 'active.on_terms.current'],
    ['active.scheduled', 'active.scheduled.current'],
    ['on_hold.on_terms', 'on_hold.on_terms'],
    ['on_hold.scheduled', 'on_hold.scheduled'],
    ['paid', 'paid'],
  ] as [string, LoanLeaf][])('version 2 %s becomes version 3 %s', (v2, leaf) => {
    expectMigrated({ version: 2, value: v2 }, leaf)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'active.on_terms.current'],
    ['a number', 4],
    ['an array', [3, 'active.on_terms.current']],
    ['an empty object', {}],
    ['no version', { value: 'active.on_terms.current' }],
    ['a future version', { version: 4, value: 'active.on_terms.current' }],
    ['a future version with a version 2 value', { version: 4, value: 'active.on_terms' }],
    ['version 0', { version: 0, value: 'active' }],
    ['a version as text', { version: '3', value: 'active.on_terms.current' }],
    ['a version 2 as text', { version: '2', value: 'active.on_terms' }],
    ['a version 1 as text', { version: '1', value: 'active' }],
    ['no value', { version: 3 }],
    ['no value in version 2', { version: 2 }],
    ['no value in version 1', { version: 1 }],
    // Version 3: only its leaves.
    ['a top-level open state in version 3', { version: 3, value: 'active' }],
    ['on_hold without its plan in version 3', { version: 3, value: 'on_hold' }],
    ['a version 2 leaf in version 3', { version: 3, value: 'active.on_terms' }],
    ['a version 2 scheduled leaf in version 3', { version: 3, value: 'active.scheduled' }],
    ['an unknown standing', { version: 3, value: 'active.on_terms.late' }],
    ['a standing on hold', { version: 3, value: 'on_hold.on_terms.overdue' }],
    ['a standing without a plan', { version: 3, value: 'active.overdue' }],
    ['a plan on a state without plans', { version: 3, value: 'paid.scheduled' }],
    ['a standing on a defaulted state', { version: 3, value: 'sold_debt.overdue' }],
    ['an unentered status', { version: 3, value: 'terminated' }],
    ['a status code as value', { version: 3, value: 9 }],
    ['an XState object value', { version: 3, value: { active: { on_terms: 'current' } } }],
    ['a prototype key', { version: 3, value: 'toString' }],
    ['a padded leaf', { version: 3, value: ' active.on_terms.current' }],
    ['an upper-case leaf', { version: 3, value: 'ACTIVE.ON_TERMS.CURRENT' }],
    // Version 2: no standing, no debt sale, no write-off.
    ['a version 3 leaf in version 2', { version: 2, value: 'active.on_terms.current' }],
    ['an overdue leaf in version 2', { version: 2, value: 'active.scheduled.overdue' }],
    ['a top-level open state in version 2', { version: 2, value: 'active' }],
    ['on_hold without its plan in version 2', { version: 2, value: 'on_hold' }],
    ['a sold debt in version 2', { version: 2, value: 'sold_debt' }],
    ['a write-off in version 2', { version: 2, value: 'write_off' }],
    ['an unknown leaf in version 2', { version: 2, value: 'active.overdue' }],
    ['an unknown state in version 2', { version: 2, value: 'overdue' }],
    ['a plan on a state without plans in version 2', { version: 2, value: 'paid.scheduled' }],
    ['a plan alone in version 2', { version: 2, value: 'scheduled' }],
    ['an unentered status in version 2', { version: 2, value: 'terminated' }],
    ['an XState object value in version 2', { version: 2, value: { active: 'on_terms' } }],
    ['a prototype key in version 2', { version: 2, value: '__proto__' }],
    ['a prototype key as plan in version 2', { version: 2, value: 'active.constructor' }],
    ['a padded leaf in version 2', { version: 2, value: 'active.on_terms ' }],
    // Version 1: top-level states of its time only.
    ['a version 2 leaf in version 1', { version: 1, value: 'active.on_terms' }],
    ['a scheduled leaf in version 1', { version: 1, value: 'active.scheduled' }],
    ['a version 3 leaf in version 1', { version: 1, value: 'active.on_terms.current' }],
    ['a sold debt in version 1', { version: 1, value: 'sold_debt' }],
    ['a write-off in version 1', { version: 1, value: 'write_off' }],
    ['an unknown version 1 state', { version: 1, value: 'overdue' }],
    ['an unentered status in version 1', { version: 1, value: 'terminated' }],
    ['an XState object value in version 1', { version: 1, value: { active: 'on_terms' } }],
    ['a prototype key in version 1', { version: 1, value: '__proto__' }],
  ])('refuses %s', (_name, stored) => {
    expect(migratePersistedLoan(stored)).toBeNull()
  })
})
