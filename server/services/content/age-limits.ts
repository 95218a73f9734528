/**
 * The age limits as a content setting (spec section 9: "Age limits default to 20 and 70 and can be overridden by
 * the content system"; docs/decisions/0048-age-limits-content-setting.md). One row at most: none means the
 * defaults, AGE_LIMITS in domain/journey/fields.ts. The details step (PUT /private/client) and the decision
 * engine's age rule read them here, from the database; the browser gets them with the site content.
 * The back office sets them like the rest of the content: `content.manage`, the change in the audit trail inside
 * its transaction (entity `age_limits`), the public answer kept in memory dropped once it commits.
 */
import { eq } from 'drizzle-orm'
import type { AgeLimitsBody, AgeLimitsSetting } from '../../../domain/contract/content'
import { AGE_LIMITS, type AgeLimits } from '../../../domain/journey/fields'
import type { DbOrTx } from '../../db/client'
import { ageLimits } from '../../db/schema-content'
import type { AppDeps } from '../../deps'
import { recordChange } from '../audit/audit'
import { forgetSiteContent, limitsOf } from './site-content'

type AgeLimitsRow = typeof ageLimits.$inferSelect

const settingView = (row: AgeLimitsRow | undefined): AgeLimitsSetting => ({
  ...limitsOf(row),
  isDefault: !row,
  updatedAt: row ? row.updatedAt.toISOString() : null,
})

async function readRow(db: DbOrTx) {
  const [row] = await db.select().from(ageLimits).where(eq(ageLimits.id, 1))
  return row
}

/** The limits in force, read from the database (one primary-key read): what the server checks against. */
export async function currentAgeLimits(db: DbOrTx): Promise<AgeLimits> {
  return limitsOf(await readRow(db))
}

export async function ageLimitsSetting(deps: AppDeps): Promise<AgeLimitsSetting> {
  return settingView(await readRow(deps.database.db))
}

/** Sets the limits (the body schema already checked 18 <= min < max <= 100; the table checks the same). */
export async function saveAgeLimits(deps: AppDeps, body: AgeLimitsBody): Promise<AgeLimitsSetting> {
  const db = deps.database.db
  const now = deps.now()
  const values = { minAge: body.min, maxAge: body.max, updatedAt: now }
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(ageLimits).where(eq(ageLimits.id, 1)).for('update')
    const [after] = await tx
      .insert(ageLimits)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: ageLimits.id, set: values })
      .returning()
    await recordChange(tx, {
      entity: 'age_limits',
      entityId: 1,
      before: before ?? { minAge: AGE_LIMITS.min, maxAge: AGE_LIMITS.max, isDefault: true },
      after,
    })
    return after!
  })
  forgetSiteContent(db)
  return settingView(row)
}
