/**
 * The sandbox payment gateway (issue 16, item 5): a gateway of its own inside this process that behaves like the
 * real ones (PayMongo, Xendit), so the whole way a repayment travels is exercised before any real provider is
 * signed up:
 *
 * - It keeps its own books (`sandbox_charge`, `sandbox_event`): a charge is a checkout the payer opens (e-wallets:
 *   `/sandbox/checkout/{id}`, Pay / Fail) or a payment QA makes arrive at a channel.
 * - Each change of a charge is an event (`payment.paid`, `payment.failed`, `payment.expired`), delivered over HTTP
 *   to our endpoint `POST /web/public/payments/webhook/sandbox`, signed
 *   `Hiram-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">` at each attempt (so a retry is never
 *   stale). A 2xx answer marks it delivered; anything else (or no answer) is retried with backoff
 *   (SANDBOX_RETRY_DELAYS_MS) up to SANDBOX_MAX_ATTEMPTS attempts.
 * - Reconciliation asks it which charges it marked paid (`paidSince`).
 *
 * Deliveries never run inside a transaction (PGlite is one connection: GUIDE section 5): an event is written with
 * its charge, committed, then posted. An event is claimed for an attempt with FOR UPDATE SKIP LOCKED and a lease
 * (`next_attempt_at` pushed past the attempt), so several processes share the retries without sending one event
 * twice at once; a process that stops mid-attempt leaves the event due again when the lease ends.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, asc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm'
import type { PaymentChannelCode } from '../../domain/payments/channels'
import type { Secrets } from '../auth/secrets'
import type { DbOrTx } from '../db/client'
import { errorForLog } from '../db/errors'
import { sandboxCharge, sandboxEvent } from '../db/schema-payments'
import type { AppDeps } from '../deps'
import type { CheckoutRequest, GatewayPayment, PaymentGateway } from './payment-gateway'

export const SANDBOX_GATEWAY = 'sandbox'
export const SIGNATURE_HEADER = 'Hiram-Signature'
/** How far a signature's timestamp may be from our clock, either way (the replay window). */
export const SIGNATURE_TOLERANCE_SECONDS = 300
export const SANDBOX_WEBHOOK_PATH = '/web/public/payments/webhook/sandbox'
/** The browser page of a checkout (the web app's route), followed by the charge id. */
export const SANDBOX_CHECKOUT_PAGE = '/sandbox/checkout/'
/** The wait after each failed attempt: the n-th failure waits the n-th delay (PayMongo/Xendit-like). */
export const SANDBOX_RETRY_DELAYS_MS: readonly number[] = [
  10_000, // 10 s
  30_000, // 30 s
  120_000, // 2 min
  600_000, // 10 min
  3_600_000, // 1 h
  7_200_000, // 2 h
  14_400_000, // 4 h
  28_800_000, // 8 h
  43_200_000, // 12 h
]
/** Attempts before the gateway gives up on an event (reconciliation still finds its payment). */
export const SANDBOX_MAX_ATTEMPTS = SANDBOX_RETRY_DELAYS_MS.length + 1
/** An attempt's lease: no other worker takes the event while it is being posted (the post times out sooner). */
export const DELIVERY_LEASE_MS = 60_000
/** A checkout nobody paid or failed expires after a day, as a gateway's checkout session does. */
export const CHECKOUT_TTL_MS = 24 * 3_600_000

/** The wait after the `attempts`-th failed attempt, or null when the gateway gives up. */
export function retryDelayMs(attempts: number): number | null {
  if (!Number.isInteger(attempts) || attempts < 1 || attempts >= SANDBOX_MAX_ATTEMPTS) return null
  return SANDBOX_RETRY_DELAYS_MS[attempts - 1] ?? null
}

export type GatewaySecret = string | Uint8Array
/** Posts a webhook to our endpoint: `fetch` to this server's own port, or the app in-process in tests. */
export type DeliverWebhook = (request: Request) => Promise<Response>

export interface SandboxGatewayOptions {
  /** The signing key, or how to get it once it is known (server/main.ts loads the secrets after the providers). */
  secret: GatewaySecret | (() => GatewaySecret)
  deliver: DeliverWebhook
}

/** The sandbox's signing key derived from the server's own secrets (one secret to manage, never reused). */
export const sandboxGatewayKey = (secrets: Secrets): Uint8Array =>
  createHmac('sha256', secrets.jwtSecret).update('hiram sandbox gateway webhooks').digest()

const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000)

function hmacOf(secret: GatewaySecret, timestamp: number, rawBody: string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest()
}

/** The `Hiram-Signature` value for a body sent at `at`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">`. */
export function signatureFor(secret: GatewaySecret, rawBody: string, at: Date): string {
  const t = unixSeconds(at)
  return `t=${t},v1=${hmacOf(secret, t, rawBody).toString('hex')}`
}

/** A header longer than this, or with more signatures, is not one the sandbox sends: refused unread. */
const MAX_HEADER_LENGTH = 1024
const MAX_SIGNATURES = 8

/**
 * The header's timestamp and v1 signatures, or null when malformed: every part is `key=value`; exactly one `t`
 * (whole seconds); at least one `v1`, each 64 hex digits (several while keys rotate). Parts of other schemes are
 * skipped, as the real gateways' verifiers do.
 */
export function parseSignature(header: string | null): { t: number; v1: Buffer[] } | null {
  if (header === null || header.length > MAX_HEADER_LENGTH) return null
  let t: number | undefined
  const v1: Buffer[] = []
  for (const part of header.split(',')) {
    const at = part.indexOf('=')
    if (at <= 0) return null
    const key = part.slice(0, at).trim()
    const value = part.slice(at + 1).trim()
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return null
      t = Number(value)
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null
      v1.push(Buffer.from(value, 'hex'))
    }
  }
  if (t === undefined || v1.length === 0 || v1.length > MAX_SIGNATURES) return null
  return { t, v1 }
}

/**
 * Whether `header` signs `rawBody` with `secret` within the replay window of `now` (5 minutes either way). Any one
 * matching v1 passes; each is compared in constant time, and all are compared.
 */
export function verifySignature(
  secret: GatewaySecret,
  header: string | null,
  rawBody: string,
  now: Date,
): boolean {
  const parsed = parseSignature(header)
  if (!parsed) return false
  if (Math.abs(unixSeconds(now) - parsed.t) > SIGNATURE_TOLERANCE_SECONDS) return false
  const expected = hmacOf(secret, parsed.t, rawBody)
  let matched = false
  for (const candidate of parsed.v1) matched = timingSafeEqual(expected, candidate) || matched
  return matched
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** `length` random letters and digits, uniformly (bytes from 248 up are dropped: 248 = 4 * 62). */
export function randomAlphanumeric(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte >= 248) continue
      out += ALPHANUMERIC[byte % 62]
      if (out.length === length) break
    }
  }
  return out
}

export const newChargeId = () => `chg_${randomAlphanumeric(24)}`
export const newEventId = () => `evt_${randomAlphanumeric(24)}`

export interface SandboxGateway extends PaymentGateway {
  readonly name: typeof SANDBOX_GATEWAY
  /** The Hiram-Signature value for a body sent at `at` (QA and tests sign events of their own with it). */
  sign(rawBody: string, at: Date): string
  /** Posts a signed body to our webhook endpoint; the status answered, or null when none came. */
  post(rawBody: string, at: Date): Promise<number | null>
}

export function isSandboxGateway(gateway: PaymentGateway): gateway is SandboxGateway {
  return gateway.name === SANDBOX_GATEWAY && typeof (gateway as Partial<SandboxGateway>).post === 'function'
}

export function createSandboxGateway(options: SandboxGatewayOptions): SandboxGateway {
  const secret = () => (typeof options.secret === 'function' ? options.secret() : options.secret)
  return {
    name: SANDBOX_GATEWAY,

    async createCheckout(db: DbOrTx, request: CheckoutRequest, now: Date) {
      const id = newChargeId()
      await db.insert(sandboxCharge).values({
        id,
        reference: request.reference,
        amount: request.amount,
        channel: request.channel,
        status: 'pending',
        returnPath: request.returnPath,
        createdAt: now,
      })
      return { id, url: `${SANDBOX_CHECKOUT_PAGE}${id}` }
    },

    verifyWebhook(headers: Headers, rawBody: string, now: Date) {
      return verifySignature(secret(), headers.get(SIGNATURE_HEADER), rawBody, now)
    },

    async paidSince(db: DbOrTx, since: Date): Promise<GatewayPayment[]> {
      const rows = await db
        .select()
        .from(sandboxCharge)
        .where(and(eq(sandboxCharge.status, 'paid'), gte(sandboxCharge.settledAt, since)))
        .orderBy(asc(sandboxCharge.settledAt))
      return rows.map((row) => ({
        providerPaymentId: row.id,
        reference: row.reference,
        amount: row.amount,
        channel: row.channel as PaymentChannelCode,
        paidAt: row.settledAt ?? row.createdAt,
      }))
    },

    sign(rawBody: string, at: Date) {
      return signatureFor(secret(), rawBody, at)
    },

    async post(rawBody: string, at: Date) {
      const request = new Request(`http://sandbox-gateway.invalid${SANDBOX_WEBHOOK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Hiram-Sandbox-Gateway/1',
          [SIGNATURE_HEADER.toLowerCase()]: signatureFor(secret(), rawBody, at),
        },
        body: rawBody,
      })
      const response = await options.deliver(request)
      // Only the status counts; the body is dropped so the connection is freed.
      await response.body?.cancel().catch(() => {})
      return response.status
    },
  }
}

// ---------------------------------------------------------------------------------------------------------
// The gateway's books: charges, their events, and the delivery of those events.

export type SandboxCharge = typeof sandboxCharge.$inferSelect
type SandboxEventRow = typeof sandboxEvent.$inferSelect
export type SandboxEventType = 'payment.paid' | 'payment.failed' | 'payment.expired'
type SandboxDeps = Pick<AppDeps, 'database' | 'now' | 'logger'>

/** The event body, as domain/contract/payments.ts `gatewayEventSchema` reads it. */
function eventPayload(id: string, type: SandboxEventType, charge: SandboxCharge, at: Date) {
  return {
    id,
    type,
    createdAt: at.toISOString(),
    data: {
      paymentId: charge.id,
      reference: charge.reference,
      amount: charge.amount,
      currency: 'PHP',
      channel: charge.channel,
      ...(type === 'payment.paid' ? { paidAt: (charge.settledAt ?? at).toISOString() } : {}),
    },
  }
}

/**
 * Writes an event of a charge. `sendNow`: the writer makes the first attempt itself once committed, so the event
 * starts leased to it (a crash before the attempt leaves it to the retries); otherwise it is due at once.
 */
async function insertEvent(
  db: DbOrTx,
  charge: SandboxCharge,
  type: SandboxEventType,
  at: Date,
  sendNow: boolean,
) {
  const id = newEventId()
  const [row] = await db
    .insert(sandboxEvent)
    .values({
      id,
      chargeId: charge.id,
      type,
      payload: eventPayload(id, type, charge, at),
      createdAt: at,
      attempts: sendNow ? 1 : 0,
      nextAttemptAt: sendNow ? new Date(at.getTime() + DELIVERY_LEASE_MS) : at,
    })
    .returning()
  return row!
}

/** One attempt at an event already counted and leased: posts it, then records the answer and the next try. */
async function attempt(
  deps: SandboxDeps,
  gateway: SandboxGateway,
  event: SandboxEventRow,
): Promise<{ delivered: boolean; status: number | null }> {
  let status: number | null = null
  try {
    status = await gateway.post(JSON.stringify(event.payload), deps.now())
  } catch (error) {
    deps.logger.warn(
      { eventId: event.id, attempt: event.attempts, err: errorForLog(error) },
      'sandbox webhook unanswered',
    )
  }
  const delivered = status !== null && status >= 200 && status < 300
  const now = deps.now()
  const delay = delivered ? null : retryDelayMs(event.attempts)
  await deps.database.db
    .update(sandboxEvent)
    .set({
      lastStatus: status,
      deliveredAt: delivered ? now : null,
      nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
    })
    .where(eq(sandboxEvent.id, event.id))
  if (!delivered)
    deps.logger.warn(
      { eventId: event.id, chargeId: event.chargeId, attempt: event.attempts, status, retry: delay !== null },
      delay === null ? 'sandbox webhook given up' : 'sandbox webhook failed',
    )
  return { delivered, status }
}

export async function findSandboxCharge(db: DbOrTx, id: string): Promise<SandboxCharge | null> {
  const [row] = await db.select().from(sandboxCharge).where(eq(sandboxCharge.id, id))
  return row ?? null
}

const isStale = (charge: SandboxCharge, now: Date) =>
  now.getTime() - charge.createdAt.getTime() > CHECKOUT_TTL_MS

/**
 * The payer presses Pay or Fail on a checkout: a pending charge becomes paid or failed (expired when its day has
 * passed) and its event is delivered before this answers. A charge already settled is answered as it is, so a
 * second press changes nothing. Null when there is no such charge.
 */
export async function completeSandboxCheckout(
  deps: SandboxDeps,
  gateway: SandboxGateway,
  id: string,
  outcome: 'pay' | 'fail',
): Promise<SandboxCharge | null> {
  const now = deps.now()
  const settled = await deps.database.db.transaction(async (tx) => {
    const [charge] = await tx.select().from(sandboxCharge).where(eq(sandboxCharge.id, id)).for('update')
    if (charge?.status !== 'pending') return { charge: charge ?? null, event: null }
    const status = isStale(charge, now) ? 'expired' : outcome === 'pay' ? 'paid' : 'failed'
    const [updated] = await tx
      .update(sandboxCharge)
      .set({ status, settledAt: now })
      .where(eq(sandboxCharge.id, id))
      .returning()
    const event = await insertEvent(tx, updated!, `payment.${status}` as SandboxEventType, now, true)
    return { charge: updated!, event }
  })
  if (settled.event) await attempt(deps, gateway, settled.event)
  return settled.charge
}

export interface SandboxPaymentInput {
  reference: string
  /** Centavos. */
  amount: number
  channel: PaymentChannelCode
}

/**
 * QA makes a payment arrive at a channel: a charge paid now, whose signed event is posted before this answers
 * (`delivered` and the endpoint's `status`); a failed first attempt is retried like any other.
 */
export async function sendSandboxPayment(
  deps: SandboxDeps,
  gateway: SandboxGateway,
  input: SandboxPaymentInput,
) {
  const now = deps.now()
  const event = await deps.database.db.transaction(async (tx) => {
    const [charge] = await tx
      .insert(sandboxCharge)
      .values({
        id: newChargeId(),
        reference: input.reference,
        amount: input.amount,
        channel: input.channel,
        status: 'paid',
        createdAt: now,
        settledAt: now,
      })
      .returning()
    return insertEvent(tx, charge!, 'payment.paid', now, true)
  })
  const { delivered, status } = await attempt(deps, gateway, event)
  return { chargeId: event.chargeId, eventId: event.id, delivered, status }
}

/** Checkouts left pending past their day expire, each with its `payment.expired` event (due at once). */
export async function expireSandboxCheckouts(deps: SandboxDeps): Promise<number> {
  const now = deps.now()
  return deps.database.db.transaction(async (tx) => {
    const expired = await tx
      .update(sandboxCharge)
      .set({ status: 'expired', settledAt: now })
      .where(
        and(
          eq(sandboxCharge.status, 'pending'),
          lt(sandboxCharge.createdAt, new Date(now.getTime() - CHECKOUT_TTL_MS)),
        ),
      )
      .returning()
    for (const charge of expired) await insertEvent(tx, charge, 'payment.expired', now, false)
    return expired.length
  })
}

/** Takes up to `limit` due events for one attempt each: counted and leased in one short transaction. */
async function claimDueEvents(deps: SandboxDeps, limit: number): Promise<SandboxEventRow[]> {
  const now = deps.now()
  return deps.database.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: sandboxEvent.id })
      .from(sandboxEvent)
      .where(and(isNull(sandboxEvent.deliveredAt), lte(sandboxEvent.nextAttemptAt, now)))
      .orderBy(asc(sandboxEvent.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true })
    if (!due.length) return []
    return tx
      .update(sandboxEvent)
      .set({
        attempts: sql`${sandboxEvent.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS),
      })
      .where(
        inArray(
          sandboxEvent.id,
          due.map((e) => e.id),
        ),
      )
      .returning()
  })
}

/**
 * The sandbox's retry job: one attempt at each event whose time has come (a first attempt that failed, or an
 * event of an expired checkout). Answers how many were delivered; 0 when the gateway is not the sandbox.
 */
export async function deliverDueSandboxEvents(
  deps: SandboxDeps & Pick<AppDeps, 'paymentGateway'>,
  limit = 50,
): Promise<number> {
  const gateway = deps.paymentGateway
  if (!isSandboxGateway(gateway)) return 0
  let delivered = 0
  for (const event of await claimDueEvents(deps, limit))
    if ((await attempt(deps, gateway, event)).delivered) delivered++
  return delivered
}
