/**
 * Model-based tests that drive the real system (issue 20 item 4): the server's statecharts (the client journey, the
 * loan lifecycle) planned with `createTestModel` and replayed against the HTTP API on a real database.
 *
 * - Planning (`planCoverage`): the real machine cannot say which events the server can really cause next (applying
 *   needs a finished registration, a reversal needs a payment, the sandbox scoring answers by the client's name, which
 *   is fixed at sign-up...). So the plan runs on a planning machine: the real machine's state plus a few facts, and
 *   the test's rules for when an event is feasible and what it changes. `createTestModel` gives the shortest path to
 *   every (state, facts) node; each one, and each one extended by one feasible event, is a candidate; a greedy set
 *   cover keeps the few candidates that together take every transition and reach every state of the real machine
 *   (the shortest ones first, a new client or loan costing as much as a few calls). Nothing replays every path.
 * - Automatic events: the server sends some events itself right after another one (RETURN_TO_LOAN after a cancelled
 *   additional application; CREDIT_REFUNDED right after an overpayment). The rules name them: while one is pending
 *   it is the only feasible event, and the replay checks the state only after it.
 * - Replay (`replayPlan`): each event of a planned path is caused by its real call(s); after each step the persisted
 *   state (read through the API or the database) must equal the model's, and the new history rows
 *   (`state_transition`) must contain the model's events in order. The first time a state is reached, the test's
 *   refusal battery runs there (every call of an event the state does not accept must answer 409).
 * - Coverage (`coverageFromHistory`): from the recorded history rows and the states observed, never from the plan:
 *   each row is mapped to the real machine's transition definition it took.
 */
import { expect } from 'vitest'
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  assign,
  initialTransition,
  type StateValue,
  setup,
  transition,
} from 'xstate'
import { createTestModel } from 'xstate/graph'
import { activeStateIds, type CoverageReport, listStateIds, listTransitions } from './model-coverage'

/** Facts the planning machine carries beside the real machine's state: plain JSON. */
export type Facts = Record<string, string | number | boolean | null>

export interface PlanRules<F extends Facts> {
  /** The real machine (a pure statechart: no actors, no delays). */
  machine: AnyStateMachine
  /** The machine's event types the plan may use. */
  events: readonly string[]
  initialFacts: F
  /** The stored form of a snapshot's value (the journey's step, the loan's leaf). */
  leafOf: (value: StateValue) => string
  /** Whether the server can cause `event` at `leaf` given the facts (the machine accepts it already). */
  feasible: (facts: F, leaf: string, event: string) => boolean
  /** The facts after `event` took the machine from `from` to `to`. */
  update: (facts: F, from: string, event: string, to: string) => F
  /**
   * Planning-only events: calls that change no state of this machine but change what is feasible next (e.g. a new
   * payout account that refunds will fail to). `feasible` and `update` decide them; the replay causes them and expects
   * no history row.
   */
  sideEvents?: readonly string[]
  /** The event the server sends by itself next, if any: it is then the only feasible one. */
  automatic?: (facts: F, leaf: string) => string | null
}

export interface PlannedPath<F extends Facts> {
  events: string[]
  /** The facts at the end of the path (what the subject must be created with: a name, a payout account...). */
  facts: F
  /** Transition keys (model-coverage.ts) and state ids of the real machine the path takes. */
  transitions: string[]
  states: string[]
}

interface PlanContext {
  value: StateValue
  facts: Facts
}

/** Cost of a new subject (a client signed up and walked, a loan signed) in calls, against the path's length. */
const SETUP_COST = 6

function snapshotOf(machine: AnyStateMachine, value: StateValue): AnyMachineSnapshot {
  return machine.resolveState({ value, context: {} })
}

/**
 * The candidates (shortest paths to every planning node, and each extended by one feasible event), then a greedy
 * cover of every transition and state of the real machine. Answers the chosen paths and what stays uncovered.
 */
export function planCoverage<F extends Facts>(rules: PlanRules<F>) {
  const { machine } = rules
  const keyOf = new Map(listTransitions(machine).map((t) => [t.definition, t.key]))
  const enabled = (ctx: PlanContext, type: string) => {
    const leaf = rules.leafOf(ctx.value)
    const pending = rules.automatic?.(ctx.facts as F, leaf) ?? null
    if (pending !== null && pending !== type) return false
    if (rules.sideEvents?.includes(type)) return rules.feasible(ctx.facts as F, leaf, type)
    if (!snapshotOf(machine, ctx.value).can({ type })) return false
    return pending === type || rules.feasible(ctx.facts as F, leaf, type)
  }
  const step = (ctx: PlanContext, type: string): PlanContext => {
    if (rules.sideEvents?.includes(type)) {
      const leaf = rules.leafOf(ctx.value)
      return { value: ctx.value, facts: rules.update(ctx.facts as F, leaf, type, leaf) }
    }
    const [next] = transition(machine, snapshotOf(machine, ctx.value), { type })
    const facts = rules.update(ctx.facts as F, rules.leafOf(ctx.value), type, rules.leafOf(next.value))
    return { value: next.value, facts }
  }
  const initialValue = initialTransition(machine)[0].value as StateValue
  const allEvents = [...rules.events, ...(rules.sideEvents ?? [])]
  const planner = setup({
    types: { context: {} as PlanContext, events: {} as { type: string } },
  }).createMachine({
    id: `${machine.id}-plan`,
    context: { value: initialValue, facts: rules.initialFacts },
    on: Object.fromEntries(
      allEvents.map((type) => [
        type,
        {
          guard: ({ context }: { context: PlanContext }) => enabled(context, type),
          actions: assign(({ context }: { context: PlanContext }) => step(context, type)),
        },
      ]),
    ),
  })
  const model = createTestModel(planner, { events: allEvents.map((type) => ({ type })) })

  /** Replays event types on the real machine: the transitions taken and the states entered. */
  const taken = (events: readonly string[]) => {
    let snapshot = snapshotOf(machine, initialValue)
    const transitions = new Set<string>()
    const states = new Set(activeStateIds(machine, snapshot.value))
    for (const type of events) {
      if (rules.sideEvents?.includes(type)) continue
      for (const t of machine.getTransitionData(snapshot, { type })) {
        const key = keyOf.get(t)
        if (key) transitions.add(key)
      }
      snapshot = transition(machine, snapshot, { type })[0]
      for (const id of activeStateIds(machine, snapshot.value)) states.add(id)
    }
    return { transitions: [...transitions], states: [...states] }
  }

  const candidates: PlannedPath<F>[] = []
  // The model answers the longest shortest paths only (a prefix of one is dropped); every prefix of a shortest path
  // is a shortest path to its own node.
  const nodes = new Map<string, { events: string[]; end: PlanContext }>()
  for (const path of model.getShortestPaths()) {
    const events: string[] = []
    path.steps.forEach((s) => {
      if (allEvents.includes(s.event.type)) events.push(s.event.type)
      const end = s.state.context as PlanContext
      const key = JSON.stringify(end)
      if ((nodes.get(key)?.events.length ?? Number.POSITIVE_INFINITY) > events.length)
        nodes.set(key, { events: [...events], end })
    })
  }
  for (const { events, end } of nodes.values()) {
    const ends = [
      { events, ctx: end },
      ...allEvents
        .filter((type) => enabled(end, type))
        .map((type) => ({ events: [...events, type], ctx: step(end, type) })),
    ]
    for (const { events: e, ctx } of ends) {
      // A path may not end while the server still owes an automatic event.
      let full = e
      let last = ctx
      for (let pending = rules.automatic?.(last.facts as F, rules.leafOf(last.value)) ?? null; pending; ) {
        full = [...full, pending]
        last = step(last, pending)
        pending = rules.automatic?.(last.facts as F, rules.leafOf(last.value)) ?? null
      }
      candidates.push({ events: full, facts: last.facts as F, ...taken(full) })
    }
  }

  // Greedy cover: the candidate covering most of what is left per unit of cost, until nothing more can be covered.
  const left = new Set([...listTransitions(machine).map((t) => t.key), ...listStateIds(machine)])
  const chosen: PlannedPath<F>[] = []
  for (;;) {
    let best: PlannedPath<F> | null = null
    let bestScore = 0
    for (const c of candidates) {
      const gain = [...c.transitions, ...c.states].filter((k) => left.has(k)).length
      const score = gain / (c.events.length + SETUP_COST)
      if (gain > 0 && score > bestScore) {
        best = c
        bestScore = score
      }
    }
    if (!best) break
    chosen.push(best)
    for (const k of [...best.transitions, ...best.states]) left.delete(k)
  }
  return { paths: chosen, uncovered: [...left], nodes: nodes.size, candidates: candidates.length }
}

// ---------------------------------------------------------------------------------------------------------------
// Replay against the API

/** One row of `state_transition`, as far as coverage needs it. */
export interface HistoryRow {
  fromState: string
  toState: string
  event: string
}

export interface ApiReplay<F extends Facts, S> {
  rules: PlanRules<F>
  /** A fresh subject (a client, a loan) for a path, made from the path's facts. */
  start: (path: PlannedPath<F>) => Promise<S>
  /** Causes one event through its real call(s); `leaf` is where the model stands before it. */
  send: (subject: S, event: string, leaf: string) => Promise<void>
  /** The persisted state (journey step, loan leaf) read back through the API or the database. */
  persisted: (subject: S) => Promise<string>
  /** The subject's history rows, oldest first. */
  history: (subject: S) => Promise<HistoryRow[]>
  /** Runs at the first visit of each state: every call the state must refuse. */
  refusals?: (subject: S, leaf: string) => Promise<void>
}

export interface ReplayResult {
  rows: HistoryRow[]
  /** Leaves seen persisted. */
  observed: string[]
  paths: number
  steps: number
}

/** Replays each planned path on a fresh subject, checking the persisted state and the history after every step. */
export async function replayPlan<F extends Facts, S>(
  replay: ApiReplay<F, S>,
  paths: readonly PlannedPath<F>[],
): Promise<ReplayResult> {
  const { rules } = replay
  const { machine } = rules
  const rows: HistoryRow[] = []
  const observed = new Set<string>()
  const refused = new Set<string>()
  let steps = 0
  for (const path of paths) {
    const subject = await replay.start(path)
    let value = initialTransition(machine)[0].value as StateValue
    let leaf = rules.leafOf(value)
    let facts = rules.initialFacts as F
    expect(await replay.persisted(subject), `${path.events.join(' ')}: the start`).toBe(leaf)
    observed.add(leaf)
    let seen = (await replay.history(subject)).length
    let since: string[] = []
    const check = async () => {
      const now = await replay.persisted(subject)
      const label = `${path.events.join(' > ')}: after ${since.join(', ')}`
      expect(now, label).toBe(leaf)
      observed.add(now)
      const history = await replay.history(subject)
      const added = history.slice(seen).map((r) => r.event)
      // The model's events, in order, among what was recorded (a call may record more, e.g. a payment before a
      // catch-up); the last row ends where the model does.
      let at = 0
      for (const event of added) if (event === since[at]) at++
      expect(at, `${label}: recorded ${added.join(', ')}`).toBe(since.length)
      if (history.length > seen) expect(history.at(-1)!.toState, label).toBe(leaf)
      seen = history.length
      since = []
      if (replay.refusals && !refused.has(leaf)) {
        refused.add(leaf)
        await replay.refusals(subject, leaf)
        const after = await replay.history(subject)
        expect(after.length, `${leaf}: a refused call wrote history`).toBe(seen)
        expect(await replay.persisted(subject), `${leaf}: a refused call moved the state`).toBe(leaf)
      }
    }
    for (const event of path.events) {
      const pending = rules.automatic?.(facts, leaf) ?? null
      // An automatic event was sent by the server with the previous call: nothing to call.
      if (pending !== event) await replay.send(subject, event, leaf)
      if (rules.sideEvents?.includes(event)) {
        facts = rules.update(facts, leaf, event, leaf)
        steps++
        await check()
        continue
      }
      const [next] = transition(machine, snapshotOf(machine, value), { type: event })
      facts = rules.update(facts, leaf, event, rules.leafOf(next.value))
      value = next.value
      leaf = rules.leafOf(value)
      since.push(event)
      steps++
      if (!rules.automatic?.(facts, leaf)) await check()
    }
    rows.push(...(await replay.history(subject)))
  }
  return { rows, observed: [...observed], paths: paths.length, steps }
}

/**
 * The coverage of the real machine from what the database recorded: each history row is the transition definition
 * the machine takes from its source for its event (and must lead where the row says); each state seen persisted or
 * named by a row counts with its ancestors.
 */
export function coverageFromHistory(
  machine: AnyStateMachine,
  stateValueFor: (leaf: string) => StateValue,
  result: Pick<ReplayResult, 'rows' | 'observed'>,
): CoverageReport {
  const transitions = listTransitions(machine)
  const keyOf = new Map(transitions.map((t) => [t.definition, t.key]))
  const stateIds = listStateIds(machine)
  const states = new Set<string>()
  const taken = new Set<string>()
  const addLeaf = (leaf: string) => {
    for (const id of activeStateIds(machine, stateValueFor(leaf))) states.add(id)
  }
  for (const leaf of result.observed) addLeaf(leaf)
  for (const row of result.rows) {
    const snapshot = snapshotOf(machine, stateValueFor(row.fromState))
    const [next] = transition(machine, snapshot, { type: row.event })
    expect(next.value, `history ${row.fromState} --${row.event}--> ${row.toState}`).toEqual(
      stateValueFor(row.toState),
    )
    for (const t of machine.getTransitionData(snapshot, { type: row.event })) {
      const key = keyOf.get(t)
      if (key) taken.add(key)
    }
    addLeaf(row.fromState)
    addLeaf(row.toState)
  }
  return {
    states: {
      covered: stateIds.filter((id) => states.has(id)).length,
      total: stateIds.length,
      missing: stateIds.filter((id) => !states.has(id)),
    },
    transitions: {
      covered: transitions.filter((t) => taken.has(t.key)).length,
      total: transitions.length,
      missing: transitions.filter((t) => !taken.has(t.key)).map((t) => t.key),
    },
  }
}

const percent = (covered: number, total: number) => `${Math.floor((covered * 100) / total)}%`

/** `model coverage through the API: journey states 100%, transitions 100% (18/18, 51/51)` */
export function formatApiCoverage(name: string, report: CoverageReport, note = ''): string {
  const { states: s, transitions: t } = report
  return `model coverage through the API: ${name} states ${percent(s.covered, s.total)}, transitions ${percent(t.covered, t.total)} (${s.covered}/${s.total}, ${t.covered}/${t.total}${note})`
}
