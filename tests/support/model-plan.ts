/**
 * Planning the model-based tests that drive the real system (issue 20 item 4), without a test runner: the API suite
 * (tests/support/model-api.ts, vitest) and the browser sample (e2e/model-sample.spec.ts, Playwright) plan from the
 * same rules (tests/support/model-rules.ts).
 *
 * The real machine cannot say which events the server can really cause next (applying needs a finished registration,
 * a reversal needs a payment, the sandbox scoring answers by the client's name, which is fixed at sign-up...). So the
 * plan runs on a planning machine: the real machine's state plus a few facts, and the rules for when an event is
 * feasible and what it changes. `createTestModel` gives the shortest path to every (state, facts) node; each one, and
 * each one extended by one feasible event, is a candidate; a greedy set cover keeps the few candidates that together
 * reach what is asked (every transition and every state for the API suite, every state for the browser sample), the
 * shortest ones first, a new client or loan costing as much as a few calls. Nothing replays every path.
 */
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
import { activeStateIds, listStateIds, listTransitions } from './model-coverage'

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
export function planCoverage<F extends Facts>(
  rules: PlanRules<F>,
  cover: 'everything' | 'states' = 'everything',
) {
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
  const left = new Set([
    ...(cover === 'everything' ? listTransitions(machine).map((t) => t.key) : []),
    ...listStateIds(machine),
  ])
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
