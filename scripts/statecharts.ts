/**
 * `npm run statecharts`: writes docs/statecharts/<name>.md (Mermaid + tables) and <name>.svg for every
 * machine exported by machines/*.machine.ts.
 * `npm run statecharts -- --check`: writes nothing; exits 1 and lists the files that are out of date.
 */
import { checkStatecharts, writeStatecharts } from './statecharts/generate'

const check = process.argv.includes('--check')

if (check) {
  const { machines, stale, orphaned } = await checkStatecharts()
  if (stale.length || orphaned.length) {
    for (const file of stale) console.error(`out of date: ${file}`)
    for (const file of orphaned) console.error(`no machine generates: ${file}`)
    console.error('Statecharts are stale: run npm run statecharts and commit the result.')
    process.exit(1)
  }
  console.info(`Statecharts up to date (${machines.length} machine${machines.length === 1 ? '' : 's'}).`)
} else {
  const { machines, stale, orphaned } = await writeStatecharts()
  for (const m of machines) {
    const files = [...m.files.keys()]
    const changed = files.some((f) => stale.includes(f))
    console.info(
      `${m.machineId} (${m.exportName} in ${m.sourceFile}) -> ${files.join(', ')}${changed ? '' : ' (unchanged)'}`,
    )
  }
  for (const file of orphaned) console.info(`removed ${file} (no machine generates it any more)`)
}
