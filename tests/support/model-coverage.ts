/**
 * Model-based testing helpers shared by the machine tests (app shell, calculator, auth, journey...).
 *
 * The recipe:
 * 1. `toModelMachine(machine)`: the same config and implementations with every delayed transition
 *    (`after`) and every invoked actor's result (onDone/onError/onSnapshot) turned into a plain event,
 *    because `createTestModel` from `xstate/graph` refuses machines with `after` or `invoke`. The events
 *    keep the names XState uses internally (`xstate.after.<delay>.<state id>`,
 *    `xstate.done.actor.<invoke id>`...), so a model transition is the real machine's transition.
 * 2. Plan paths on the model with `createTestModel(model, { events, serializeState })`.
 * 3. Replay every path on the REAL machine (`createActor(machine, { clock, inspect: recorder.inspect })`),
 *    turning the model-only events back into what causes them (advancing the clock, resolving the actor).
 * 4. `recorder.report()`: which state nodes and which transitions of the real machine the replay visited.
 *    Transitions are recorded from the real actor's `@xstate.microstep` inspection events, so coverage
 *    counts what actually fired, including `always` and delayed transitions, not what the plan hoped for.
 */
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createMachine,
  type InspectionEvent,
  type StateValue,
} from 'xstate'

// ---------------------------------------------------------------------------------------------
// Listing what a machine has

function childrenOf(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[]
}

function allNodes(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = []
  const visit = (node: AnyStateNode) => {
    nodes.push(node)
    for (const child of childrenOf(node)) visit(child)
  }
  visit(machine.root)
  return nodes
}

/** Ids of every state node except the root (which is always active), in document order. */
export function listStateIds(machine: AnyStateMachine): string[] {
  return allNodes(machine)
    .slice(1)
    .map((n) => n.id)
}

export interface TransitionInfo {
  /** `source --event [guard]--> target(s)`; unique within the machine. */
  key: string
  source: string
  /** Event type; `''` for an `always` transition. */
  event: string
  guard: string | null
  /** Target ids; empty for a targetless transition. */
  targets: string[]
  definition: AnyTransitionDefinition
}

function guardLabel(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null
  if (typeof guard === 'string') return guard
  if (typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string') {
    return (guard as { type: string }).type
  }
  return 'guard'
}

/**
 * Every transition definition of the machine: `on` (including the `xstate.after.*` and
 * `xstate.done/error.actor.*` events XState derives from `after` and `invoke`), then `always`.
 */
export function listTransitions(machine: AnyStateMachine): TransitionInfo[] {
  const result: TransitionInfo[] = []
  const seen = new Map<string, number>()
  const add = (node: AnyStateNode, event: string, t: AnyTransitionDefinition) => {
    const guard = guardLabel(t.guard)
    const targets = (t.target ?? []).map((target: AnyStateNode) => target.id)
    const base = `${node.id} --${event || 'always'}${guard ? ` [${guard}]` : ''}--> ${targets.length ? targets.join(', ') : '(targetless)'}`
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    result.push({
      key: n === 1 ? base : `${base} #${n}`,
      source: node.id,
      event,
      guard,
      targets,
      definition: t,
    })
  }
  for (const node of allNodes(machine)) {
    for (const [event, definitions] of node.transitions) for (const t of definitions) add(node, event, t)
    for (const t of node.always ?? []) add(node, '', t)
  }
  return result
}

/** Ids of the state nodes active in `value` (without the root). */
export function activeStateIds(machine: AnyStateMachine, value: StateValue): string[] {
  const ids: string[] = []
  const visit = (node: AnyStateNode, v: StateValue) => {
    if (typeof v === 'string') {
      const child = node.states[v] as AnyStateNode | undefined
      if (child) ids.push(child.id)
      return
    }
    for (const [key, sub] of Object.entries(v)) {
      const child = node.states[key] as AnyStateNode | undefined
      if (!child) continue
      ids.push(child.id)
      if (sub !== undefined) visit(child, sub as StateValue)
    }
  }
  visit(machine.root, value)
  return ids
}

// ---------------------------------------------------------------------------------------------
// The model machine

export interface ModelEvent {
  /** The event type the model uses, identical to the one XState uses inside the real machine. */
  type: string
  stateId: string
  kind: 'after' | 'actor.done' | 'actor.error' | 'actor.snapshot'
  /** The delay (name or ms) for `after`; the invoke id and src for actor results. */
  delay?: string | number
  invokeId?: string
  src?: string
}

/** The events `toModelMachine` adds: one per delay and per invoke result handler, in document order. */
export function listModelEvents(machine: AnyStateMachine): ModelEvent[] {
  const events: ModelEvent[] = []
  for (const node of allNodes(machine)) {
    const delays = new Set<string>()
    for (const a of node.after) {
      if (delays.has(a.eventType)) continue
      delays.add(a.eventType)
      events.push({ type: a.eventType, stateId: node.id, kind: 'after', delay: a.delay as string | number })
    }
    for (const inv of node.invoke) {
      const src = typeof inv.src === 'string' ? inv.src : inv.id
      if (inv.onDone)
        events.push({
          type: `xstate.done.actor.${inv.id}`,
          stateId: node.id,
          kind: 'actor.done',
          invokeId: inv.id,
          src,
        })
      if (inv.onError)
        events.push({
          type: `xstate.error.actor.${inv.id}`,
          stateId: node.id,
          kind: 'actor.error',
          invokeId: inv.id,
          src,
        })
      if (inv.onSnapshot)
        events.push({
          type: `xstate.snapshot.${inv.id}`,
          stateId: node.id,
          kind: 'actor.snapshot',
          invokeId: inv.id,
          src,
        })
    }
  }
  return events
}

type NodeConfig = Record<string, unknown> & { on?: Record<string, unknown>; states?: Record<string, unknown> }

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

function modelConfig(node: AnyStateNode): NodeConfig {
  const { after, invoke, states, on, ...rest } = node.config as NodeConfig & {
    after?: Record<string, unknown>
    invoke?: unknown
  }
  const newOn: Record<string, unknown> = { ...(on ?? {}) }
  const add = (type: string, transitions: unknown) => {
    if (transitions === undefined) return
    if (type in newOn) throw new Error(`toModelMachine: ${node.id} already handles "${type}"`)
    newOn[type] = transitions
  }
  for (const [delay, transitions] of Object.entries(after ?? {})) {
    const delayed = node.after.find((a) => String(a.delay) === delay)
    if (!delayed)
      throw new Error(`toModelMachine: cannot find the delayed transition "${delay}" of ${node.id}`)
    add(delayed.eventType, transitions)
  }
  toArray(invoke as Record<string, unknown>[] | undefined).forEach((config, i) => {
    const id = (node.invoke[i] as { id: string }).id
    add(`xstate.done.actor.${id}`, config.onDone)
    add(`xstate.error.actor.${id}`, config.onError)
    add(`xstate.snapshot.${id}`, config.onSnapshot)
  })
  const config: NodeConfig = { ...rest }
  if (Object.keys(newOn).length) config.on = newOn
  if (states) {
    config.states = Object.fromEntries(childrenOf(node).map((child) => [child.key, modelConfig(child)]))
  }
  return config
}

/**
 * The machine's own config and implementations (guards, actions, delays, actors) with `after` and
 * `invoke` replaced by plain events (see `listModelEvents`): what `createTestModel` can traverse.
 * `machine.provide()` cannot do this, since it swaps implementations but keeps the config.
 */
export function toModelMachine(machine: AnyStateMachine): AnyStateMachine {
  return createMachine(
    modelConfig(machine.root) as never,
    machine.implementations as never,
  ) as AnyStateMachine
}

// ---------------------------------------------------------------------------------------------
// Recording coverage on the real machine

export interface CoverageCount {
  covered: number
  total: number
  missing: string[]
}

export interface CoverageReport {
  states: CoverageCount
  transitions: CoverageCount
}

export interface CoverageRecorder {
  /** Pass as `createActor(machine, { inspect: recorder.inspect })`; several actors may share it. */
  inspect: (event: InspectionEvent) => void
  /** For snapshots obtained without inspection (e.g. `machine.transition(...)`). */
  recordSnapshot: (snapshot: AnyMachineSnapshot) => void
  report: () => CoverageReport
}

export function createCoverageRecorder(machine: AnyStateMachine): CoverageRecorder {
  const stateIds = listStateIds(machine)
  const transitions = listTransitions(machine)
  const keyOf = new Map(transitions.map((t) => [t.definition, t.key]))
  const visitedStates = new Set<string>()
  const visitedTransitions = new Set<string>()

  const recordSnapshot = (snapshot: AnyMachineSnapshot) => {
    for (const id of activeStateIds(machine, snapshot.value)) visitedStates.add(id)
  }
  const isOurs = (snapshot: unknown): snapshot is AnyMachineSnapshot =>
    typeof snapshot === 'object' &&
    snapshot !== null &&
    (snapshot as { machine?: unknown }).machine === machine

  return {
    inspect: (event) => {
      if (event.type === '@xstate.microstep') {
        for (const t of event._transitions) {
          const key = keyOf.get(t)
          if (key) visitedTransitions.add(key)
        }
      }
      if (
        (event.type === '@xstate.microstep' || event.type === '@xstate.snapshot') &&
        isOurs(event.snapshot)
      ) {
        recordSnapshot(event.snapshot)
      }
    },
    recordSnapshot,
    report: () => ({
      states: {
        covered: stateIds.filter((id) => visitedStates.has(id)).length,
        total: stateIds.length,
        missing: stateIds.filter((id) => !visitedStates.has(id)),
      },
      transitions: {
        covered: transitions.filter((t) => visitedTransitions.has(t.key)).length,
        total: transitions.length,
        missing: transitions.filter((t) => !visitedTransitions.has(t.key)).map((t) => t.key),
      },
    }),
  }
}

/** `app-shell coverage: states 9/9, transitions 13/13` */
export function formatCoverage(name: string, report: CoverageReport): string {
  const { states, transitions } = report
  return `${name} coverage: states ${states.covered}/${states.total}, transitions ${transitions.covered}/${transitions.total}`
}
