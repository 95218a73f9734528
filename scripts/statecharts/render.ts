/**
 * Statechart rendering for `npm run statecharts`: pure functions from an XState machine to
 * - a neutral chart model (`describeMachine`, a walk of `machine.root`),
 * - Mermaid `stateDiagram-v2` text (`toMermaid`) and the Markdown page around it (`toMarkdown`),
 * - the JSON AST that state-machine-cat turns into SVG (`toSmcatAst`).
 *
 * We walk the state nodes ourselves because `toDirectedGraph` from `xstate/graph` drops `always`
 * transitions and does not say which edges are delays or actor results.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate'

export type ChartStateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history'

/** What triggers a transition; `label` is what the diagram and the tables print. */
export type ChartTrigger =
  | { kind: 'event'; event: string; label: string }
  | { kind: 'always'; event: ''; label: 'always' }
  | { kind: 'after'; event: string; delay: string | number; label: string }
  | { kind: 'actor.done' | 'actor.error' | 'actor.snapshot'; event: string; actor: string; label: string }
  | { kind: 'state.done'; event: string; label: 'done' }

export interface ChartInvoke {
  /** The invoke id (XState generates `<index>.<state id>` when none is given). */
  id: string
  /** The actor's name in `setup({ actors })`, or `inline` for an actor logic written in place. */
  src: string
}

export interface ChartState {
  /** XState state node id, e.g. `appShell.page.ok`. */
  id: string
  key: string
  parentId: string | null
  depth: number
  type: ChartStateType
  history: 'shallow' | 'deep' | null
  /** Ids of the initial child (compound states) or of every region (parallel states). */
  initial: string[]
  /** Default target of a history state, if it has one. */
  historyTarget: string | null
  childIds: string[]
  description: string | null
  /** A line the diagram shows under the state's name (the journey's page and status); none for most machines. */
  note?: string
  tags: string[]
  entry: string[]
  exit: string[]
  invokes: ChartInvoke[]
  /**
   * A sibling the diagram draws this state below, by an invisible edge: split.ts stacks the boxes that stand for
   * states of other diagrams in rows, where Graphviz would put them all side by side.
   */
  drawBelow?: string
}

export interface ChartTransition {
  sourceId: string
  trigger: ChartTrigger
  /** Guard name; `guard` for an anonymous inline function; null when unguarded. */
  guard: string | null
  /** Empty for a targetless transition (handled without leaving the state). */
  targetIds: string[]
  reenter: boolean
  actions: string[]
  /**
   * The transition's numbers in the machine's Transitions table (1-based), set by the generator: a diagram too
   * wide with its labels prints them instead of `event [guard]` and lists them in a legend. Several when an
   * overview draws transitions of inner states as one.
   */
  refs?: number[]
}

/** States an analyst reads as one phase (the journey's `meta.phase`): drawn as a box around them. */
export interface ChartGroup {
  key: string
  description: string
  /** Children of the root, in document order. */
  stateIds: string[]
}

export interface Chart {
  id: string
  /** Document order: each state before its children, children in definition order. */
  states: ChartState[]
  /** Per state in document order: `on`/`after`/invoke results in XState's order, then `always`. */
  transitions: ChartTransition[]
  /** What the page calls the machine, when its id alone would be ambiguous to a reader (an analyst). */
  title?: string
  /** Markdown sections added after the tables (e.g. steps a machine names but never enters). */
  sections?: string[]
  /** Phases the diagrams draw around the root's children (scripts/statecharts/split.ts, `groupedChart`). */
  groups?: ChartGroup[]
}

/** A machine in the sense of XState 5: a StateMachine instance (has a root state node and a config). */
export function isStateMachine(value: unknown): value is AnyStateMachine {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as { root?: unknown; config?: unknown; id?: unknown }
  return (
    typeof candidate.root === 'object' &&
    candidate.root !== null &&
    'states' in candidate.root &&
    typeof candidate.config === 'object' &&
    typeof candidate.id === 'string'
  )
}

// ---------------------------------------------------------------------------------------------
// Naming guards, actions and actors

type Named = { type?: unknown; name?: unknown; guards?: unknown }

/** Stable printable name for a guard: `isX`, `and(a, not(b))`, or `guard` for an inline function. */
export function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null
  if (typeof guard === 'string') return guard
  if (typeof guard === 'function') {
    const fn = guard as Named
    if (Array.isArray(fn.guards) && typeof fn.name === 'string' && ['and', 'or', 'not'].includes(fn.name)) {
      return `${fn.name}(${fn.guards.map((g) => guardName(g) ?? 'guard').join(', ')})`
    }
    return 'guard'
  }
  if (typeof guard === 'object' && typeof (guard as Named).type === 'string')
    return (guard as Named).type as string
  return 'guard'
}

/** Printable action name: `name` for referenced actions, the built-in type (`xstate.assign`...) or `inline`. */
export function actionName(action: unknown): string {
  if (typeof action === 'string') return action
  if (action && (typeof action === 'object' || typeof action === 'function')) {
    const type = (action as Named).type
    if (typeof type === 'string') return type
  }
  return 'inline'
}

const GENERATED_INVOKE_ID = /^\d+\./

function actorName(invoke: { id: string; src: unknown }): string {
  if (typeof invoke.src === 'string' && !invoke.src.startsWith('xstate.invoke.')) return invoke.src
  return GENERATED_INVOKE_ID.test(invoke.id) ? 'inline' : invoke.id
}

// ---------------------------------------------------------------------------------------------
// Walking the machine

function toArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return []
  return Array.isArray(value) ? value : [value]
}

function childrenOf(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[]
}

function historyTargetOf(node: AnyStateNode): string | null {
  const target = (node.config as { target?: unknown }).target
  if (typeof target !== 'string' || !node.parent) return null
  if (target.startsWith('#')) {
    try {
      return node.machine.getStateNodeById(target.slice(1)).id
    } catch {
      return null
    }
  }
  let current: AnyStateNode | undefined = node.parent
  for (const key of target.replace(/^\./, '').split('.'))
    current = current?.states[key] as AnyStateNode | undefined
  return current?.id ?? null
}

function describeState(node: AnyStateNode): ChartState {
  const initialTargets =
    node.type === 'compound'
      ? (node.initial?.target ?? []).map((t: AnyStateNode) => t.id)
      : node.type === 'parallel'
        ? childrenOf(node).map((c) => c.id)
        : []
  return {
    id: node.id,
    key: node.key,
    parentId: node.parent?.id ?? null,
    depth: node.path.length,
    type: node.type,
    history: node.type === 'history' ? (node.history === 'deep' ? 'deep' : 'shallow') : null,
    initial: initialTargets,
    historyTarget: node.type === 'history' ? historyTargetOf(node) : null,
    childIds: childrenOf(node).map((c) => c.id),
    description: node.description ?? null,
    tags: [...node.tags],
    // From the config: node.entry/exit also hold the raise/cancel actions XState adds for `after`.
    entry: toArray(node.config.entry).map(actionName),
    exit: toArray(node.config.exit).map(actionName),
    invokes: node.invoke.map((inv) => ({ id: inv.id, src: actorName(inv) })),
  }
}

function triggerOf(node: AnyStateNode, eventType: string): ChartTrigger {
  const delayed = node.after.find((a) => a.eventType === eventType)
  if (delayed) {
    const delay = delayed.delay as string | number
    return { kind: 'after', event: eventType, delay, label: `after ${formatDelay(delay)}` }
  }
  const actorEvent = /^xstate\.(?:(done|error)\.actor|(snapshot))\.(.+)$/.exec(eventType)
  if (actorEvent) {
    const what = (actorEvent[1] ?? actorEvent[2]) as 'done' | 'error' | 'snapshot'
    const invoke = node.invoke.find((inv) => inv.id === actorEvent[3])
    if (invoke) {
      const actor = actorName(invoke)
      return { kind: `actor.${what}`, event: eventType, actor, label: `${what}: ${actor}` }
    }
  }
  if (eventType.startsWith('xstate.done.state.'))
    return { kind: 'state.done', event: eventType, label: 'done' }
  return { kind: 'event', event: eventType, label: eventType }
}

export function formatDelay(delay: string | number): string {
  return typeof delay === 'number' ? `${delay}ms` : delay
}

function describeTransition(
  node: AnyStateNode,
  trigger: ChartTrigger,
  t: AnyTransitionDefinition,
): ChartTransition {
  return {
    sourceId: node.id,
    trigger,
    guard: guardName(t.guard),
    targetIds: (t.target ?? []).map((target: AnyStateNode) => target.id),
    reenter: Boolean(t.reenter),
    actions: (t.actions ?? []).map(actionName),
  }
}

/** Walk `machine.root` into a chart model with a stable (document) order. */
export function describeMachine(machine: AnyStateMachine): Chart {
  const states: ChartState[] = []
  const transitions: ChartTransition[] = []
  const visit = (node: AnyStateNode) => {
    states.push(describeState(node))
    for (const [eventType, definitions] of node.transitions) {
      const trigger = triggerOf(node, eventType)
      for (const t of definitions) transitions.push(describeTransition(node, trigger, t))
    }
    for (const t of node.always ?? []) {
      transitions.push(describeTransition(node, { kind: 'always', event: '', label: 'always' }, t))
    }
    for (const child of childrenOf(node)) visit(child)
  }
  visit(machine.root)
  return { id: machine.root.id, states, transitions }
}

/** `event [guard]`, plus `(reenter)` or `(targetless)` where that changes what happens. */
export function transitionLabel(t: ChartTransition): string {
  const parts = [t.trigger.label]
  if (t.guard) parts.push(`[${t.guard}]`)
  if (t.targetIds.length === 0) parts.push('(targetless)')
  else if (t.reenter) parts.push('(reenter)')
  return parts.join(' ')
}

// ---------------------------------------------------------------------------------------------
// Layout helpers shared by Mermaid and smcat

function stateIndex(chart: Chart): Map<string, ChartState> {
  return new Map(chart.states.map((s) => [s.id, s]))
}

function ancestorsOrSelf(index: Map<string, ChartState>, id: string): ChartState[] {
  const chain: ChartState[] = []
  for (let s = index.get(id); s; s = s.parentId ? index.get(s.parentId) : undefined) chain.push(s)
  return chain
}

/**
 * The state whose block an edge is written in: the nearest common ancestor of source and target
 * (the parent when one contains the other), moved out of parallel states, because in both Mermaid
 * and smcat the content of a parallel state is its regions only. null means the top level.
 */
function edgeContainer(index: Map<string, ChartState>, sourceId: string, targetId: string): string | null {
  const targetChain = new Set(ancestorsOrSelf(index, targetId).map((s) => s.id))
  const sourceChain = ancestorsOrSelf(index, sourceId)
  let common = sourceChain.find((s) => targetChain.has(s.id)) ?? null
  if (common && (common.id === sourceId || common.id === targetId)) {
    common = common.parentId ? (index.get(common.parentId) ?? null) : null
  }
  while (common && common.type === 'parallel')
    common = common.parentId ? (index.get(common.parentId) ?? null) : null
  return common?.id ?? null
}

interface Edge {
  from: string
  to: string
  transition: ChartTransition
}

function edgesByContainer(chart: Chart): Map<string | null, Edge[]> {
  const index = stateIndex(chart)
  const result = new Map<string | null, Edge[]>()
  for (const t of chart.transitions) {
    const targets = t.targetIds.length > 0 ? t.targetIds : [t.sourceId]
    for (const to of targets) {
      const container = edgeContainer(index, t.sourceId, to)
      const list = result.get(container) ?? []
      list.push({ from: t.sourceId, to, transition: t })
      result.set(container, list)
    }
  }
  return result
}

function stateLabel(s: ChartState): string {
  if (s.type === 'history') return `${s.key} (${s.history === 'deep' ? 'deep history' : 'history'})`
  return s.note ? `${s.key} · ${s.note}` : s.key
}

// ---------------------------------------------------------------------------------------------
// Mermaid

/**
 * Mermaid ids may not contain `-`, `:`, spaces or `{`; dots break CSS selectors in the SVG.
 * Every character outside [A-Za-z0-9_] becomes `_`; a collision is an error, never a silent merge.
 */
export function mermaidIds(chart: Chart): Map<string, string> {
  const ids = new Map<string, string>()
  const taken = new Map<string, string>()
  for (const s of chart.states) {
    const id = s.id.replace(/[^A-Za-z0-9_]/g, '_')
    const other = taken.get(id)
    if (other) throw new Error(`States "${other}" and "${s.id}" both map to the Mermaid id "${id}"`)
    taken.set(id, s.id)
    ids.set(s.id, id)
  }
  return ids
}

/**
 * Mermaid reads a transition label up to the next `:` or `;`, and treats `#name;` as an entity.
 * Its own entity codes (`#58;` for `:`) survive parsing and render as the character.
 */
export function escapeMermaidLabel(text: string): string {
  return text.replace(/[#:;]/g, (c) => MERMAID_ENTITIES[c] as string)
}

function escapeMermaidState(text: string): string {
  return text.replace(/[#"]/g, (c) => MERMAID_ENTITIES[c] as string)
}

const MERMAID_ENTITIES: Record<string, string> = { '#': '#35;', ':': '#58;', ';': '#59;', '"': '#quot;' }

export function toMermaid(chart: Chart): string {
  const index = stateIndex(chart)
  const ids = mermaidIds(chart)
  const edges = edgesByContainer(chart)
  const id = (stateId: string) => ids.get(stateId) as string
  const lines: string[] = ['stateDiagram-v2']
  const pad = (depth: number) => '  '.repeat(depth)

  const writeEdges = (container: string | null, depth: number) => {
    for (const e of edges.get(container) ?? []) {
      lines.push(
        `${pad(depth)}${id(e.from)} --> ${id(e.to)} : ${escapeMermaidLabel(transitionLabel(e.transition))}`,
      )
    }
  }

  const writeState = (s: ChartState, depth: number) => {
    const label = escapeMermaidState(stateLabel(s))
    if (s.childIds.length === 0) {
      lines.push(`${pad(depth)}state "${label}" as ${id(s.id)}`)
      return
    }
    lines.push(`${pad(depth)}state "${label}" as ${id(s.id)} {`)
    const children = s.childIds.map((c) => index.get(c) as ChartState)
    if (s.type === 'parallel') {
      children.forEach((child, i) => {
        if (i > 0) lines.push(`${pad(depth + 1)}--`)
        writeState(child, depth + 1)
      })
    } else {
      for (const initial of s.initial) lines.push(`${pad(depth + 1)}[*] --> ${id(initial)}`)
      for (const child of children) writeState(child, depth + 1)
      for (const child of children) {
        if (child.type === 'final') lines.push(`${pad(depth + 1)}${id(child.id)} --> [*]`)
        if (child.historyTarget) lines.push(`${pad(depth + 1)}${id(child.id)} --> ${id(child.historyTarget)}`)
      }
      writeEdges(s.id, depth + 1)
    }
    lines.push(`${pad(depth)}}`)
  }

  const root = chart.states[0] as ChartState
  lines.push(`  [*] --> ${id(root.id)}`)
  writeState(root, 1)
  writeEdges(null, 1)
  return `${lines.join('\n')}\n`
}

// ---------------------------------------------------------------------------------------------
// Markdown page

export interface MarkdownOptions {
  /** Repository-relative path of the machine file, e.g. `machines/app-shell.machine.ts`. */
  sourceFile: string
  exportName: string
  /** File name of the SVG next to the Markdown file (the overview, when the machine is split). */
  svgFile: string
  /** A split machine's diagrams of its top-level compound states or phases (scripts/statecharts/split.ts). */
  partSvgFiles?: { file: string; state: string; phase?: boolean }[]
  /**
   * Some diagram of the machine prints the transitions' numbers instead of their labels (it was too wide with
   * them): the Transitions table gets a `#` column with those numbers.
   */
  numbered?: boolean
}

export const GENERATED_MARKER = 'Generated by `npm run statecharts`'

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function code(text: string): string {
  return `\`${text}\``
}

function list(values: string[], empty = ''): string {
  return values.length ? values.map(code).join(', ') : empty
}

/**
 * For a product analyst, before the diagram: every state in the order the machine lists it, what it shows (the
 * journey's page, the loan's status), what it means (the machine's description) and where it leads, in words.
 * Only for machines whose states are described; the rest keep the technical page alone.
 */
function plainWords(chart: Chart): string[] {
  const described = chart.states.filter((s) => s.parentId !== null && s.description)
  if (described.length === 0) return []
  const keyOf = new Map(chart.states.map((s) => [s.id, s.key]))
  const out = ['## The states in plain words', '']
  const describe = (s: ChartState) => {
    const shows = s.note ? ` (${s.note})` : ''
    out.push(`- **${s.key}**${shows}: ${s.description ?? 'not described yet.'}`)
    const next = chart.transitions
      .filter((t) => t.sourceId === s.id && t.targetIds.length > 0 && !t.targetIds.includes(s.id))
      .map((t) => `${t.trigger.label} → ${t.targetIds.map((id) => keyOf.get(id) ?? id).join(', ')}`)
    if (next.length) out.push(`  Leads to: ${[...new Set(next)].join('; ')}.`)
  }
  const groups = chart.groups ?? []
  const index = stateIndex(chart)
  // A state belongs to the group of its top-level ancestor (the root's child it is or is inside).
  const groupOf = (s: ChartState) => {
    const top = ancestorsOrSelf(index, s.id).find((a) => a.parentId === chart.states[0]?.id)
    return groups.find((g) => top && g.stateIds.includes(top.id))
  }
  for (const group of groups) {
    out.push(`### Phase ${code(group.key)}`, '', group.description, '')
    for (const s of chart.states) if (s.parentId !== null && groupOf(s) === group) describe(s)
    out.push('')
  }
  const rest = chart.states.filter((s) => s.parentId !== null && !groupOf(s))
  if (groups.length && rest.length) out.push('### Other states', '')
  for (const s of rest) describe(s)
  if (!groups.length || rest.length) out.push('')
  return out
}

export function toMarkdown(chart: Chart, options: MarkdownOptions): string {
  const stateName = (id: string) => code(id)
  const out: string[] = []
  out.push(chart.title ? `# Statechart: ${chart.title} (${code(chart.id)})` : `# Statechart: ${chart.id}`)
  out.push('')
  out.push(
    `${GENERATED_MARKER} from ${code(options.exportName)} in ${code(options.sourceFile)}. ` +
      'Do not edit this file or the SVG beside it by hand: change the machine, then run ' +
      '`npm run statecharts`. `npm test` fails while they are out of date. ' +
      'Labels read `event [guard]`; `(reenter)` leaves and re-enters the state (restarting its timers ' +
      'and actors); `(targetless)` handles the event without leaving the state; ' +
      '`after X` fires once delay X has passed since the state was entered; `done: X` / `error: X` are ' +
      'the result of invoked actor X.' +
      (options.numbered
        ? ' A diagram too wide for a screen with these labels prints the number of each transition (the `#` ' +
          'column of the Transitions table) on its edges instead, and lists them under the drawing.'
        : ''),
  )
  out.push('')
  out.push(...plainWords(chart))
  out.push('```mermaid')
  out.push(toMermaid(chart).trimEnd())
  out.push('```')
  out.push('')
  const parts = options.partSvgFiles ?? []
  if (parts.length === 0)
    out.push(`Rendered offline with state-machine-cat: [${options.svgFile}](./${options.svgFile}).`)
  else {
    const what = parts.some((p) => p.phase) ? 'phases' : 'states'
    out.push(
      `Rendered offline with state-machine-cat, in parts so that none is wider than a screen: the overview ` +
        `[${options.svgFile}](./${options.svgFile}) draws each of these ${what} as one box, and each has its own ` +
        'diagram, where a box `→ X` (outside this diagram) stands for state X of another part:',
    )
    out.push('')
    for (const part of parts)
      out.push(
        `- ${part.phase ? `phase ${code(part.state.slice(part.state.lastIndexOf('.') + 1))}` : code(part.state)}: [${part.file}](./${part.file})`,
      )
  }
  out.push('')

  out.push('## States')
  out.push('')
  // Only a machine whose states carry notes gets the column: every other page stays as it was.
  const noted = chart.states.some((s) => s.note)
  out.push(
    `| State | Type | Initial | Invokes | Entry | Exit | Tags |${noted ? ' Shows |' : ''} Description |`,
  )
  out.push(`| --- | --- | --- | --- | --- | --- | --- |${noted ? ' --- |' : ''} --- |`)
  for (const s of chart.states) {
    const type = s.type === 'history' ? `${s.history} history` : s.type
    const initial = s.type === 'compound' ? s.initial.map(stateName).join(', ') : ''
    const invokes = s.invokes.map((i) => code(i.src)).join(', ')
    const note = noted ? ` ${cell(s.note ?? '')} |` : ''
    out.push(
      `| ${stateName(s.id)} | ${type} | ${initial} | ${invokes} | ${list(s.entry)} | ${list(s.exit)} | ${list(s.tags)} |${note} ${cell(s.description ?? '')} |`,
    )
  }
  out.push('')

  out.push('## Transitions')
  out.push('')
  const number = (t: ChartTransition, i: number) =>
    options.numbered ? `| ${t.refs?.join(', ') ?? i + 1} ` : ''
  out.push(`${options.numbered ? '| # ' : ''}| Source | Event | Guard | Target | Actions |`)
  out.push(`${options.numbered ? '| --- ' : ''}| --- | --- | --- | --- | --- |`)
  for (const [i, t] of chart.transitions.entries()) {
    const event = t.trigger.kind === 'event' ? code(t.trigger.event) : cell(t.trigger.label)
    const target =
      t.targetIds.length === 0
        ? '(stays, targetless)'
        : t.targetIds.map(stateName).join(', ') + (t.reenter ? ' (reenter)' : '')
    out.push(
      `${number(t, i)}| ${stateName(t.sourceId)} | ${event} | ${t.guard ? code(t.guard) : ''} | ${target} | ${list(t.actions)} |`,
    )
  }
  out.push('')

  out.push('## Invoked actors')
  out.push('')
  const invoking = chart.states.filter((s) => s.invokes.length > 0)
  if (invoking.length === 0) {
    out.push('None: this machine invokes no actors.')
  } else {
    out.push('| State | Actor | Invoke id | On done | On error |')
    out.push('| --- | --- | --- | --- | --- |')
    for (const s of invoking) {
      for (const inv of s.invokes) {
        const outcome = (kind: 'actor.done' | 'actor.error') =>
          chart.transitions
            .filter(
              (t) => t.sourceId === s.id && t.trigger.kind === kind && t.trigger.event.endsWith(`.${inv.id}`),
            )
            .map((t) => (t.targetIds.length ? t.targetIds.map(stateName).join(', ') : '(stays)'))
            .join(', ')
        out.push(
          `| ${stateName(s.id)} | ${code(inv.src)} | ${code(inv.id)} | ${outcome('actor.done')} | ${outcome('actor.error')} |`,
        )
      }
    }
  }
  out.push('')
  for (const section of chart.sections ?? []) out.push(section.trimEnd(), '')
  return out.join('\n')
}

// ---------------------------------------------------------------------------------------------
// state-machine-cat AST (its `json` input type)

export interface SmcatState {
  name: string
  type: 'regular' | 'initial' | 'final' | 'parallel' | 'history' | 'deephistory'
  label?: string
  typeExplicitlySet?: boolean
  actions?: { type: 'activity' | 'entry' | 'exit'; body: string }[]
  statemachine?: SmcatMachine
}

export interface SmcatTransition {
  id: number
  from: string
  to: string
  label?: string
  event?: string
  cond?: string
  type?: 'internal' | 'external'
  color?: string
  class?: string
}

export interface SmcatMachine {
  states: SmcatState[]
  transitions?: SmcatTransition[]
}

/**
 * The same walk as the Mermaid diagram, as state-machine-cat's AST. State names are XState ids
 * (unique in the machine); labels are the keys. Initial pseudo-states are named `<parent id>:initial` (`:initial` at the top).
 */
export interface SmcatOptions {
  /** Print each edge's transition numbers (`refs`) instead of `event [guard]`: for a diagram too wide otherwise. */
  numbered?: boolean
}

/** The longest line a state's note takes in the diagram, in characters: longer notes wrap at spaces. */
export const NOTE_LINE_CHARS = 40

/**
 * `text` in lines of at most `max` characters, broken at spaces (a longer word keeps its own line); a line break
 * in `text` always starts a new line.
 */
export function wrapText(text: string, max = NOTE_LINE_CHARS): string[] {
  return text.split('\n').flatMap((paragraph) => {
    const lines: string[] = []
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const last = lines.at(-1)
      if (last !== undefined && last.length + 1 + word.length <= max)
        lines[lines.length - 1] = `${last} ${word}`
      else lines.push(word)
    }
    return lines
  })
}

/** An edge's label in a numbered diagram: its transitions' numbers, four to a line. */
function refsLabel(edges: Edge[]): string {
  const refs = [...new Set(edges.flatMap((e) => e.transition.refs ?? []))]
  const lines: string[] = []
  for (let i = 0; i < refs.length; i += 4) lines.push(refs.slice(i, i + 4).join(', '))
  return lines.join('\n')
}

export function toSmcatAst(chart: Chart, options: SmcatOptions = {}): SmcatMachine {
  const index = stateIndex(chart)
  const edges = edgesByContainer(chart)
  let nextId = 1
  const initialName = (id: string | null) => (id === null ? ':initial' : `${id}:initial`)

  const transitionsIn = (container: string | null, initialTargets: string[]): SmcatTransition[] => {
    const result: SmcatTransition[] = initialTargets.map((to) => ({
      id: nextId++,
      from: initialName(container),
      to,
    }))
    for (const s of container === null ? [] : (index.get(container)?.childIds ?? [])) {
      const child = index.get(s) as ChartState
      if (child.historyTarget) result.push({ id: nextId++, from: child.id, to: child.historyTarget })
    }
    // Transparent, unlabelled: it only puts a state a rank below its sibling.
    for (const s of chart.states)
      if (s.drawBelow && edgeContainer(index, s.drawBelow, s.id) === container)
        result.push({ id: nextId++, from: s.drawBelow, to: s.id, color: '#FFFFFF00', class: 'layout' })
    // Graphviz stacks the labels of parallel edges (self-loops worst of all) on top of each other:
    // edges with the same source and target become one edge with one label line per transition.
    const groups = new Map<string, Edge[]>()
    for (const e of edges.get(container) ?? []) {
      const key = JSON.stringify([e.from, e.to])
      groups.set(key, [...(groups.get(key) ?? []), e])
    }
    for (const group of groups.values()) {
      const [first] = group as [Edge, ...Edge[]]
      const t = first.transition
      const single = group.length === 1
      result.push({
        id: nextId++,
        from: first.from,
        to: first.to,
        label: options.numbered
          ? refsLabel(group)
          : group.map((e) => transitionLabel(e.transition)).join('\n'),
        ...(single ? { event: t.trigger.label } : {}),
        ...(single && t.guard ? { cond: t.guard } : {}),
        ...(group.every((e) => e.transition.targetIds.length === 0) ? { type: 'internal' as const } : {}),
      })
    }
    return result
  }

  const smcatState = (s: ChartState): SmcatState => {
    const type: SmcatState['type'] =
      s.type === 'parallel'
        ? 'parallel'
        : s.type === 'final'
          ? 'final'
          : s.type === 'history'
            ? s.history === 'deep'
              ? 'deephistory'
              : 'history'
            : 'regular'
    // smcat escapes a state's label into an HTML-like table cell, where a line break is lost: the note goes in
    // rows of its own under the name (as its activities do), wrapped so that a long page keeps the box narrow.
    const state: SmcatState = { name: s.id, type, label: s.key, typeExplicitlySet: true }
    const actions = [
      ...wrapText(s.note ?? '').map((body) => ({ type: 'activity' as const, body })),
      ...s.invokes.map((inv) => ({ type: 'activity' as const, body: `invoke ${inv.src}` })),
    ]
    if (actions.length) state.actions = actions
    if (s.childIds.length) {
      const children = s.childIds.map((c) => smcatState(index.get(c) as ChartState))
      if (s.type === 'parallel') {
        state.statemachine = { states: children }
      } else {
        const pseudo: SmcatState[] = s.initial.length
          ? [{ name: initialName(s.id), type: 'initial', typeExplicitlySet: true }]
          : []
        state.statemachine = { states: [...pseudo, ...children], transitions: transitionsIn(s.id, s.initial) }
      }
    }
    return state
  }

  const root = chart.states[0] as ChartState
  const rootState = smcatState(root)
  return {
    states: [{ name: initialName(null), type: 'initial', typeExplicitlySet: true }, rootState],
    transitions: transitionsIn(null, [root.id]),
  }
}
