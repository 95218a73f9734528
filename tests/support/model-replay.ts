/**
 * The replay half of the recipe in model-coverage.ts, shared by the machine tests that plan paths with
 * `createTestModel` and replay them on the real machine (application wait, calculator submit, code request,
 * flow sync, offer decision).
 *
 * - `replayPath`: one planned path, stepped on a model actor and the real (live) actor side by side; after every
 *   step the live snapshot must equal the model's (value and context) and the test's invariants must hold.
 * - `replayEveryTransition`: every shortest path of every planned model, then, for each model transition still
 *   missing, one replayed prefix extended by the one event that takes it (a transition back to a state already
 *   known lies on no shortest path).
 * - `coverEveryTransition`: replays them all, prints `<name> coverage: states x/y, transitions a/b (...)` and the model's line, and
 *   requires every state node and transition of the live and the model machine.
 */
import { expect } from 'vitest'
import { type AnyMachineSnapshot, type AnyStateMachine, type EventObject, transition } from 'xstate'
import type { TestModel, TestPath } from 'xstate/graph'
import {
  type CoverageRecorder,
  type CoverageReport,
  createCoverageRecorder,
  formatCoverage,
  listTransitions,
} from './model-coverage'

export type ModelPath<TEvent extends EventObject> = TestPath<AnyMachineSnapshot, TEvent>
// biome-ignore lint/suspicious/noExplicitAny: the input type of a planned model is the test's own business
export type PlannedModel<TEvent extends EventObject> = TestModel<AnyMachineSnapshot, TEvent, any>
export type StepHandler<TEvent extends EventObject> = (step: { event: TEvent }) => unknown
export interface Recorders {
  model: CoverageRecorder
  live: CoverageRecorder
}

interface Stoppable {
  getSnapshot: () => AnyMachineSnapshot
  stop: () => void
}

export interface ReplayPathOptions<TEvent extends EventObject> {
  testModel: PlannedModel<TEvent>
  path: ModelPath<TEvent>
  /** The model actor, started; the handlers send it each event. */
  model: Stoppable
  /** The real actor, started. */
  live: Stoppable
  /** One handler per event type: send the event to the model, cause it on the live actor, check the effects. */
  events: Record<string, StepHandler<TEvent>>
  /** After every step; the live snapshot has been checked against the model's. */
  invariants: (live: AnyMachineSnapshot) => void
  /** How the live context is compared with the model's; `toEqual` unless given. */
  expectSameContext?: (live: AnyMachineSnapshot['context'], model: AnyMachineSnapshot['context']) => void
  /** Anything else to undo after the path (both actors are stopped in any case). */
  cleanup?: () => void
}

/** Replays one path; returns the model snapshot reached at each step (its start first). */
export async function replayPath<TEvent extends EventObject>(
  options: ReplayPathOptions<TEvent>,
): Promise<AnyMachineSnapshot[]> {
  const { model, live } = options
  const expectSameContext =
    options.expectSameContext ?? ((actual: unknown, expected: unknown) => expect(actual).toEqual(expected))
  const reached: AnyMachineSnapshot[] = []
  try {
    await options.testModel.testPath(options.path, {
      events: options.events as never,
      states: {
        '*': () => {
          const expected = model.getSnapshot()
          const actual = live.getSnapshot()
          expect(actual.value).toEqual(expected.value)
          expectSameContext(actual.context, expected.context)
          options.invariants(actual)
          reached.push(expected)
        },
      },
    })
    return reached
  } finally {
    model.stop()
    live.stop()
    options.cleanup?.()
  }
}

export interface ReplayRun<TEvent extends EventObject> {
  testModel: PlannedModel<TEvent>
  /** Replays a path on fresh actors inspected by the recorders; see `replayPath`. */
  replay: (path: ModelPath<TEvent>, recorders: Recorders) => Promise<AnyMachineSnapshot[]>
}

export interface ReplayCoverage {
  live: CoverageReport
  model: CoverageReport
  paths: number
  /** Of `paths`, how many were a shortest path's prefix extended by one event. */
  extended: number
  steps: number
  /** The model snapshots reached along the shortest paths. */
  visited: AnyMachineSnapshot[]
}

/**
 * Every shortest path of each run's model, replayed; then each model transition still missing, taken by
 * extending a replayed prefix (of the same run) with the one event that takes it.
 */
export async function replayEveryTransition<TEvent extends EventObject>(options: {
  modelMachine: AnyStateMachine
  liveMachine: AnyStateMachine
  /** The events the models were planned with. */
  events: TEvent[]
  runs: ReplayRun<TEvent>[]
}): Promise<ReplayCoverage> {
  const { modelMachine } = options
  const recorders: Recorders = {
    model: createCoverageRecorder(modelMachine),
    live: createCoverageRecorder(options.liveMachine),
  }
  const keyOf = new Map(listTransitions(modelMachine).map((t) => [t.definition, t.key]))
  const transitionsTaken = (state: AnyMachineSnapshot, event: TEvent) =>
    modelMachine.getTransitionData(state, event).flatMap((t) => keyOf.get(t) ?? [])
  let paths = 0
  let extended = 0
  let steps = 0
  const allVisited: AnyMachineSnapshot[] = []
  for (const run of options.runs) {
    const visited: { path: ModelPath<TEvent>; at: number; state: AnyMachineSnapshot }[] = []
    for (const path of run.testModel.getShortestPaths()) {
      paths++
      steps += path.steps.length
      const states = await run.replay(path, recorders)
      states.forEach((state, at) => {
        visited.push({ path, at, state })
        allVisited.push(state)
      })
    }
    for (const key of recorders.model.report().transitions.missing) {
      const found = visited
        .flatMap((v) => options.events.map((event) => ({ ...v, event })))
        .find(({ state, event }) => transitionsTaken(state, event).includes(key))
      if (!found) continue
      extended++
      paths++
      const prefix = found.path.steps.slice(0, found.at + 1)
      const [next] = transition(modelMachine, found.state, found.event)
      steps += prefix.length + 1
      await run.replay(
        { ...found.path, steps: [...prefix, { event: found.event, state: next }], state: next },
        recorders,
      )
    }
  }
  return {
    live: recorders.live.report(),
    model: recorders.model.report(),
    paths,
    extended,
    steps,
    visited: allVisited,
  }
}

/**
 * `replayEveryTransition`, then prints the coverage lines and requires every state node and transition of both
 * machines. `describe` adds to the printed figures (e.g. `, 75 abstract states`).
 */
export async function coverEveryTransition<TEvent extends EventObject>(
  name: string,
  options: Parameters<typeof replayEveryTransition<TEvent>>[0] & {
    describe?: (result: ReplayCoverage) => string
  },
): Promise<ReplayCoverage> {
  const result = await replayEveryTransition(options)
  const { live, model, paths, extended, steps } = result
  const extra = options.describe?.(result) ?? ''
  console.info(
    `${formatCoverage(name, live)} (${paths} paths, ${extended} of them extended, ${steps} steps${extra})`,
  )
  console.info(formatCoverage(`${name} model`, model))
  expect(live.states.missing).toEqual([])
  expect(live.transitions.missing).toEqual([])
  expect(model.states.missing).toEqual([])
  expect(model.transitions.missing).toEqual([])
  return result
}
