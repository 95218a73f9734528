/**
 * The payment gateway's side of getting paid (issue 16, item 5): its webhooks, reconciliation with its books, the
 * sandbox gateway's checkout and QA payments, and the job runner that retries deliveries and reconciles.
 *
 * A webhook is believed only once its signature over the exact bytes received checks out (401 otherwise, before
 * anything is parsed or written). It is then recorded in the inbox (`payment_event`, unique on the gateway and
 * the event id), so the same event delivered again answers `duplicate` and posts nothing; a paid event is handed
 * to the posting (posting.ts `receivePayment`, itself unique on the gateway's payment id, so neither a repeat under
 * another event id nor reconciliation posts a payment twice). Receipts go out after the posting committed.
 */
import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import * as v from 'valibot'
import { type GatewayEvent, gatewayEventSchema } from '../../../domain/contract/payments'
import { toViolations } from '../../../domain/contract/wire'
import { invalid, notFound, unauthenticated } from '../../../domain/errors'
import { channelOf } from '../../../domain/payments/channels'
import { errorForLog, errorSummary } from '../../db/errors'
import { payment, paymentEvent, paymentIntention, servicingJob } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import {
  completeSandboxCheckout as completeCheckout,
  deliverDueSandboxEvents,
  expireSandboxCheckouts,
  findSandboxCharge,
  isSandboxGateway,
  type SandboxCharge,
  type SandboxGateway,
  type SandboxPaymentInput,
  sendSandboxPayment as sendPayment,
} from '../../providers/payment-gateway-sandbox'
import { postPaidInBatch } from './batch-posting'
import { afterPosting, receivePayment } from './posting'

/** Receipts (afterPosting) may use any provider: the whole set. */
type GatewayDeps = AppDeps

/** What a webhook did: posted to a loan, kept unmatched, already received, or recorded only (failed, expired). */
export type WebhookOutcome = 'posted' | 'unmatched' | 'duplicate' | 'ignored'

/** An inbox row whose paid event is being posted (by this delivery, or a concurrent one of the same event). */
const RECEIVING = 'receiving'

const invalidSignature = () =>
  unauthenticated('invalidSignature', 'The webhook signature is missing, malformed, wrong or stale.')

function parseEvent(rawBody: string): GatewayEvent {
  let json: unknown
  try {
    json = JSON.parse(rawBody)
  } catch {
    throw invalid([{ propertyPath: '', message: 'The body is not valid JSON.' }])
  }
  const parsed = v.safeParse(gatewayEventSchema, json)
  if (!parsed.success) throw invalid(toViolations(parsed.issues))
  return parsed.output
}

/**
 * A gateway's webhook, as received: verified, parsed, recorded once, and for a paid event posted. `provider` is
 * the path's; a gateway this server does not run is a 404.
 */
export async function receiveWebhook(
  deps: GatewayDeps,
  provider: string,
  headers: Headers,
  rawBody: string,
): Promise<{ received: true; outcome: WebhookOutcome }> {
  const gateway = deps.paymentGateway
  if (provider !== gateway.name) throw notFound('Payment provider')
  // Real time, not the business clock: the replay window is a security timer.
  if (!gateway.verifyWebhook(headers, rawBody, deps.now())) throw invalidSignature()
  const event = parseEvent(rawBody)
  const outcome =
    event.type === 'payment.paid'
      ? (await postPaidInBatch(deps, provider, event)) === 'posted'
        ? 'posted'
        : await receivePaid(deps, provider, event)
      : await recordClosed(deps, provider, event)
  deps.logger.info(
    { provider, eventId: event.id, chargeId: event.data.paymentId, type: event.type, outcome },
    'gateway event',
  )
  return { received: true, outcome }
}

/** A failed or expired payment: recorded once, and the client's checkout intention closed with it. */
async function recordClosed(
  deps: GatewayDeps,
  provider: string,
  event: GatewayEvent,
): Promise<WebhookOutcome> {
  const now = deps.now()
  return deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(paymentEvent)
      .values({
        provider,
        eventId: event.id,
        type: event.type,
        providerPaymentId: event.data.paymentId,
        outcome: 'ignored',
        receivedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvent.id })
    if (!row) return 'duplicate'
    await tx
      .update(paymentIntention)
      .set({ status: event.type === 'payment.failed' ? 'failed' : 'expired' })
      .where(and(eq(paymentIntention.checkoutId, event.data.paymentId), eq(paymentIntention.status, 'open')))
    return 'ignored'
  })
}

/**
 * A paid event. The inbox row is written first; a delivery that finds it finished answers `duplicate` at once.
 * One that finds it still `receiving` (a concurrent delivery of the same event, or one whose process stopped
 * half-way) posts too: `receivePayment` records the payment once whoever asks, so nothing is posted twice and a
 * stopped delivery is finished by the gateway's retry.
 */
async function receivePaid(
  deps: GatewayDeps,
  provider: string,
  event: GatewayEvent,
): Promise<WebhookOutcome> {
  const db = deps.database.db
  const now = deps.now()
  const [inserted] = await db
    .insert(paymentEvent)
    .values({
      provider,
      eventId: event.id,
      type: event.type,
      providerPaymentId: event.data.paymentId,
      outcome: RECEIVING,
      receivedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: paymentEvent.id })
  let inboxId = inserted?.id
  if (inboxId === undefined) {
    const [existing] = await db
      .select({ id: paymentEvent.id, outcome: paymentEvent.outcome })
      .from(paymentEvent)
      .where(and(eq(paymentEvent.provider, provider), eq(paymentEvent.eventId, event.id)))
    if (!existing || existing.outcome !== RECEIVING) return 'duplicate'
    inboxId = existing.id
  }
  const { paymentId, outcome } = await receivePayment(deps, {
    provider,
    providerPaymentId: event.data.paymentId,
    reference: event.data.reference,
    amount: event.data.amount,
    channel: event.data.channel,
    paidAt: new Date(event.data.paidAt ?? event.createdAt),
    source: 'webhook',
  })
  // The delivery that posted writes what it did; a `duplicate` (reconciliation or another event of the same
  // payment got there first) is written only where nobody has written yet.
  await db
    .update(paymentEvent)
    .set({ outcome, paymentId })
    .where(
      outcome === 'duplicate'
        ? and(eq(paymentEvent.id, inboxId), eq(paymentEvent.outcome, RECEIVING))
        : eq(paymentEvent.id, inboxId),
    )
  if (outcome === 'posted') await receipts(deps, paymentId)
  return outcome
}

/** After the posting committed: receipts and the rest. A failure here is logged; the payment stays posted. */
async function receipts(deps: GatewayDeps, paymentId: number) {
  try {
    await afterPosting(deps, paymentId)
  } catch (error) {
    deps.logger.warn({ paymentId, err: errorForLog(error) }, 'after posting failed')
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reconciliation

/** How far back reconciliation compares the gateway's paid payments with ours. */
export const RECONCILE_WINDOW_MS = 7 * 86_400_000
/** How often the job runner reconciles (whichever process claims it first). */
export const RECONCILE_EVERY_MS = 10 * 60_000
/** A failed reconciliation is tried again after this. */
export const RECONCILE_RETRY_MS = 60_000
const RECONCILE_LEASE_MS = 5 * 60_000
export const RECONCILE_JOB = 'reconcile'
const CHUNK = 500

/**
 * Compares the payments the gateway marked paid in the last 7 days with ours and posts each one we have not
 * recorded (its webhook was lost, or never retried to the end). `checked`: the gateway's paid payments compared;
 * `posted`: the payments this run recorded (posted to a loan, or kept as unmatched).
 */
export async function reconcile(deps: GatewayDeps): Promise<{ checked: number; posted: number }> {
  const gateway = deps.paymentGateway
  const db = deps.database.db
  const paid = await gateway.paidSince(db, new Date(deps.now().getTime() - RECONCILE_WINDOW_MS))
  let posted = 0
  for (let at = 0; at < paid.length; at += CHUNK) {
    const chunk = paid.slice(at, at + CHUNK)
    const known = await db
      .select({ id: payment.providerPaymentId })
      .from(payment)
      .where(
        and(
          eq(payment.provider, gateway.name),
          inArray(
            payment.providerPaymentId,
            chunk.map((p) => p.providerPaymentId),
          ),
        ),
      )
    const recorded = new Set(known.map((row) => row.id))
    for (const missing of chunk.filter((p) => !recorded.has(p.providerPaymentId))) {
      const { paymentId, outcome } = await receivePayment(deps, {
        provider: gateway.name,
        ...missing,
        source: 'reconciliation',
      })
      // A webhook that arrived meanwhile posted it.
      if (outcome === 'duplicate') continue
      posted++
      deps.logger.info(
        { provider: gateway.name, chargeId: missing.providerPaymentId, paymentId, outcome },
        'reconciled',
      )
      if (outcome === 'posted') await receipts(deps, paymentId)
    }
  }
  return { checked: paid.length, posted }
}

/** Databases whose reconciliation row is known to exist (it is created once, on the first run). */
const scheduled = new WeakSet<object>()

/**
 * Runs reconciliation when it is due, in whichever process claims its `servicing_job` row first (FOR UPDATE SKIP
 * LOCKED and a lease, like the lending jobs): every RECONCILE_EVERY_MS across all processes. The row is recurring:
 * its `run_at` moves on and it is never done. Answers the run's figures, or null when it was not this one's turn.
 */
export async function reconcileIfDue(deps: GatewayDeps): Promise<{ checked: number; posted: number } | null> {
  const db = deps.database.db
  const now = deps.now()
  const subject = deps.paymentGateway.name
  if (!scheduled.has(deps.database)) {
    await db
      .insert(servicingJob)
      .values({ kind: RECONCILE_JOB, subjectId: subject, runAt: now, createdAt: now })
      .onConflictDoNothing()
    scheduled.add(deps.database)
  }
  const claimed = await db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: servicingJob.id })
      .from(servicingJob)
      .where(
        and(
          eq(servicingJob.kind, RECONCILE_JOB),
          eq(servicingJob.subjectId, subject),
          isNull(servicingJob.doneAt),
          lte(servicingJob.runAt, now),
          or(isNull(servicingJob.lockedUntil), lt(servicingJob.lockedUntil, now)),
        ),
      )
      .for('update', { skipLocked: true })
    if (!due) return null
    await tx
      .update(servicingJob)
      .set({
        lockedUntil: new Date(now.getTime() + RECONCILE_LEASE_MS),
        attempts: sql`${servicingJob.attempts} + 1`,
      })
      .where(eq(servicingJob.id, due.id))
    return due.id
  })
  if (claimed === null) return null
  try {
    const result = await reconcile(deps)
    await db
      .update(servicingJob)
      .set({
        runAt: new Date(now.getTime() + RECONCILE_EVERY_MS),
        lockedUntil: null,
        attempts: 0,
        lastError: null,
      })
      .where(eq(servicingJob.id, claimed))
    return result
  } catch (error) {
    deps.logger.error({ err: errorForLog(error) }, 'reconciliation failed')
    await db
      .update(servicingJob)
      .set({
        runAt: new Date(now.getTime() + RECONCILE_RETRY_MS),
        lockedUntil: null,
        lastError: errorSummary(error).slice(0, 500),
      })
      .where(eq(servicingJob.id, claimed))
    return null
  }
}

/**
 * One round of the gateway's background work: the sandbox expires abandoned checkouts and retries its due
 * deliveries; reconciliation runs when due. Safe in any number of processes at once.
 */
export async function runGatewayJobs(deps: GatewayDeps) {
  let delivered = 0
  if (isSandboxGateway(deps.paymentGateway)) {
    await expireSandboxCheckouts(deps)
    delivered = await deliverDueSandboxEvents(deps)
  }
  const reconciled = await reconcileIfDue(deps)
  return { delivered, reconciled }
}

/** Runs `runGatewayJobs` every `intervalMs`; the returned function stops it and waits for the current round. */
export function startGatewayWorker(deps: GatewayDeps, intervalMs = 5000): () => Promise<void> {
  let current: Promise<unknown> = Promise.resolve()
  let stopped = false
  const timer = setInterval(() => {
    if (stopped) return
    current = current.then(async () => {
      if (stopped) return
      await runGatewayJobs(deps).catch((error) =>
        deps.logger.error({ err: errorForLog(error) }, 'gateway worker'),
      )
    })
  }, intervalMs)
  timer.unref()
  return async () => {
    stopped = true
    clearInterval(timer)
    await current
  }
}

// ---------------------------------------------------------------------------------------------------------
// The sandbox gateway's own pages and QA calls: 404 unless the gateway is the sandbox.

function sandboxOf(deps: Pick<AppDeps, 'paymentGateway'>): SandboxGateway {
  if (!isSandboxGateway(deps.paymentGateway)) throw notFound('Route')
  return deps.paymentGateway
}

const MERCHANT = 'Hiram Lending Corporation'
const DEFAULT_RETURN_PATH = '/profile/repayment'

function checkoutView(charge: SandboxCharge) {
  return {
    id: charge.id,
    merchant: MERCHANT,
    amount: charge.amount,
    reference: charge.reference,
    channel: charge.channel,
    channelName: channelOf(charge.channel as Parameters<typeof channelOf>[0]).name,
    status: charge.status as 'pending' | 'paid' | 'failed' | 'expired',
    returnPath: charge.returnPath ?? DEFAULT_RETURN_PATH,
  }
}

/** The checkout page's charge. */
export async function sandboxCheckout(deps: GatewayDeps, id: string) {
  sandboxOf(deps)
  const charge = await findSandboxCharge(deps.database.db, id)
  if (!charge) throw notFound('Checkout')
  return checkoutView(charge)
}

/** Pay or Fail pressed: the charge as it is after (a second press changes nothing), its webhook already sent. */
export async function completeSandboxCheckout(deps: GatewayDeps, id: string, outcome: 'pay' | 'fail') {
  const charge = await completeCheckout(deps, sandboxOf(deps), id, outcome)
  if (!charge) throw notFound('Checkout')
  return checkoutView(charge)
}

/** QA makes a payment arrive at a channel: the sandbox sends its signed webhook before answering. */
export async function sendSandboxPayment(deps: GatewayDeps, input: SandboxPaymentInput) {
  return sendPayment(deps, sandboxOf(deps), input)
}
