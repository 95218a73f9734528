/**
 * Generates docs/statecharts/<name>.md and <name>.svg for every machine exported by machines/*.machine.ts and
 * the *.machine.ts files of `DOMAIN_MACHINE_DIRS` (domain/journey, domain/loan),
 * or compares them with the files on disk (`--check`). Used by scripts/statecharts.ts and by
 * tests/statecharts.test.ts.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { render } from 'state-machine-cat'
import type { AnyStateMachine } from 'xstate'
import { annotators } from './annotations'
import { legendEntries, withLegend } from './legend'
import {
  type Chart,
  describeMachine,
  GENERATED_MARKER,
  isStateMachine,
  type SmcatOptions,
  toMarkdown,
  toSmcatAst,
} from './render'
import {
  focusChart,
  groupedChart,
  MAX_DIAGRAM_WIDTH_PT,
  overviewChart,
  splittableStates,
  stubRowOptions,
  svgWidthPt,
} from './split'

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const MACHINES_DIR = 'machines'
/**
 * Machines that live outside machines/ because the server runs them too (domain <- server; the server never
 * imports machines/): the client journey and the loan lifecycle the server persists.
 */
export const DOMAIN_MACHINE_DIRS = ['domain/journey', 'domain/loan']
export const OUTPUT_DIR = 'docs/statecharts'

export interface FoundMachine {
  /** Repository-relative, with forward slashes. */
  sourceFile: string
  exportName: string
  machine: AnyStateMachine
}

export interface GeneratedMachine {
  sourceFile: string
  exportName: string
  machineId: string
  /** Repository-relative path -> content. */
  files: Map<string, string>
}

const MACHINE_FILE = /\.machine\.ts$/

/** Every distinct StateMachine exported by machines/*.machine.ts (then the domain dirs), in name order. */
export async function findMachines(root = REPO_ROOT): Promise<FoundMachine[]> {
  const sourceFiles: string[] = []
  for (const dir of [MACHINES_DIR, ...DOMAIN_MACHINE_DIRS]) {
    const names = (await readdir(path.join(root, dir))).filter((n) => MACHINE_FILE.test(n)).sort()
    sourceFiles.push(...names.map((name) => `${dir}/${name}`))
  }
  const found: FoundMachine[] = []
  for (const sourceFile of sourceFiles) {
    const mod = (await import(pathToFileURL(path.join(root, sourceFile)).href)) as Record<string, unknown>
    const seen = new Set<unknown>()
    for (const exportName of Object.keys(mod).sort()) {
      const value = mod[exportName]
      if (!isStateMachine(value) || seen.has(value)) continue
      seen.add(value)
      found.push({ sourceFile, exportName, machine: value })
    }
  }
  return found
}

/**
 * SVG through state-machine-cat. `outputType: 'svg'` shells out to a native Graphviz `dot` when one is
 * installed and only falls back to WASM otherwise, so two machines would write different files and
 * `--check` would flap. `'oldsvg'` is the same SVG renderer pinned to the bundled WASM Graphviz.
 */
export async function renderSvg(
  chart: Chart,
  sourceFile: string,
  options: SmcatOptions = {},
): Promise<string> {
  const svg = await render(toSmcatAst(chart, options) as Parameters<typeof render>[0], {
    inputType: 'json',
    outputType: 'oldsvg',
    direction: 'top-down',
  })
  return normalizeSvg(svg, sourceFile)
}

/** Stable text: LF line endings, one trailing newline, and a marker saying where the file comes from. */
export function normalizeSvg(svg: string, sourceFile: string): string {
  const marker = `<!-- ${GENERATED_MARKER} from ${sourceFile}: do not edit -->`
  const text = svg.replace(/\r\n/g, '\n').trimEnd()
  const declaration = /^<\?xml[^>]*\?>\n?/.exec(text)
  const body = declaration ? text.slice(declaration[0].length) : text
  return `${declaration ? `${declaration[0].trimEnd()}\n` : ''}${marker}\n${body}\n`
}

/**
 * One diagram that fits a screen when it can: the first of `layouts` (the same states, laid out more narrowly
 * each time) that is at most `MAX_DIAGRAM_WIDTH_PT` wide with its edge labels; failing that, the first that fits
 * with the transitions' numbers on the edges and a legend under it; failing that, the narrowest (which `--check`
 * then refuses).
 */
async function fittedSvg(layouts: Chart[], sourceFile: string): Promise<{ svg: string; numbered: boolean }> {
  let narrowest: { svg: string; numbered: boolean } | null = null
  for (const numbered of [false, true]) {
    for (const chart of layouts) {
      const drawn = await renderSvg(chart, sourceFile, { numbered })
      const svg = numbered ? withLegend(drawn, legendEntries(chart)) : drawn
      if (svgWidthPt(svg) <= MAX_DIAGRAM_WIDTH_PT) return { svg, numbered }
      if (!narrowest || svgWidthPt(svg) < svgWidthPt(narrowest.svg)) narrowest = { svg, numbered }
    }
  }
  if (!narrowest) throw new Error('fittedSvg: no layout to draw')
  return narrowest
}

function baseName(sourceFile: string): string {
  return path.basename(sourceFile).replace(MACHINE_FILE, '')
}

/** Generate every file in memory. A file exporting several machines gets `<name>.<export>.md`. */
export async function generateStatecharts(root = REPO_ROOT): Promise<GeneratedMachine[]> {
  const machines = await findMachines(root)
  const perFile = new Map<string, number>()
  for (const m of machines) perFile.set(m.sourceFile, (perFile.get(m.sourceFile) ?? 0) + 1)
  const result: GeneratedMachine[] = []
  for (const m of machines) {
    const stem =
      (perFile.get(m.sourceFile) ?? 0) > 1
        ? `${baseName(m.sourceFile)}.${m.exportName}`
        : baseName(m.sourceFile)
    const described = describeMachine(m.machine)
    const annotate = annotators[described.id]
    const annotated = annotate ? annotate(described, (id) => m.machine.getStateNodeById(id).meta) : described
    // Each transition's number in the Transitions table, which a numbered diagram prints on its edge.
    const chart = {
      ...annotated,
      transitions: annotated.transitions.map((t, i) => ({ ...t, refs: [i + 1] })),
    }
    // What the diagrams draw: the machine, with its phases (if it has any) as boxes around their states.
    const drawn = groupedChart(chart)
    const svgFile = `${stem}.svg`
    const svgs = new Map<string, { svg: string; numbered: boolean }>()
    const whole = await renderSvg(drawn, m.sourceFile)
    const parts = svgWidthPt(whole) > MAX_DIAGRAM_WIDTH_PT ? splittableStates(drawn) : []
    const phases = new Set((chart.groups ?? []).map((g) => g.key))
    const partSvgFiles = parts.map((s) => ({
      file: `${stem}.${s.key}.svg`,
      state: s.id,
      ...(!chart.states.some((c) => c.id === s.id) && phases.has(s.key) ? { phase: true } : {}),
    }))
    if (parts.length === 0) svgs.set(svgFile, await fittedSvg([drawn], m.sourceFile))
    else {
      const overview = overviewChart(drawn, (s) => `see ${stem}.${s.key}.svg`)
      svgs.set(svgFile, await fittedSvg([overview], m.sourceFile))
      for (const [i, part] of parts.entries()) {
        const layouts = stubRowOptions(drawn, part.id).map((perRow) => focusChart(drawn, part.id, perRow))
        svgs.set(partSvgFiles[i]!.file, await fittedSvg(layouts, m.sourceFile))
      }
    }
    const numbered = [...svgs.values()].some((s) => s.numbered)
    const files = new Map<string, string>()
    files.set(
      `${OUTPUT_DIR}/${stem}.md`,
      toMarkdown(chart, {
        sourceFile: m.sourceFile,
        exportName: m.exportName,
        svgFile,
        partSvgFiles,
        numbered,
      }),
    )
    for (const [file, { svg }] of svgs) files.set(`${OUTPUT_DIR}/${file}`, svg)
    result.push({ sourceFile: m.sourceFile, exportName: m.exportName, machineId: chart.id, files })
  }
  return result
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Generated files on disk that no machine produces any more (a machine was renamed or deleted). */
async function findOrphans(root: string, expected: Set<string>): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(path.join(root, OUTPUT_DIR))
  } catch {
    return []
  }
  const orphans: string[] = []
  for (const name of names.sort()) {
    const rel = `${OUTPUT_DIR}/${name}`
    if (expected.has(rel) || !/\.(md|svg)$/.test(name)) continue
    const content = await readIfExists(path.join(root, rel))
    if (content?.includes(GENERATED_MARKER)) orphans.push(rel)
  }
  return orphans
}

export interface CheckResult {
  machines: GeneratedMachine[]
  /** Missing or different from what the machines generate. */
  stale: string[]
  /** Generated files whose machine no longer exists. */
  orphaned: string[]
  /** SVGs in docs/statecharts/ (on disk) wider than `MAX_DIAGRAM_WIDTH_PT`, with their widths. */
  tooWide: { file: string; widthPt: number }[]
}

/**
 * Every SVG in docs/statecharts/ wider than a screen (issue 20 item 5: none needs scrolling sideways), read from
 * disk so that a hand-made or stale file counts too.
 */
export async function findTooWide(root = REPO_ROOT): Promise<{ file: string; widthPt: number }[]> {
  let names: string[]
  try {
    names = await readdir(path.join(root, OUTPUT_DIR))
  } catch {
    return []
  }
  const tooWide: { file: string; widthPt: number }[] = []
  for (const name of names.filter((n) => n.endsWith('.svg')).sort()) {
    const file = `${OUTPUT_DIR}/${name}`
    const widthPt = svgWidthPt(await readFile(path.join(root, file), 'utf8'))
    if (widthPt > MAX_DIAGRAM_WIDTH_PT) tooWide.push({ file, widthPt })
  }
  return tooWide
}

export async function checkStatecharts(root = REPO_ROOT): Promise<CheckResult> {
  const machines = await generateStatecharts(root)
  const stale: string[] = []
  const expected = new Set<string>()
  for (const m of machines) {
    for (const [rel, content] of m.files) {
      expected.add(rel)
      if ((await readIfExists(path.join(root, rel))) !== content) stale.push(rel)
    }
  }
  return { machines, stale, orphaned: await findOrphans(root, expected), tooWide: await findTooWide(root) }
}

/** Write every file (only those whose content changed) and delete orphaned generated files. */
export async function writeStatecharts(root = REPO_ROOT): Promise<CheckResult> {
  const result = await checkStatecharts(root)
  await mkdir(path.join(root, OUTPUT_DIR), { recursive: true })
  for (const m of result.machines) {
    for (const [rel, content] of m.files) {
      if (result.stale.includes(rel)) await writeFile(path.join(root, rel), content)
    }
  }
  for (const rel of result.orphaned) await rm(path.join(root, rel))
  return { ...result, tooWide: await findTooWide(root) }
}
