/**
 * Pricing on the server: the lending configuration (calculator limits + pricing parameters) read from the
 * database, promo codes resolved from their rows, and offers computed by the pure engine in domain/pricing.
 * The offer call is the hottest path of the API (every slider move), so the configuration is cached for a
 * few seconds per process; saving a document clears this process's cache at once.
 */
import { and, count, eq, sql } from 'drizzle-orm'
import { type CalculatorConfig, calculatorConfigSchema } from '../../domain/calculator-config'
import type { ClientKind, Offer } from '../../domain/offer'
import {
  type PricingConfig,
  pricingConfigShapeSchema,
  validateLendingConfig,
} from '../../domain/pricing/config'
import { computeOffer, OfferRequestError } from '../../domain/pricing/offer'
import {
  evaluatePromo,
  type PromoDefinition,
  type PromoStatus,
  type ResolvedPromo,
} from '../../domain/pricing/promo'
import type { DbOrTx } from '../db/client'
import { config, configAudit, promoCode, promoRedemption } from '../db/schema'
import { ApiError, validationFailed } from '../http/errors'
import { readConfig } from './config'

export interface LendingConfig {
  calculator: CalculatorConfig
  pricing: PricingConfig
}

const CACHE_MS = 5_000
/** Per database handle, so two databases in one process (tests) never share a configuration. */
const cache = new WeakMap<object, { at: number; value: Promise<LendingConfig> }>()

const readLendingConfig = async (db: DbOrTx): Promise<LendingConfig> => {
  const [calculator, pricing] = await Promise.all([
    readConfig(db, 'calculator', calculatorConfigSchema),
    readConfig(db, 'pricing', pricingConfigShapeSchema),
  ])
  return { calculator, pricing }
}

export function lendingConfig(db: DbOrTx): Promise<LendingConfig> {
  const now = Date.now()
  const hit = cache.get(db)
  if (hit && now - hit.at <= CACHE_MS) return hit.value
  const value = readLendingConfig(db)
  cache.set(db, { at: now, value })
  value.catch(() => {
    if (cache.get(db)?.value === value) cache.delete(db)
  })
  return value
}

export const forgetLendingConfig = (db: DbOrTx) => cache.delete(db)

/**
 * Saves the calculator or the pricing document. Both are checked together: the legal caps only make sense
 * for a pricing over the calculator's ranges, so widening a range can be refused as much as raising a fee.
 */
export async function saveLendingConfig(
  db: DbOrTx,
  key: 'calculator' | 'pricing',
  value: unknown,
  note: string,
) {
  const current = await readLendingConfig(db)
  const next = { ...current, [key]: value }
  const violations = validateLendingConfig(next)
  if (violations.length) {
    throw new ApiError(
      422,
      'configRejected',
      `The ${key} configuration was refused: it would break a rule.`,
      violations,
    )
  }
  await db.transaction(async (tx) => {
    await tx
      .insert(config)
      .values({ key, value: next[key] })
      .onConflictDoUpdate({
        target: config.key,
        set: { value: next[key], version: sql`${config.version} + 1`, updatedAt: sql`now()` },
      })
    await tx.insert(configAudit).values({ key, value: next[key], note })
  })
  forgetLendingConfig(db)
  return next[key]
}

function toDefinition(row: typeof promoCode.$inferSelect): PromoDefinition {
  return {
    code: row.code,
    validFrom: row.validFrom,
    validTo: row.validTo,
    clientKinds: row.clientKinds as ClientKind[],
    maxUses: row.maxUses,
    usesPerClient: row.usesPerClient,
    interestDiscountBps: row.interestDiscountBps,
    serviceFeeDiscountBps: row.serviceFeeDiscountBps,
  }
}

export interface PromoCheck {
  code: string
  status: PromoStatus
  valid: boolean
  promo?: ResolvedPromo
}

/** Resolves a code for a kind of client (and a client id when logged in, for per-client limits). */
export async function checkPromo(
  db: DbOrTx,
  code: string,
  kind: ClientKind,
  now: Date,
  clientId?: number,
): Promise<PromoCheck> {
  const [row] = await db.select().from(promoCode).where(eq(promoCode.code, code))
  if (!row) return { code, status: 'unknown', valid: false }
  const [total] = await db.select({ n: count() }).from(promoRedemption).where(eq(promoRedemption.code, code))
  const [mine] = clientId
    ? await db
        .select({ n: count() })
        .from(promoRedemption)
        .where(and(eq(promoRedemption.code, code), eq(promoRedemption.clientId, clientId)))
    : [{ n: 0 }]
  const result = evaluatePromo(toDefinition(row), {
    kind,
    now,
    totalUses: total?.n ?? 0,
    clientUses: mine?.n ?? 0,
  })
  return { code, status: result.status, valid: result.status === 'valid', promo: result.promo }
}

export interface OfferRequest {
  kind: ClientKind
  amount: number
  term: number
  withPackageFee: boolean
  promoCode?: string
  clientId?: number
  additionalLoan?: boolean
  /** Tighter maximum for a logged-in client: the available loan amount. */
  maxAmount?: number
}

export interface PricedOffer extends Offer {
  promo: { code: string; status: PromoStatus; applied: boolean } | null
}

/** Prices one request; out-of-range input is a 400 with violations, never a clamped answer. */
export async function priceOffer(db: DbOrTx, request: OfferRequest, now: Date): Promise<PricedOffer> {
  const { calculator, pricing } = await lendingConfig(db)
  if (request.maxAmount !== undefined && request.amount > request.maxAmount) {
    throw validationFailed([
      { propertyPath: 'amount', message: 'The amount is above the amount available to you.' },
    ])
  }
  const promo = request.promoCode
    ? await checkPromo(db, request.promoCode, request.kind, now, request.clientId)
    : null
  try {
    const offer = computeOffer({
      pricing,
      calculator,
      kind: request.kind,
      amount: request.amount,
      term: request.term,
      promo: promo?.promo,
      withPackageFee: request.withPackageFee,
      today: now,
      additionalLoan: request.additionalLoan,
    })
    return {
      ...offer,
      promo: promo ? { code: promo.code, status: promo.status, applied: promo.valid } : null,
    }
  } catch (error) {
    if (error instanceof OfferRequestError) throw validationFailed(error.violations)
    throw error
  }
}
