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
import {
  type Chart,
  describeMachine,
  GENERATED_MARKER,
  isStateMachine,
  toMarkdown,
  toSmcatAst,
} from './render'
import { focusChart, MAX_DIAGRAM_WIDTH_PT, overviewChart, splittableStates, svgWidthPt } from './split'

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
export async function renderSvg(chart: Chart, sourceFile: string): Promise<string> {
  const svg = await render(toSmcatAst(chart) as Parameters<typeof render>[0], {
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
    const chart = annotate ? annotate(described, (id) => m.machine.getStateNodeById(id).meta) : described
    const svgFile = `${stem}.svg`
    const files = new Map<string, string>()
    const whole = await renderSvg(chart, m.sourceFile)
    const parts = svgWidthPt(whole) > MAX_DIAGRAM_WIDTH_PT ? splittableStates(chart) : []
    const partSvgFiles = parts.map((s) => ({ file: `${stem}.${s.key}.svg`, state: s.id }))
    files.set(
      `${OUTPUT_DIR}/${stem}.md`,
      toMarkdown(chart, { sourceFile: m.sourceFile, exportName: m.exportName, svgFile, partSvgFiles }),
    )
    if (parts.length === 0) files.set(`${OUTPUT_DIR}/${svgFile}`, whole)
    else {
      const overview = overviewChart(chart, (s) => `see ${stem}.${s.key}.svg`)
      files.set(`${OUTPUT_DIR}/${svgFile}`, await renderSvg(overview, m.sourceFile))
      for (const [i, part] of parts.entries())
        files.set(
          `${OUTPUT_DIR}/${partSvgFiles[i]!.file}`,
          await renderSvg(focusChart(chart, part.id), m.sourceFile),
        )
    }
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
  return { machines, stale, orphaned: await findOrphans(root, expected) }
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
  return result
}
