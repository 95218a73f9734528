/**
 * Child process for the durability test: opens the embedded database, commits N rows one transaction at a
 * time, reports each commit on stdout, then waits to be killed.
 */
import { openDatabase } from '../../server/db/client'
import { configAudit } from '../../server/db/schema'

const [dataDir, countArg] = process.argv.slice(2)
const database = await openDatabase({ kind: 'pglite', dataDir: dataDir! })
for (let i = 1; i <= Number(countArg); i++) {
  await database.db.transaction(async (tx) => {
    await tx.insert(configAudit).values({ key: 'durability', value: { i }, note: `row ${i}` })
  })
  process.stdout.write(`committed ${i}\n`)
}
setInterval(() => {}, 1000)
