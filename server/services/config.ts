import { eq, sql } from 'drizzle-orm'
import type * as v from 'valibot'
import * as s from 'valibot'
import { toViolations } from '../../domain/contract/wire'
import { DomainError } from '../../domain/errors'
import type { DbOrTx } from '../db/client'
import { config, configAudit } from '../db/schema'

/** Reads one configuration document, validated against its schema so a bad row can never reach pricing. */
export async function readConfig<S extends v.GenericSchema>(
  db: DbOrTx,
  key: string,
  schema: S,
): Promise<v.InferOutput<S>> {
  const [row] = await db.select({ value: config.value }).from(config).where(eq(config.key, key))
  if (!row) throw new DomainError('unavailable', 'configMissing', `Configuration ${key} is not set.`)
  return s.parse(schema, row.value)
}

/**
 * Saves a configuration document after validating it (schemas carry the business caps as checks), and keeps
 * the previous versions in config_audit.
 */
export async function writeConfig<S extends v.GenericSchema>(
  db: DbOrTx,
  key: string,
  schema: S,
  value: unknown,
  note = '',
) {
  const parsed = s.safeParse(schema, value)
  if (!parsed.success)
    throw new DomainError(
      'refused',
      'configRejected',
      `Configuration ${key} was refused.`,
      toViolations(parsed.issues),
    )
  await db
    .insert(config)
    .values({ key, value: parsed.output })
    .onConflictDoUpdate({
      target: config.key,
      set: { value: parsed.output, version: sql`${config.version} + 1`, updatedAt: sql`now()` },
    })
  await db.insert(configAudit).values({ key, value: parsed.output, note })
  return parsed.output as v.InferOutput<S>
}

/** Inserts a default only when the key is absent: seeding never overwrites what an admin saved. */
export async function seedConfig(db: DbOrTx, key: string, value: unknown) {
  const inserted = await db
    .insert(config)
    .values({ key, value })
    .onConflictDoNothing()
    .returning({ key: config.key })
  if (inserted.length) await db.insert(configAudit).values({ key, value, note: 'seed' })
}
