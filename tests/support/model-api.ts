/**
 * Model-based tests that drive the real system (issue 20 item 4): the server's statecharts (the client journey, the
 * loan lifecycle) planned with `createTestModel` (tests/support/model-plan.ts, from the rules in
 * tests/support/model-rules.ts) and replayed against the HTTP API on a real database.
 *
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
  initialTransition,
  type StateValue,
  transition,
} from 'xstate'
import { activeStateIds, type CoverageReport, listStateIds, listTransitions } from './model-coverage'
import type { Facts, PlannedPath, PlanRules } from './model-plan'

export { type Facts, type PlannedPath, type PlanRules, planCoverage } from './model-plan'

function snapshotOf(machine: AnyStateMachine, value: StateValue): AnyMachineSnapshot {
  return machine.resolveState({ value, context: {} })
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
