/**
 * Configuration documents and their versions (docs/decisions/0035-maker-checker-and-config-versions.md).
 *
 * Every document (calculator, pricing, servicing, limits, document-upload) has versions in `config_version`: who
 * proposed and who approved each, and when it takes effect. The document in force is the newest version whose
 * effective time has passed, on the wall clock (a configuration change happens in real time, not on the sandbox's
 * business clock, which e2e runs move about). The `config` table keeps the seed and a copy of the last version
 * applied at once; readers fall back to it only for a key without versions.
 */
import { and, desc, eq, gt, inArray, lte, min, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type * as v from 'valibot'
import * as s from 'valibot'
import type { ConfigVersion } from '../../domain/contract/lending-config'
import { toViolations } from '../../domain/contract/wire'
import { DomainError } from '../../domain/errors'
import type { DbOrTx } from '../db/client'
import { config, configAudit } from '../db/schema'
import { configVersion } from '../db/schema-approval'
import { backOfficeUser } from '../db/schema-identity'

const proposer = alias(backOfficeUser, 'proposer')
const approver = alias(backOfficeUser, 'approver')

export interface VersionedValue {
  value: unknown
  version: number
}

/** The version of `key` in force at `at`, or undefined when the key was never set. */
export async function readVersion(
  db: DbOrTx,
  key: string,
  at = new Date(),
): Promise<VersionedValue | undefined> {
  const [row] = await db
    .select({ value: configVersion.value, version: configVersion.version })
    .from(configVersion)
    .where(and(eq(configVersion.key, key), lte(configVersion.effectiveAt, at)))
    .orderBy(desc(configVersion.effectiveAt), desc(configVersion.version))
    .limit(1)
  if (row) return row
  const [legacy] = await db
    .select({ value: config.value, version: config.version })
    .from(config)
    .where(eq(config.key, key))
  return legacy
}

/** The earliest version of `keys` approved to take effect after `at`: when a cache of them must be read again. */
export async function nextEffectiveAt(db: DbOrTx, keys: string[], at = new Date()): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(configVersion.effectiveAt) })
    .from(configVersion)
    .where(and(inArray(configVersion.key, keys), gt(configVersion.effectiveAt, at)))
  return row?.at ?? null
}

/** Reads one configuration document in force, validated against its schema so a bad row can never reach pricing. */
export async function readConfig<S extends v.GenericSchema>(
  db: DbOrTx,
  key: string,
  schema: S,
  at = new Date(),
): Promise<v.InferOutput<S>> {
  const row = await readVersion(db, key, at)
  if (!row) throw new DomainError('unavailable', 'configMissing', `Configuration ${key} is not set.`)
  return s.parse(schema, row.value)
}

/** readConfig, or `fallback` for a key never set. */
export async function readConfigOr<S extends v.GenericSchema>(
  db: DbOrTx,
  key: string,
  schema: S,
  fallback: v.InferOutput<S>,
): Promise<v.InferOutput<S>> {
  const row = await readVersion(db, key)
  return row ? s.parse(schema, row.value) : fallback
}

/** A document checked against its schema (the business caps are checks in it): refused with field violations. */
export function parseConfig<S extends v.GenericSchema>(
  key: string,
  schema: S,
  value: unknown,
): v.InferOutput<S> {
  const parsed = s.safeParse(schema, value)
  if (!parsed.success)
    throw new DomainError(
      'refused',
      'configRejected',
      `Configuration ${key} was refused.`,
      toViolations(parsed.issues),
    )
  return parsed.output
}

export interface NewVersion {
  key: string
  value: unknown
  note: string
  proposedBy: number | null
  approvedBy: number | null
  approvalId: number | null
  /** When it takes effect; never before `now` (a version is never backdated). */
  effectiveAt: Date
  now: Date
}

/**
 * Appends a version of a document, in the caller's transaction. The key's `config` row is locked first, so two
 * approvals of the same key at once number their versions one after the other.
 */
export async function appendConfigVersion(tx: DbOrTx, next: NewVersion) {
  await tx.insert(config).values({ key: next.key, value: next.value, version: 0 }).onConflictDoNothing()
  await tx.select({ key: config.key }).from(config).where(eq(config.key, next.key)).for('update')
  const [last] = await tx
    .select({ version: sql<number>`coalesce(max(${configVersion.version}), 0)::int` })
    .from(configVersion)
    .where(eq(configVersion.key, next.key))
  const version = Number(last?.version ?? 0) + 1
  const effectiveAt = next.effectiveAt > next.now ? next.effectiveAt : next.now
  const [row] = await tx
    .insert(configVersion)
    .values({
      key: next.key,
      version,
      value: next.value,
      note: next.note,
      proposedBy: next.proposedBy,
      approvedBy: next.approvedBy,
      approvalId: next.approvalId,
      effectiveAt,
    })
    .returning()
  if (effectiveAt <= next.now) {
    await tx
      .update(config)
      .set({ value: next.value, version, updatedAt: next.now })
      .where(eq(config.key, next.key))
  }
  await tx.insert(configAudit).values({ key: next.key, value: next.value, note: next.note })
  return row!
}

/**
 * Saves a document at once, without a second person: for the system only (tests, scripts). People change the
 * configuration through a proposal and its approval (server/services/approvals/config-change.ts).
 */
export async function writeConfig<S extends v.GenericSchema>(
  db: DbOrTx,
  key: string,
  schema: S,
  value: unknown,
  note = '',
) {
  const parsed = parseConfig(key, schema, value)
  const now = new Date()
  await db.transaction((tx) =>
    appendConfigVersion(tx, {
      key,
      value: parsed,
      note,
      proposedBy: null,
      approvedBy: null,
      approvalId: null,
      effectiveAt: now,
      now,
    }),
  )
  return parsed as v.InferOutput<S>
}

/** Inserts a default only when the key is absent: seeding never overwrites what an admin saved. */
export async function seedConfig(db: DbOrTx, key: string, value: unknown) {
  const inserted = await db
    .insert(config)
    .values({ key, value })
    .onConflictDoNothing()
    .returning({ key: config.key })
  if (!inserted.length) return
  await db.insert(configAudit).values({ key, value, note: 'seed' })
  await db
    .insert(configVersion)
    .values({ key, version: 1, value, note: 'seed', effectiveAt: new Date(0) })
    .onConflictDoNothing()
}

/** The history of versions, newest effective time first, of one key or all, each saying whether it is in force. */
export async function configVersions(
  db: DbOrTx,
  query: { key?: string; page: number; perPage: number },
  at = new Date(),
): Promise<{ items: ConfigVersion[]; total: number }> {
  const where = query.key ? eq(configVersion.key, query.key) : undefined
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(configVersion).where(where)
  const rows = await db
    .select({ row: configVersion, proposerName: proposer.name, approverName: approver.name })
    .from(configVersion)
    .leftJoin(proposer, eq(proposer.id, configVersion.proposedBy))
    .leftJoin(approver, eq(approver.id, configVersion.approvedBy))
    .where(where)
    .orderBy(desc(configVersion.effectiveAt), desc(configVersion.version), desc(configVersion.id))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
  const items = rows.map(({ row }) => row)
  const names = new Map(rows.map((r) => [r.row.id, r]))
  const inForce = new Map<string, number | undefined>()
  for (const key of new Set(items.map((item) => item.key)))
    inForce.set(key, (await readVersion(db, key, at))?.version)
  return {
    items: items.map((row) => ({
      key: row.key,
      version: row.version,
      value: row.value,
      note: row.note,
      proposedBy: row.proposedBy,
      proposedByName: names.get(row.id)?.proposerName ?? null,
      approvedBy: row.approvedBy,
      approvedByName: names.get(row.id)?.approverName ?? null,
      approvalId: row.approvalId,
      effectiveAt: row.effectiveAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      state:
        row.effectiveAt > at ? 'scheduled' : inForce.get(row.key) === row.version ? 'inForce' : 'superseded',
    })),
    total: Number(total?.n ?? 0),
  }
}
