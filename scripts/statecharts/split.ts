/**
 * Diagrams a reader can read without scrolling sideways (issue 20 item 5): a machine whose full diagram is wider
 * than `MAX_DIAGRAM_WIDTH_PT` is drawn as an overview, where each top-level compound or parallel state is one box,
 * plus one diagram per such state with its inner states. A transition that leaves the focused state ends on a
 * small box naming its target, so no edge is lost without a word. The Markdown tables keep the whole machine.
 *
 * A flat machine whose states the annotations group into phases (the journey) is drawn with each phase as a
 * compound state around its steps (`groupedChart`), so it splits the same way: an overview of the phases and one
 * diagram per phase. The grouping is a drawing aid; the machine and its Markdown tables keep their own states.
 */
import type { Chart, ChartState, ChartTransition } from './render'

/** About 1 100 CSS pixels: a laptop screen at 100 % zoom, with the page's margins. */
export const MAX_DIAGRAM_WIDTH_PT = 820

/** How many boxes standing for other diagrams' states a part may put side by side: all, then fewer. */
export function stubRowOptions(chart: Chart, focusId: string): (number | undefined)[] {
  const inside = descendantsOf(chart, focusId)
  const targets = new Set(
    chart.transitions
      .filter((t) => t.sourceId === focusId || inside.has(t.sourceId))
      .flatMap((t) => t.targetIds)
      .filter((id) => id !== focusId && !inside.has(id)),
  )
  return [undefined, 4, 3, 2, 1].filter((n) => n === undefined || n < targets.size)
}

/** The width an SVG from state-machine-cat declares (`width="857pt"`), in points; 0 when it declares none. */
export function svgWidthPt(svg: string): number {
  const match = /<svg[^>]*\swidth="([\d.]+)pt"/.exec(svg)
  return match ? Number(match[1]) : 0
}

/**
 * The chart with each of its groups drawn as a compound state around the root's children it names: its id is
 * `<root id>.<group key>` (its key, the group's key, names its diagram), its initial state the machine's initial
 * state when that is one of them. Transitions are untouched: they still run between the states themselves.
 */
export function groupedChart(chart: Chart): Chart {
  const groups = chart.groups ?? []
  if (groups.length === 0) return chart
  const root = chart.states[0] as ChartState
  const byId = new Map(chart.states.map((s) => [s.id, s]))
  const groupOfChild = new Map<string, string>()
  const groupStates = groups.map((g): ChartState => {
    const id = `${root.id}.${g.key}`
    if (byId.has(id)) throw new Error(`Group "${g.key}" has the id of a state: ${id}`)
    for (const child of g.stateIds) {
      if (byId.get(child)?.parentId !== root.id)
        throw new Error(`Group "${g.key}": ${child} is no child of the root`)
      if (groupOfChild.has(child)) throw new Error(`${child} is in two groups`)
      groupOfChild.set(child, id)
    }
    return {
      id,
      key: g.key,
      parentId: root.id,
      depth: root.depth + 1,
      type: 'compound',
      history: null,
      initial: root.initial.filter((i) => g.stateIds.includes(i)),
      historyTarget: null,
      childIds: [...g.stateIds],
      description: g.description,
      note: g.description,
      tags: [],
      entry: [],
      exit: [],
      invokes: [],
    }
  })
  // Everything under a grouped child moves one level down.
  const depthShift = new Map<string, number>()
  for (const s of chart.states) {
    const parentShift = s.parentId ? (depthShift.get(s.parentId) ?? 0) : 0
    depthShift.set(s.id, groupOfChild.has(s.id) ? 1 : parentShift)
  }
  const ungrouped = root.childIds.filter((c) => !groupOfChild.has(c))
  const newRoot: ChartState = {
    ...root,
    childIds: [...groupStates.map((g) => g.id), ...ungrouped],
    initial: root.initial.map((i) => groupOfChild.get(i) ?? i),
  }
  const states: ChartState[] = [newRoot]
  for (const g of groupStates) {
    states.push(g)
    const inside = new Set(g.childIds.flatMap((child) => [child, ...descendantsOf(chart, child)]))
    for (const s of chart.states)
      if (inside.has(s.id))
        states.push({
          ...s,
          parentId: groupOfChild.get(s.id) ?? s.parentId,
          depth: s.depth + (depthShift.get(s.id) ?? 0),
        })
  }
  const placed = new Set(states.map((s) => s.id))
  for (const s of chart.states) if (!placed.has(s.id)) states.push(s)
  return { ...chart, states }
}

/** The root's children that hold states of their own: each gets a diagram when the machine is split. */
export function splittableStates(chart: Chart): ChartState[] {
  const root = chart.states[0]
  return chart.states.filter((s) => s.parentId === root?.id && s.childIds.length > 0)
}

/** Every state id inside `id` (not `id` itself). */
function descendantsOf(chart: Chart, id: string): Set<string> {
  const inside = new Set<string>()
  const byId = new Map(chart.states.map((s) => [s.id, s]))
  const walk = (stateId: string) => {
    for (const child of byId.get(stateId)?.childIds ?? []) {
      inside.add(child)
      walk(child)
    }
  }
  walk(id)
  return inside
}

/** The overview: the root and its children, each compound child drawn as one box that says it has a diagram. */
export function overviewChart(chart: Chart, note: (state: ChartState) => string): Chart {
  const root = chart.states[0] as ChartState
  const top = new Map<string, string>()
  for (const child of chart.states.filter((s) => s.parentId === root.id)) {
    top.set(child.id, child.id)
    for (const inner of descendantsOf(chart, child.id)) top.set(inner, child.id)
  }
  const states = chart.states
    .filter((s) => s.id === root.id || s.parentId === root.id)
    .map(
      (s): ChartState =>
        s.childIds.length > 0 && s.id !== root.id
          ? {
              ...s,
              type: 'atomic',
              childIds: [],
              initial: [],
              invokes: [],
              note: [s.note, note(s)].filter(Boolean).join('\n'),
            }
          : s,
    )
  // Transitions that look the same once inner states are their box are drawn once, with all their numbers.
  const seen = new Map<string, ChartTransition>()
  const transitions: ChartTransition[] = []
  for (const t of chart.transitions) {
    const sourceId = top.get(t.sourceId) ?? t.sourceId
    const targetIds = t.targetIds.map((id) => top.get(id) ?? id)
    // A move between two inner states of one box is that box's own diagram's business.
    const inner = t.sourceId !== sourceId && targetIds.length > 0 && targetIds.every((id) => id === sourceId)
    if (inner) continue
    const key = JSON.stringify([sourceId, t.trigger.label, t.guard, targetIds])
    const same = seen.get(key)
    if (same) {
      same.refs = [...(same.refs ?? []), ...(t.refs ?? [])]
      continue
    }
    const drawn = { ...t, sourceId, targetIds }
    seen.set(key, drawn)
    transitions.push(drawn)
  }
  return { ...chart, states, transitions }
}

/**
 * One top-level compound state with everything inside it; transitions that leave it end on a named stub. With
 * `stubsPerRow`, the stubs stand in rows of that many (Graphviz puts them side by side, all on one rank).
 */
export function focusChart(chart: Chart, focusId: string, stubsPerRow?: number): Chart {
  const inside = descendantsOf(chart, focusId)
  const byId = new Map(chart.states.map((s) => [s.id, s]))
  const focus = byId.get(focusId) as ChartState
  const stubs = new Map<string, ChartState>()
  const root = chart.states[0] as ChartState
  // The target's path under the root (`on_hold › scheduled`): a key alone may name states in two places.
  const pathOf = (id: string): string => {
    const s = byId.get(id)
    if (!s || s.id === root.id) return ''
    const parent = s.parentId ? pathOf(s.parentId) : ''
    return parent ? `${parent} › ${s.key}` : s.key
  }
  const stubFor = (targetId: string): string => {
    const existing = stubs.get(targetId)
    if (existing) return existing.id
    const stub: ChartState = {
      id: `${focusId}.→${targetId}`,
      key: `→ ${pathOf(targetId) || targetId}`,
      parentId: focusId,
      depth: focus.depth + 1,
      type: 'atomic',
      history: null,
      initial: [],
      historyTarget: null,
      childIds: [],
      description: null,
      note: 'outside this diagram',
      tags: [],
      entry: [],
      exit: [],
      invokes: [],
    }
    stubs.set(targetId, stub)
    return stub.id
  }
  const within = (id: string) => id === focusId || inside.has(id)
  const transitions = chart.transitions
    .filter((t) => within(t.sourceId))
    .map((t) => ({ ...t, targetIds: t.targetIds.map((id) => (within(id) ? id : stubFor(id))) }))
  const stubList = [...stubs.values()]
  if (stubsPerRow)
    stubList.forEach((stub, i) => {
      if (i >= stubsPerRow) stub.drawBelow = (stubList[i - stubsPerRow] as ChartState).id
    })
  const states = [
    { ...focus, parentId: null, childIds: [...focus.childIds, ...stubList.map((s) => s.id)] },
    ...chart.states.filter((s) => inside.has(s.id)),
    ...stubList,
  ]
  return { ...chart, id: focusId, states, transitions }
}
