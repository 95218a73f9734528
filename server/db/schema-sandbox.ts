/**
 * Sandbox mode switched on from the back office (issue 20 item 1, docs/decisions/0039-sandbox-panel.md), for the
 * whole instance and for one client: the state each switch was last left in, who set it and when (the history is
 * the audit trail). Migration 0021_sandbox_mode. Only read on a sandbox deployment (server/services/sandbox/mode.ts):
 * a production server without the sandbox switch answers "off" whatever these rows say.
 */
import { sql } from 'drizzle-orm'
import { boolean, check, pgTable, smallint } from 'drizzle-orm/pg-core'
import { ref, ts } from './columns'

/** The instance's switch: one row at most (id 1), made the first time an administrator sets it. */
export const sandboxInstanceMode = pgTable(
  'sandbox_instance_mode',
  {
    id: smallint('id').primaryKey().default(1),
    enabled: boolean('enabled').notNull(),
    /** The back-office user who set it last. */
    changedBy: ref('changed_by').notNull(),
    changedAt: ts('changed_at').notNull(),
  },
  (t) => [check('sandbox_instance_mode_one_row_ck', sql`${t.id} = 1`)],
)

/** One client's switch: a row per client ever switched, on or off. */
export const clientSandboxMode = pgTable('client_sandbox_mode', {
  clientId: ref('client_id').primaryKey(),
  enabled: boolean('enabled').notNull(),
  changedBy: ref('changed_by').notNull(),
  changedAt: ts('changed_at').notNull(),
})
