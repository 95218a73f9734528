/**
 * Promo codes edited through proposals (issue 19 item 6, docs/decisions/0035-maker-checker-and-config-versions.md):
 * the list with uses so far, a new code or a change proposed (kind `promo_code`, checked when proposed), and the
 * executor another administrator's approval runs in the decision's transaction: the code re-checked and upserted,
 * its before and after recorded for the audit. The validity window is the effective time.
 */
import { count, desc, eq, inArray } from 'drizzle-orm'
import type { PromoCodeView } from '../../../domain/contract/promo-codes'
import { toViolations } from '../../../domain/contract/wire'
import { conflict, DomainError, notFound } from '../../../domain/errors'
import type { PromoDefinition } from '../../../domain/pricing/promo'
import {
  type PromoChange,
  type PromoProposalPayload,
  promoDefinitionOf,
  promoState,
} from '../../../domain/pricing/promo-admin'
import type { DbOrTx } from '../../db/client'
import { promoCode, promoRedemption } from '../../db/schema'
import { recordChange } from '../audit/audit'
import { registerExecutor } from './executors'
import { propose } from './store'

type PromoRow = typeof promoCode.$inferSelect

function view(row: PromoRow, uses: number, now: Date): PromoCodeView {
  return {
    code: row.code,
    validFrom: row.validFrom.toISOString(),
    validTo: row.validTo.toISOString(),
    clientKinds: row.clientKinds as PromoCodeView['clientKinds'],
    maxUses: row.maxUses,
    usesPerClient: row.usesPerClient,
    interestDiscountBps: row.interestDiscountBps,
    serviceFeeDiscountBps: row.serviceFeeDiscountBps,
    description: row.description,
    uses,
    state: promoState(row, now),
  }
}

/** The codes, the latest window end first, with their uses so far. */
export async function listPromoCodes(db: DbOrTx, query: { page: number; perPage: number; now: Date }) {
  const [total] = await db.select({ n: count() }).from(promoCode)
  const rows = await db
    .select()
    .from(promoCode)
    .orderBy(desc(promoCode.validTo), promoCode.code)
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
  const uses = rows.length
    ? await db
        .select({ code: promoRedemption.code, n: count() })
        .from(promoRedemption)
        .where(
          inArray(
            promoRedemption.code,
            rows.map((row) => row.code),
          ),
        )
        .groupBy(promoRedemption.code)
    : []
  const usesOf = new Map(uses.map((u) => [u.code, Number(u.n)]))
  return {
    items: rows.map((row) => view(row, usesOf.get(row.code) ?? 0, query.now)),
    total: Number(total?.n ?? 0),
  }
}

/** The definition a payload makes, or 422 promoRejected with the field violations. */
function checked(payload: PromoProposalPayload): PromoDefinition {
  const result = promoDefinitionOf(payload)
  if ('issues' in result)
    throw new DomainError(
      'refused',
      'promoRejected',
      `Promo code ${payload.code} was refused.`,
      toViolations(result.issues),
    )
  return result.definition
}

const findCode = async (db: DbOrTx, code: string) =>
  (await db.select().from(promoCode).where(eq(promoCode.code, code)))[0]

/** A new code (409 when it exists) or a change to one (404 when it does not), as a pending proposal. */
export async function proposePromo(
  db: DbOrTx,
  proposal: { action: 'create' | 'change'; code: string; terms: PromoChange; by: number },
) {
  const existing = await findCode(db, proposal.code)
  if (proposal.action === 'create' && existing)
    throw conflict('promoCodeExists', `The promo code ${proposal.code} exists: propose a change to it.`)
  if (proposal.action === 'change' && !existing) throw notFound('Promo code')
  const { note, ...terms } = proposal.terms
  const payload: PromoProposalPayload = { action: proposal.action, code: proposal.code, ...terms }
  checked(payload)
  return propose(db, { kind: 'promo_code', subject: proposal.code, payload, note, proposedBy: proposal.by })
}

const columnsOf = (definition: PromoDefinition, description: string) => ({
  validFrom: definition.validFrom,
  validTo: definition.validTo,
  clientKinds: [...definition.clientKinds],
  maxUses: definition.maxUses,
  usesPerClient: definition.usesPerClient,
  interestDiscountBps: definition.interestDiscountBps,
  serviceFeeDiscountBps: definition.serviceFeeDiscountBps,
  description,
})

registerExecutor('promo_code', {
  execute: async ({ tx, proposal }) => {
    const payload = proposal.payload as PromoProposalPayload
    const definition = checked(payload)
    const before = (
      await tx.select().from(promoCode).where(eq(promoCode.code, definition.code)).for('update')
    )[0]
    const columns = columnsOf(definition, payload.description ?? '')
    const [after] = await tx
      .insert(promoCode)
      .values({ code: definition.code, ...columns })
      .onConflictDoUpdate({ target: promoCode.code, set: columns })
      .returning()
    await recordChange(tx, { entity: 'promo_code', entityId: definition.code, before: before ?? null, after })
    return {
      code: definition.code,
      action: before ? 'change' : 'create',
      validFrom: definition.validFrom.toISOString(),
      validTo: definition.validTo.toISOString(),
    }
  },
})
