/**
 * A configuration change is a proposal (issue 19 item 6): checked when proposed (the same caps and field
 * violations as before), checked again when approved (the documents in force may have changed meanwhile), and
 * applied by appending a version that takes effect at the chosen time.
 */
import type * as v from 'valibot'
import * as s from 'valibot'
import { calculatorConfigSchema } from '../../../domain/calculator-config'
import { LIMITS_CONFIG_KEY, limitGrowthSchema } from '../../../domain/loan/limits'
import { servicingConfigSchema } from '../../../domain/loan/servicing-config'
import { pricingConfigShapeSchema } from '../../../domain/pricing/config'
import { referralConfigSchema } from '../../../domain/referrals'
import type { DbOrTx } from '../../db/client'
import { recordChange } from '../audit/audit'
import { appendConfigVersion, parseConfig, readVersion } from '../config'
import { checkLendingDocument, forgetLendingConfig } from '../pricing'
import { registerExecutor } from './executors'
import { propose } from './store'

export type ConfigKey = 'calculator' | 'pricing' | 'servicing' | 'limits' | 'referrals'

const storedKey = (key: ConfigKey) => (key === 'limits' ? LIMITS_CONFIG_KEY : key)

/** The document as it would be stored, or a refusal with the field violations (422 configRejected). */
export async function checkConfigDocument(db: DbOrTx, key: ConfigKey, value: unknown): Promise<unknown> {
  // The servicing rules stand alone: the legal caps are checked on every quote (domain/loan/extension.ts).
  if (key === 'servicing') return parseConfig(key, servicingConfigSchema, value)
  // The repeat-limit steps stand alone too: a limit never exceeds the calculator's repeat maximum.
  if (key === 'limits') return parseConfig(key, limitGrowthSchema, value)
  // The referral switch and rewards stand alone: a reward is bounded by its schema (docs/decisions/0041-referrals.md).
  if (key === 'referrals') return parseConfig(key, referralConfigSchema, value)
  await checkLendingDocument(db, key, value)
  const schema: v.GenericSchema = key === 'calculator' ? calculatorConfigSchema : pricingConfigShapeSchema
  return s.parse(schema, value)
}

export interface ConfigChangePayload {
  key: ConfigKey
  value: unknown
  /** ISO time it should take effect; null: as soon as it is approved. */
  effectiveAt: string | null
}

export async function proposeConfigChange(
  db: DbOrTx,
  change: { key: ConfigKey; value: unknown; note: string; effectiveAt: Date | null; by: number },
) {
  const value = await checkConfigDocument(db, change.key, change.value)
  const payload: ConfigChangePayload = {
    key: change.key,
    value,
    effectiveAt: change.effectiveAt ? change.effectiveAt.toISOString() : null,
  }
  return propose(db, {
    kind: 'config.change',
    subject: change.key,
    payload,
    note: change.note,
    proposedBy: change.by,
  })
}

registerExecutor('config.change', {
  execute: async ({ tx, proposal, approvedBy, now }) => {
    const payload = proposal.payload as ConfigChangePayload
    const value = await checkConfigDocument(tx, payload.key, payload.value)
    const key = storedKey(payload.key)
    const before = await readVersion(tx, key, now)
    const version = await appendConfigVersion(tx, {
      key,
      value,
      note: proposal.note,
      proposedBy: proposal.proposedBy,
      approvedBy,
      approvalId: proposal.id,
      effectiveAt: payload.effectiveAt ? new Date(payload.effectiveAt) : now,
      now,
    })
    const result = {
      key: payload.key,
      version: version.version,
      effectiveAt: version.effectiveAt.toISOString(),
    }
    await recordChange(tx, {
      entity: 'config',
      entityId: key,
      before: before ?? null,
      after: { ...result, value },
    })
    return result
  },
  afterCommit: (db) => forgetLendingConfig(db),
})
