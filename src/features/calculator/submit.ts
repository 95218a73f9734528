/**
 * Spec section 4, Submit from the calculator. The calculator machine decides (`calculator.submit` carries the
 * decision) and the calculator-submit machine carries it out (machines/calculator-submit.machine.ts: its states
 * name the page, the route guards take the client there). This module is the one call it makes: the application
 * of spec section 7, made from the calculator's figures (the apply form makes it the same way).
 */
import { AFFILIATE_COOKIE, type Campaign } from '../../../domain/campaign'
import {
  type CreateApplicationBody,
  createApplication as createApplicationCall,
} from '../../../domain/contract/lending'
import type { ApplicationFigures } from '../../../machines/calculator-submit.machine'
import type { ApiClient } from '../../api/client'
import { readCookie, removeCookie } from '../../app/cookies'
import type { FraudSignals } from '../../app/tracking/signals'

export type { ApplicationFigures }

/** The body of the application (spec section 7) as its contract takes it; money in centavos (ADR 0002). */
export function createApplicationBody(
  decision: ApplicationFigures,
  campaign: Campaign | null,
  signals: FraudSignals | null = null,
  marketing: Record<string, string> | null = null,
): CreateApplicationBody {
  return {
    loanAmount: { amount: decision.amount, currency: 'PHP' },
    term: { value: decision.term, unit: 'day' },
    paymentMethod: 'bank_transfer',
    consents: { acceptBorrowersAdvantagePackageFee: decision.optionalFee },
    ...(decision.promoCode ? { promoCode: decision.promoCode } : {}),
    // The device blackbox and the fraud tools' ids, collected only after the device-data consent (ADR 0042):
    // without it the blackbox is the empty string the spec's body still carries.
    iovation: { ioBB: signals?.ioBB ?? '' },
    ...(signals?.hotjarUserId ? { hotjarUserId: signals.hotjarUserId } : {}),
    ...(signals?.seonSession ? { seonSession: signals.seonSession } : {}),
    ...(signals?.juicySessionId ? { juicySessionId: signals.juicySessionId } : {}),
    ...(marketing ? { marketing } : {}),
    ...(campaign ? { affiliate: campaign } : {}),
  }
}

// Read here rather than through features/campaign: a feature does not reach into another (GUIDE section 1).
export function readAffiliate(): Campaign | null {
  const raw = readCookie(AFFILIATE_COOKIE)
  if (!raw) return null
  try {
    const parsed: unknown = JSON.parse(raw)
    return typeof parsed === 'object' && parsed !== null ? (parsed as Campaign) : null
  } catch {
    return null
  }
}

/** A fresh Idempotency-Key for one attempt to apply: a retry of the same attempt sends the same key. */
export function newIdempotencyKey(): string {
  return `apply-${crypto.randomUUID()}`
}

/**
 * The fraud signals (once the client consented and they were collected) and the marketing data, from a module
 * loaded only now: none of it is on the home route's critical path (ADR 0042).
 */
async function applicationSignals(): Promise<[FraudSignals | null, Record<string, string> | null]> {
  try {
    const signals = await import('../../app/tracking/signals')
    return [await signals.fraudSignals(), signals.readMarketing()]
  } catch {
    return [null, null]
  }
}

/**
 * Creates the application with the campaign parameters of the affiliate cookie, and removes the cookie once the
 * server accepted them (spec section 2, Campaign parameters). `quiet`: a 500 here is the caller's to show ('ERP
 * failed to create application', spec section 8), not the full page.
 */
export async function createApplication(
  api: ApiClient,
  figures: ApplicationFigures,
  idempotencyKey: string = newIdempotencyKey(),
) {
  const created = await api.call(
    createApplicationCall,
    { body: createApplicationBody(figures, readAffiliate(), ...(await applicationSignals())) },
    { headers: { 'Idempotency-Key': idempotencyKey }, quiet: true },
  )
  removeCookie(AFFILIATE_COOKIE)
  return created
}
