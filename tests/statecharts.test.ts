import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fromPromise, setup } from 'xstate'
import { checkStatecharts, findTooWide, normalizeSvg, OUTPUT_DIR } from '../scripts/statecharts/generate'
import { legendEntries, textWidthPt, withLegend } from '../scripts/statecharts/legend'
import {
  type Chart,
  describeMachine,
  escapeMermaidLabel,
  guardName,
  isStateMachine,
  toMarkdown,
  toMermaid,
  toSmcatAst,
  wrapText,
} from '../scripts/statecharts/render'
import {
  focusChart,
  groupedChart,
  MAX_DIAGRAM_WIDTH_PT,
  overviewChart,
  svgWidthPt,
} from '../scripts/statecharts/split'

describe('committed statecharts', () => {
  it('match what the machines generate', async () => {
    const { machines, stale, orphaned } = await checkStatecharts()
    expect(machines.length).toBeGreaterThan(0)
    const problems = [...stale.map((f) => `out of date: ${f}`), ...orphaned.map((f) => `orphaned: ${f}`)]
    expect(problems, `Statecharts are stale, run npm run statecharts:\n${problems.join('\n')}`).toEqual([])
  })

  it(`are each at most ${MAX_DIAGRAM_WIDTH_PT}pt wide, so none needs scrolling sideways (issue 20 item 5)`, async () => {
    const tooWide = await findTooWide()
    expect(tooWide, tooWide.map((w) => `${w.file}: ${w.widthPt}pt`).join('\n')).toEqual([])
  })
})

describe('findTooWide', () => {
  it('names every SVG of docs/statecharts wider than a screen', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'statecharts-'))
    try {
      await mkdir(path.join(root, OUTPUT_DIR), { recursive: true })
      const svg = (width: number) =>
        `<svg width="${width}pt" height="100pt"\n viewBox="0.00 0.00 ${width}.00 100.00"></svg>\n`
      await writeFile(path.join(root, OUTPUT_DIR, 'narrow.svg'), svg(MAX_DIAGRAM_WIDTH_PT))
      await writeFile(path.join(root, OUTPUT_DIR, 'wide.svg'), svg(MAX_DIAGRAM_WIDTH_PT + 1))
      expect(await findTooWide(root)).toEqual([
        { file: `${OUTPUT_DIR}/wide.svg`, widthPt: MAX_DIAGRAM_WIDTH_PT + 1 },
      ])
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

/** Every feature the renderer must draw, in one small machine. */
const tinyMachine = setup({
  actors: { fetchUser: fromPromise(async () => 'user') },
  guards: { isReady: () => true },
  delays: { retryDelay: 250 },
}).createMachine({
  id: 'tiny',
  initial: 'idle',
  states: {
    idle: {
      on: { start: { guard: 'isReady', target: 'loading' } },
      after: { 1000: 'timedOut' },
    },
    loading: { invoke: { src: 'fetchUser', onDone: 'ready', onError: 'failed' } },
    failed: { after: { retryDelay: 'loading' } },
    timedOut: { always: { guard: ({ context }) => context === undefined, target: 'ready' } },
    ready: {
      type: 'parallel',
      on: { refresh: { target: 'ready', reenter: true }, ping: {} },
      states: {
        left: {
          initial: 'a',
          states: { a: { on: { next: 'b' } }, b: { type: 'final' } },
        },
        right: { initial: 'c', states: { c: {} } },
      },
    },
  },
})

describe('toMermaid', () => {
  const mermaid = toMermaid(describeMachine(tinyMachine))
  const lines = mermaid.split('\n')

  it.each([
    ['diagram header', 'stateDiagram-v2'],
    ['root initial', '  [*] --> tiny'],
    ['root composite', '  state "tiny" as tiny {'],
    ['initial child', '    [*] --> tiny_idle'],
    ['guarded transition', '    tiny_idle --> tiny_loading : start [isReady]'],
    ['after with milliseconds', '    tiny_idle --> tiny_timedOut : after 1000ms'],
    ['after with a named delay', '    tiny_failed --> tiny_loading : after retryDelay'],
    ['invoke onDone', '    tiny_loading --> tiny_ready : done#58; fetchUser'],
    ['invoke onError', '    tiny_loading --> tiny_failed : error#58; fetchUser'],
    ['always with an inline guard', '    tiny_timedOut --> tiny_ready : always [guard]'],
    ['parallel state', '    state "ready" as tiny_ready {'],
    ['first region', '      state "left" as tiny_ready_left {'],
    ['region separator', '      --'],
    ['second region', '      state "right" as tiny_ready_right {'],
    ['nested initial', '        [*] --> tiny_ready_left_a'],
    ['nested transition', '        tiny_ready_left_a --> tiny_ready_left_b : next'],
    ['final state', '        tiny_ready_left_b --> [*]'],
    ['reenter self-transition', '    tiny_ready --> tiny_ready : refresh (reenter)'],
    ['targetless transition', '    tiny_ready --> tiny_ready : ping (targetless)'],
  ])('draws the %s', (_name, line) => {
    expect(lines).toContain(line)
  })

  it('keeps transitions of a parallel state out of its regions', () => {
    const refresh = lines.indexOf('    tiny_ready --> tiny_ready : refresh (reenter)')
    const closeReady = lines.lastIndexOf('    }')
    expect(refresh).toBeGreaterThan(closeReady)
  })

  it('is deterministic', () => {
    expect(toMermaid(describeMachine(tinyMachine))).toBe(mermaid)
  })
})

describe('labels and names', () => {
  it('escapes the characters that end a Mermaid label', () => {
    expect(escapeMermaidLabel('done: a;b #1')).toBe('done#58; a#59;b #35;1')
  })

  it('names guards', () => {
    expect(guardName('isReady')).toBe('isReady')
    expect(guardName({ type: 'isAbove', params: { n: 1 } })).toBe('isAbove')
    expect(guardName(() => true)).toBe('guard')
    expect(guardName(undefined)).toBeNull()
  })

  it('recognises machines and nothing else', () => {
    expect(isStateMachine(tinyMachine)).toBe(true)
    expect(isStateMachine({ root: {}, config: {} })).toBe(false)
    expect(isStateMachine(setup)).toBe(false)
  })
})

describe('toMarkdown', () => {
  const md = toMarkdown(describeMachine(tinyMachine), {
    sourceFile: 'machines/tiny.machine.ts',
    exportName: 'tinyMachine',
    svgFile: 'tiny.svg',
  })

  it('says it is generated and embeds the diagram', () => {
    expect(md).toContain('Generated by `npm run statecharts`')
    expect(md).toContain('```mermaid\nstateDiagram-v2\n')
  })

  it('lists states, transitions and invoked actors', () => {
    expect(md).toContain('| `tiny.ready` | parallel |')
    expect(md).toContain('| `tiny.idle` | `start` | `isReady` | `tiny.loading` |  |')
    expect(md).toContain('| `tiny.loading` | done: fetchUser |  | `tiny.ready` |  |')
    expect(md).toContain('| `tiny.ready` | `refresh` |  | `tiny.ready` (reenter) |  |')
    expect(md).toContain('| `tiny.loading` | `fetchUser` | `0.tiny.loading` | `tiny.ready` | `tiny.failed` |')
  })
})

describe('toSmcatAst', () => {
  const ast = toSmcatAst(describeMachine(tinyMachine))

  it('nests states under their parents with initial pseudo-states', () => {
    const root = ast.states[1]
    expect(ast.states[0]).toMatchObject({ name: ':initial', type: 'initial' })
    expect(root).toMatchObject({ name: 'tiny', type: 'regular', label: 'tiny' })
    const ready = root?.statemachine?.states.find((s) => s.name === 'tiny.ready')
    expect(ready?.type).toBe('parallel')
    expect(ready?.statemachine?.states.map((s) => s.name)).toEqual(['tiny.ready.left', 'tiny.ready.right'])
    const loading = root?.statemachine?.states.find((s) => s.name === 'tiny.loading')
    expect(loading?.actions).toEqual([{ type: 'activity', body: 'invoke fetchUser' }])
  })

  it('merges parallel edges into one multi-line label', () => {
    const inRoot = ast.states[1]?.statemachine?.transitions ?? []
    const selfLoops = inRoot.filter((t) => t.from === 'tiny.ready' && t.to === 'tiny.ready')
    expect(selfLoops).toHaveLength(1)
    expect(selfLoops[0]?.label).toBe('refresh (reenter)\nping (targetless)')
  })

  it('gives every transition a unique id', () => {
    const ids: number[] = []
    const collect = (m: typeof ast) => {
      for (const t of m.transitions ?? []) ids.push(t.id)
      for (const s of m.states) if (s.statemachine) collect(s.statemachine)
    }
    collect(ast)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('normalizeSvg', () => {
  it('marks the file as generated after the XML declaration and ends with one newline', () => {
    const svg = normalizeSvg('<?xml version="1.0"?>\r\n<svg></svg>\r\n\r\n', 'machines/x.machine.ts')
    expect(svg).toBe(
      '<?xml version="1.0"?>\n<!-- Generated by `npm run statecharts` from machines/x.machine.ts: do not edit -->\n<svg></svg>\n',
    )
  })
})

/** The tiny machine with its transitions numbered, as the generator numbers them. */
const numberedTiny = (): Chart => {
  const chart = describeMachine(tinyMachine)
  return { ...chart, transitions: chart.transitions.map((t, i) => ({ ...t, refs: [i + 1] })) }
}

describe('wrapText', () => {
  it('breaks at spaces within the width and keeps explicit line breaks', () => {
    expect(wrapText('/application/apply if the client has a first name', 20)).toEqual([
      '/application/apply',
      'if the client has a',
      'first name',
    ])
    expect(wrapText('status 4: Active\nsee x.svg', 40)).toEqual(['status 4: Active', 'see x.svg'])
  })
})

describe('state notes in the SVG', () => {
  it('draw under the name in rows of their own, before the invoked actors', () => {
    const chart = describeMachine(tinyMachine)
    const noted = {
      ...chart,
      states: chart.states.map((s) => (s.id === 'tiny.loading' ? { ...s, note: 'the loading page' } : s)),
    }
    const loading = toSmcatAst(noted).states[1]?.statemachine?.states.find((s) => s.name === 'tiny.loading')
    expect(loading).toMatchObject({
      label: 'loading',
      actions: [
        { type: 'activity', body: 'the loading page' },
        { type: 'activity', body: 'invoke fetchUser' },
      ],
    })
  })
})

describe('groupedChart', () => {
  const grouped = groupedChart({
    ...numberedTiny(),
    groups: [{ key: 'start', description: 'Getting going.', stateIds: ['tiny.idle', 'tiny.loading'] }],
  })
  const byId = new Map(grouped.states.map((s) => [s.id, s]))

  it('draws each group as a compound state around its states, holding the initial state', () => {
    expect(byId.get('tiny')).toMatchObject({
      childIds: ['tiny.start', 'tiny.failed', 'tiny.timedOut', 'tiny.ready'],
      initial: ['tiny.start'],
    })
    expect(byId.get('tiny.start')).toMatchObject({
      type: 'compound',
      parentId: 'tiny',
      childIds: ['tiny.idle', 'tiny.loading'],
      initial: ['tiny.idle'],
      note: 'Getting going.',
    })
    expect(byId.get('tiny.idle')?.parentId).toBe('tiny.start')
    expect(byId.get('tiny.ready.left.a')?.parentId).toBe('tiny.ready.left')
    expect(grouped.states).toHaveLength(describeMachine(tinyMachine).states.length + 1)
  })

  it('keeps the transitions between the states themselves', () => {
    expect(grouped.transitions).toEqual(numberedTiny().transitions)
  })

  it('splits into an overview of the groups and one diagram per group', () => {
    const overview = overviewChart(grouped, (s) => `see tiny.${s.key}.svg`)
    expect(overview.states.map((s) => s.id)).toEqual([
      'tiny',
      'tiny.start',
      'tiny.failed',
      'tiny.timedOut',
      'tiny.ready',
    ])
    expect(overview.states[1]?.note).toBe('Getting going.\nsee tiny.start.svg')
    // idle --after 1000ms--> timedOut leaves the group: drawn from the group's box.
    expect(overview.transitions).toContainEqual(
      expect.objectContaining({ sourceId: 'tiny.start', targetIds: ['tiny.timedOut'] }),
    )
  })
})

describe('focusChart', () => {
  const chart = groupedChart({
    ...numberedTiny(),
    groups: [{ key: 'start', description: 'Getting going.', stateIds: ['tiny.idle', 'tiny.loading'] }],
  })

  it('ends a transition that leaves the part on a box named by the target path', () => {
    const part = focusChart(chart, 'tiny.start')
    const stubs = part.states.filter((s) => s.id.includes('→'))
    expect(stubs.map((s) => s.key)).toEqual(['→ timedOut', '→ ready', '→ failed'])
    expect(stubs.every((s) => s.note === 'outside this diagram')).toBe(true)
  })

  it('stacks those boxes in rows with transparent edges when asked', () => {
    const part = focusChart(chart, 'tiny.start', 1)
    const stubs = part.states.filter((s) => s.id.includes('→'))
    expect(stubs.map((s) => s.drawBelow)).toEqual([undefined, stubs[0]?.id, stubs[1]?.id])
    const edges = toSmcatAst(part).states[1]?.statemachine?.transitions ?? []
    const layout = edges.filter((t) => t.class === 'layout')
    expect(layout).toHaveLength(2)
    expect(layout.every((t) => t.color === '#FFFFFF00' && t.label === undefined)).toBe(true)
  })
})

describe('numbered diagrams', () => {
  const chart = numberedTiny()

  it('print the transition numbers on the edges instead of their labels', () => {
    const edges = toSmcatAst(chart, { numbered: true }).states[1]?.statemachine?.transitions ?? []
    const labels = edges.map((t) => t.label).filter(Boolean)
    expect(labels.length).toBeGreaterThan(0)
    for (const label of labels) expect(label).toMatch(/^\d+(, \d+)*(\n\d+(, \d+)*)*$/)
    // refresh (reenter) and ping (targetless) share one self-loop: one edge, both numbers.
    const selfLoop = edges.find((t) => t.from === 'tiny.ready' && t.to === 'tiny.ready')
    const refresh = chart.transitions.findIndex((t) => t.trigger.label === 'refresh') + 1
    const ping = chart.transitions.findIndex((t) => t.trigger.label === 'ping') + 1
    expect(selfLoop?.label).toBe(`${refresh}, ${ping}`)
  })

  it('list every number in a legend under the drawing, within the width', () => {
    const entries = legendEntries(chart)
    expect(entries).toHaveLength(chart.transitions.length)
    expect(entries[0]).toEqual({ refs: '1', text: 'start [isReady]: idle → loading' })
    const svg =
      '<svg width="300pt" height="200pt"\n viewBox="0.00 0.00 300.00 200.00" xmlns="http://www.w3.org/2000/svg">\n<g id="graph0"></g>\n</svg>\n'
    const legend = withLegend(svg, entries)
    expect(svgWidthPt(legend)).toBeLessThanOrEqual(MAX_DIAGRAM_WIDTH_PT)
    expect(legend).toMatch(/height="(\d+)pt"/)
    expect(Number(/height="(\d+)pt"/.exec(legend)?.[1])).toBeGreaterThan(200)
    expect(legend).toContain('start [isReady]: idle → loading')
    expect(legend).toContain('refresh (reenter): ready → ready')
    expect(legend.endsWith('</svg>\n')).toBe(true)
  })

  it('measure text as Helvetica does', () => {
    expect(textWidthPt('M', 10)).toBe(9)
    expect(textWidthPt('il', 10)).toBe(5)
  })

  it('get a # column in the Transitions table', () => {
    const md = toMarkdown(chart, {
      sourceFile: 'machines/tiny.machine.ts',
      exportName: 'tinyMachine',
      svgFile: 'tiny.svg',
      numbered: true,
    })
    expect(md).toContain('| # | Source | Event | Guard | Target | Actions |')
    expect(md).toContain('| 1 | `tiny.idle` | `start` | `isReady` | `tiny.loading` |  |')
  })
})
