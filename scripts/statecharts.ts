/**
 * `npm run statecharts`: writes docs/statecharts/<name>.md (Mermaid + tables) and <name>.svg (with a split
 * machine's parts, <name>.<part>.svg) for every machine exported by machines/*.machine.ts and the domain's.
 * `npm run statecharts -- --check`: writes nothing; exits 1 and lists the files that are out of date, and any SVG
 * there wider than a screen (`MAX_DIAGRAM_WIDTH_PT`).
 */
import { checkStatecharts, writeStatecharts } from './statecharts/generate'
import { MAX_DIAGRAM_WIDTH_PT } from './statecharts/split'

const reportTooWide = (tooWide: { file: string; widthPt: number }[]) => {
  for (const { file, widthPt } of tooWide)
    console.error(`too wide: ${file} is ${widthPt}pt, more than ${MAX_DIAGRAM_WIDTH_PT}pt`)
  if (tooWide.length)
    console.error(
      'Diagrams must read without scrolling sideways: split or lay out the machine (scripts/statecharts/split.ts).',
    )
}

const check = process.argv.includes('--check')

if (check) {
  const { machines, stale, orphaned, tooWide } = await checkStatecharts()
  if (stale.length || orphaned.length) {
    for (const file of stale) console.error(`out of date: ${file}`)
    for (const file of orphaned) console.error(`no machine generates: ${file}`)
    console.error('Statecharts are stale: run npm run statecharts and commit the result.')
  }
  reportTooWide(tooWide)
  if (stale.length || orphaned.length || tooWide.length) process.exit(1)
  console.info(`Statecharts up to date (${machines.length} machine${machines.length === 1 ? '' : 's'}).`)
} else {
  const { machines, stale, orphaned, tooWide } = await writeStatecharts()
  for (const m of machines) {
    const files = [...m.files.keys()]
    const changed = files.some((f) => stale.includes(f))
    console.info(
      `${m.machineId} (${m.exportName} in ${m.sourceFile}) -> ${files.join(', ')}${changed ? '' : ' (unchanged)'}`,
    )
  }
  for (const file of orphaned) console.info(`removed ${file} (no machine generates it any more)`)
  reportTooWide(tooWide)
  if (tooWide.length) process.exit(1)
}
