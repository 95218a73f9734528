/**
 * Pricing on the server: the lending configuration (calculator limits + pricing parameters) read from the
 * database, promo codes resolved from their rows, and offers computed by the pure engine in domain/pricing.
 * The offer call is the hottest path of the API (every slider move), so the configuration is cached for a
 * few seconds per process; saving a document clears this process's cache at once.
 */
import { and, count, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { type CalculatorConfig, calculatorConfigSchema } from '../../domain/calculator-config'
import type { PricedOffer } from '../../domain/contract/pricing-answers'
import { DomainError, invalid } from '../../domain/errors'
import type { ClientKind } from '../../domain/offer'
import {
  type PricingConfig,
  pricingConfigShapeSchema,
  validateLendingConfig,
} from '../../domain/pricing/config'
import { manilaDate } from '../../domain/pricing/manila-date'
import { computeOffer, OfferRequestError } from '../../domain/pricing/offer'
import {
  evaluatePromo,
  type PromoDefinition,
  type PromoStatus,
  type ResolvedPromo,
} from '../../domain/pricing/promo'
import type { DbOrTx } from '../db/client'
import { promoCode, promoRedemption } from '../db/schema'
import { nextEffectiveAt, readVersion } from './config'
import { unusedReferralReward } from './referrals/reward-balance'

// The wire type of an offer is the contract's (domain/contract/pricing.ts); re-exported for server/http/routes/pricing.ts
// until it imports it from there.
export type { PricedOffer }

export interface LendingConfig {
  calculator: CalculatorConfig
  pricing: PricingConfig
  /** The configuration versions in force (config_version): every offer says which versions priced it. */
  versions: { calculator: number; pricing: number }
}

const CACHE_MS = 5_000
const LENDING_KEYS = ['calculator', 'pricing']

interface CacheEntry {
  at: number
  /** A version approved to take effect later: the cache is read again from that moment, without a restart. */
  until: number
  value: Promise<LendingConfig>
  resolved?: LendingConfig
}

/** Per database handle, so two databases in one process (tests) never share a configuration. */
const cache = new WeakMap<object, CacheEntry>()

const readLendingConfig = async (db: DbOrTx, at = new Date()) => {
  const [calculator, pricing, next] = await Promise.all([
    readVersion(db, 'calculator', at),
    readVersion(db, 'pricing', at),
    nextEffectiveAt(db, LENDING_KEYS, at),
  ])
  if (!calculator || !pricing)
    throw new DomainError('unavailable', 'configMissing', 'The lending configuration is not set.')
  const config: LendingConfig = {
    calculator: v.parse(calculatorConfigSchema, calculator.value),
    pricing: v.parse(pricingConfigShapeSchema, pricing.value),
    versions: { calculator: calculator.version, pricing: pricing.version },
  }
  return { config, until: next ? next.getTime() : Number.POSITIVE_INFINITY }
}

const fresh = (entry: CacheEntry | undefined, now: number) =>
  entry !== undefined && now - entry.at <= CACHE_MS && now < entry.until

export function lendingConfig(db: DbOrTx): Promise<LendingConfig> {
  const now = Date.now()
  const hit = cache.get(db)
  if (hit && fresh(hit, now)) return hit.value
  const read = readLendingConfig(db, new Date(now))
  const value = read.then((r) => r.config)
  const entry: CacheEntry = { at: now, until: Number.POSITIVE_INFINITY, value }
  cache.set(db, entry)
  read.then(
    (r) => {
      entry.until = r.until
      entry.resolved = r.config
    },
    () => {
      if (cache.get(db) === entry) cache.delete(db)
    },
  )
  return value
}

/** The configuration if the cache holds a fresh one already read: lets the hottest path skip a promise. */
export function freshLendingConfig(db: DbOrTx): LendingConfig | undefined {
  const hit = cache.get(db)
  return fresh(hit, Date.now()) ? hit!.resolved : undefined
}

export const forgetLendingConfig = (db: DbOrTx) => cache.delete(db)

/**
 * Checks a proposed calculator or pricing document against the one in force for the other key. Both are checked
 * together: the legal caps only make sense for a pricing over the calculator's ranges, so widening a range can be
 * refused as much as raising a fee. Read straight from the database, never from the cache.
 */
export async function checkLendingDocument(db: DbOrTx, key: 'calculator' | 'pricing', value: unknown) {
  const { config: current } = await readLendingConfig(db)
  const next = {
    calculator: current.calculator as unknown,
    pricing: current.pricing as unknown,
    [key]: value,
  }
  const violations = validateLendingConfig(next as { calculator: CalculatorConfig; pricing: PricingConfig })
  if (violations.length) {
    throw new DomainError(
      'refused',
      'configRejected',
      `The ${key} configuration was refused: it would break a rule.`,
      violations,
    )
  }
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

/** What the pricing engine is asked: for whom, which figures, and the limits of the asker. */
export interface PricingRequest {
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

/**
 * Values kept per configuration read, by a string key, at most `limit` of them: the oldest go first (a Map
 * iterates in insertion order). A new read of the configuration (every CACHE_MS, or at once after a save in
 * this process) starts empty, so nothing kept is older than the configuration cache itself.
 */
export class ConfigMemo<V> {
  readonly #byConfig = new WeakMap<LendingConfig, Map<string, V>>()
  constructor(private readonly limit: number) {}

  get(config: LendingConfig, key: string): V | undefined {
    return this.#byConfig.get(config)?.get(key)
  }

  set(config: LendingConfig, key: string, value: V) {
    let values = this.#byConfig.get(config)
    if (!values) {
      values = new Map()
      this.#byConfig.set(config, values)
    }
    if (values.size >= this.limit) values.delete(values.keys().next().value as string)
    values.set(key, value)
  }
}

/**
 * Offers already priced. The offer is a pure function of the configuration, the request and the Manila date,
 * and the calculator asks for the same grid points over and over (every slider move of every visitor), so each
 * is computed once. The limit is about the whole grid of one configuration (amounts x terms x fee choice x
 * client kinds) for a day. Entries are frozen: callers share them.
 */
export const OFFER_MEMO_LIMIT = 20_000
const offerMemo = new ConfigMemo<PricedOffer>(OFFER_MEMO_LIMIT)

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

/**
 * Prices one request; out-of-range input is a 400 with violations, never a clamped answer. A client's offer takes
 * their unused referral reward off its service fee (ADR 0041).
 */
export async function priceOffer(db: DbOrTx, request: PricingRequest, now: Date): Promise<PricedOffer> {
  const config = await lendingConfig(db)
  const promo = request.promoCode
    ? await checkPromo(db, request.promoCode, request.kind, now, request.clientId)
    : null
  const referralCredit = request.clientId === undefined ? 0 : await unusedReferralReward(db, request.clientId)
  return priceWith(config, request, promo, now, referralCredit)
}

/**
 * priceOffer without a single await when nothing needs the database (the configuration is cached and no promo
 * code is asked): the calculator's slider traffic, the hottest path of the API.
 */
export function priceOfferNow(
  db: DbOrTx,
  request: PricingRequest,
  now: Date,
): PricedOffer | Promise<PricedOffer> {
  const config = request.promoCode || request.clientId !== undefined ? undefined : freshLendingConfig(db)
  return config ? priceWith(config, request, null, now, 0) : priceOffer(db, request, now)
}

function priceWith(
  config: LendingConfig,
  request: PricingRequest,
  promo: PromoCheck | null,
  now: Date,
  referralCredit: number,
) {
  if (request.maxAmount !== undefined && request.amount > request.maxAmount) {
    throw invalid([{ propertyPath: 'amount', message: 'The amount is above the amount available to you.' }])
  }
  const today = manilaDate(now)
  const discounts = promo?.promo
  const key = `${request.kind}|${request.amount}|${request.term}|${request.withPackageFee}|${request.additionalLoan ?? false}|${today}|${promo ? `${promo.code}:${promo.status}` : ''}|${discounts ? `${discounts.interestDiscountBps}:${discounts.serviceFeeDiscountBps}` : ''}|${referralCredit}`
  const known = offerMemo.get(config, key)
  if (known) return known
  try {
    const offer = computeOffer({
      pricing: config.pricing,
      calculator: config.calculator,
      kind: request.kind,
      amount: request.amount,
      term: request.term,
      promo: discounts,
      withPackageFee: request.withPackageFee,
      today,
      additionalLoan: request.additionalLoan,
      referralCredit,
    })
    const priced: PricedOffer = deepFreeze({
      ...offer,
      promo: promo ? { code: promo.code, status: promo.status, applied: promo.valid } : null,
      configVersion: config.versions,
    })
    offerMemo.set(config, key, priced)
    return priced
  } catch (error) {
    if (error instanceof OfferRequestError) throw invalid(error.violations)
    throw error
  }
}
