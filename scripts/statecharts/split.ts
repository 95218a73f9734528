/**
 * Diagrams a reader can read without scrolling sideways (issue 20 item 5): a machine whose full diagram is wider
 * than `MAX_DIAGRAM_WIDTH_PT` is drawn as an overview, where each top-level compound or parallel state is one box,
 * plus one diagram per such state with its inner states. A transition that leaves the focused state ends on a
 * small box naming its target, so no edge is lost without a word. The Markdown tables keep the whole machine.
 */
import type { Chart, ChartState, ChartTransition } from './render'

/** About 1 100 CSS pixels: a laptop screen at 100 % zoom, with the page's margins. */
export const MAX_DIAGRAM_WIDTH_PT = 820

/** The width an SVG from state-machine-cat declares (`width="857pt"`), in points; 0 when it declares none. */
export function svgWidthPt(svg: string): number {
  const match = /<svg[^>]*\swidth="([\d.]+)pt"/.exec(svg)
  return match ? Number(match[1]) : 0
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
          ? { ...s, type: 'atomic', childIds: [], initial: [], invokes: [], note: note(s) }
          : s,
    )
  const seen = new Set<string>()
  const transitions: ChartTransition[] = []
  for (const t of chart.transitions) {
    const sourceId = top.get(t.sourceId) ?? t.sourceId
    const targetIds = t.targetIds.map((id) => top.get(id) ?? id)
    // A move between two inner states of one box is that box's own diagram's business.
    const inner = t.sourceId !== sourceId && targetIds.length > 0 && targetIds.every((id) => id === sourceId)
    if (inner) continue
    const key = JSON.stringify([sourceId, t.trigger.label, t.guard, targetIds])
    if (seen.has(key)) continue
    seen.add(key)
    transitions.push({ ...t, sourceId, targetIds })
  }
  return { ...chart, states, transitions }
}

/** One top-level compound state with everything inside it; transitions that leave it end on a named stub. */
export function focusChart(chart: Chart, focusId: string): Chart {
  const inside = descendantsOf(chart, focusId)
  const byId = new Map(chart.states.map((s) => [s.id, s]))
  const focus = byId.get(focusId) as ChartState
  const stubs = new Map<string, ChartState>()
  const stubFor = (targetId: string): string => {
    const existing = stubs.get(targetId)
    if (existing) return existing.id
    const target = byId.get(targetId)
    const stub: ChartState = {
      id: `${focusId}.→${targetId}`,
      key: `→ ${target?.key ?? targetId}`,
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
  const states = [
    { ...focus, parentId: null, childIds: [...focus.childIds, ...[...stubs.values()].map((s) => s.id)] },
    ...chart.states.filter((s) => inside.has(s.id)),
    ...stubs.values(),
  ]
  return { ...chart, id: focusId, states, transitions }
}
