/**
 * Issue 16, item 5 over the API: the gateway's signed webhooks post payments once, whatever is repeated or lost.
 * A signed paid event posts; a bad, missing or stale signature is a 401 that writes nothing; the same event 50
 * times at once posts once; an unknown reference is kept as unmatched; a failed delivery is retried with backoff;
 * reconciliation posts what a lost webhook missed; the sandbox checkout (Pay / Fail) and QA's sandbox payments
 * travel the whole way (gateway -> HTTP webhook -> posting). Runs on PGlite, and on PostgreSQL when DATABASE_URL
 * is set.
 */
import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { loan } from '../../server/db/schema-lending'
import {
  loanLedgerEntry,
  payment,
  paymentEvent,
  paymentIntention,
  sandboxCharge,
  sandboxEvent,
  servicingJob,
} from '../../server/db/schema-payments'
import {
  CHECKOUT_TTL_MS,
  createSandboxGateway,
  deliverDueSandboxEvents,
  newChargeId,
  newEventId,
  type SandboxGateway,
  signatureFor,
} from '../../server/providers/payment-gateway-sandbox'
import { RECONCILE_EVERY_MS, reconcile, runGatewayJobs } from '../../server/services/payments/gateway'
import { createTestApp, TEST_GATEWAY_SECRET } from '../support/app'
import { type Answer, call, type SignedUp, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { adminToken, apply, readyClient, runJobs, sign } from './lending-helpers'

const WEBHOOK = '/web/public/payments/webhook/sandbox'

/** What the test's gateway does with a delivery: fail the next `fail` ones (503), else hand it to the app. */
const delivery = { fail: 0, attempts: 0 }

let t: TestApp
let gateway: SandboxGateway
let admin: string
let c: SignedUp
let reference: string
let loanId: number
/** The real clock plus what the tests moved it by. */
let shift = 0
const now = () => new Date(Date.now() + shift)

beforeAll(async () => {
  gateway = createSandboxGateway({
    secret: TEST_GATEWAY_SECRET,
    deliver: async (request) => {
      delivery.attempts++
      if (delivery.fail > 0) {
        delivery.fail--
        return new Response('unavailable', { status: 503 })
      }
      return t.app.request(request)
    },
  })
  t = await createTestApp({}, { deps: { paymentGateway: gateway } })
  await seedSmallPsgc(t)
  admin = await adminToken(t)
  // A client with an active loan: registered, applied, approved, signed and paid out.
  c = await readyClient(t)
  const applied = await apply(t, c)
  expect(applied.status).toBe(201)
  await runJobs(t)
  expect((await sign(t, c, applied.body.data.id)).status).toBe(200)
  await runJobs(t)
  // From here the tests move the clock (the walk above sets and resets it itself).
  t.setClock(now)
  reference = paymentReferenceOf(c.clientId)
  const [row] = await t.database.db.select().from(loan).where(eq(loan.clientId, c.clientId))
  loanId = row!.id
}, 120_000)
afterAll(() => t?.close())
// A test that failed half-way leaves no failing deliveries to the next.
beforeEach(() => {
  delivery.fail = 0
})

function paidEvent(fields: { reference: string; amount: number; chargeId?: string; eventId?: string }) {
  const at = now().toISOString()
  return {
    id: fields.eventId ?? newEventId(),
    type: 'payment.paid',
    createdAt: at,
    data: {
      paymentId: fields.chargeId ?? newChargeId(),
      reference: fields.reference,
      amount: fields.amount,
      currency: 'PHP',
      channel: 'gcash',
      paidAt: at,
    },
  }
}

/** Posts a raw body to the webhook with the given signature header (none when null). */
async function postWebhook(
  rawBody: string,
  signature: string | null,
): Promise<Answer<{ received: boolean; outcome: string }>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (signature !== null) headers['hiram-signature'] = signature
  const res = await t.request(WEBHOOK, { method: 'POST', headers, body: rawBody })
  return { res, status: res.status, body: await res.json() }
}

const signed = (body: unknown, at = now()) => {
  const raw = JSON.stringify(body)
  return postWebhook(raw, signatureFor(TEST_GATEWAY_SECRET, raw, at))
}

const paymentsOf = (providerPaymentId: string) =>
  t.database.db.select().from(payment).where(eq(payment.providerPaymentId, providerPaymentId))

async function rowCounts() {
  const db = t.database.db
  const [events] = await db.select({ n: count() }).from(paymentEvent)
  const [payments] = await db.select({ n: count() }).from(payment)
  const [entries] = await db.select({ n: count() }).from(loanLedgerEntry)
  return { events: events!.n, payments: payments!.n, entries: entries!.n }
}

const eventOf = async (id: string) =>
  (await t.database.db.select().from(sandboxEvent).where(eq(sandboxEvent.id, id)))[0]!

describe('the gateway webhook', () => {
  it('a signed paid event for a client with an active loan posts the payment to the loan', async () => {
    const event = paidEvent({ reference, amount: 100_00 })
    const answer = await signed(event)
    expect(answer.status).toBe(200)
    expect(answer.body.data).toEqual({ received: true, outcome: 'posted' })
    const [row] = await paymentsOf(event.data.paymentId)
    expect(row).toMatchObject({
      provider: 'sandbox',
      status: 'posted',
      loanId,
      clientId: c.clientId,
      amount: 100_00,
      channel: 'gcash',
      source: 'webhook',
    })
    expect(row!.postedAt).not.toBeNull()
    const [inbox] = await t.database.db.select().from(paymentEvent).where(eq(paymentEvent.eventId, event.id))
    expect(inbox).toMatchObject({
      provider: 'sandbox',
      type: 'payment.paid',
      outcome: 'posted',
      paymentId: row!.id,
    })
    // The allocation adds up to the payment.
    const entries = await t.database.db
      .select()
      .from(loanLedgerEntry)
      .where(eq(loanLedgerEntry.paymentId, row!.id))
    expect(entries.reduce((sum, e) => sum - e.amount, 0)).toBe(100_00)
  })

  it('a missing, malformed, wrong or stale signature is a 401 and writes nothing', async () => {
    const event = paidEvent({ reference, amount: 50_00 })
    const raw = JSON.stringify(event)
    const before = await rowCounts()
    const at = now()
    const attempts: [string, string | null][] = [
      ['missing', null],
      ['empty', ''],
      ['malformed', 'v1=deadbeef'],
      ['no v1', `t=${Math.floor(at.getTime() / 1000)}`],
      ['another secret', signatureFor('not-the-gateway-secret-at-all-000000', raw, at)],
      ['another body', signatureFor(TEST_GATEWAY_SECRET, raw.replace('5000', '500000'), at)],
      // Half a minute past the window: the eight requests take seconds on a loaded box, and the window counts
      // whole seconds, so one second past it was sometimes inside it by the time the last request arrived.
      ['more than 5 minutes old', signatureFor(TEST_GATEWAY_SECRET, raw, new Date(at.getTime() - 330_000))],
      ['more than 5 minutes ahead', signatureFor(TEST_GATEWAY_SECRET, raw, new Date(at.getTime() + 330_000))],
    ]
    for (const [what, header] of attempts) {
      const answer = await postWebhook(raw, header)
      expect(answer.status, what).toBe(401)
      expect(answer.body.response.code, what).toBe('invalidSignature')
    }
    // A body that is not even JSON, unsigned: still the signature first.
    expect((await postWebhook('{not json', null)).status).toBe(401)
    expect(await rowCounts()).toEqual(before)
    expect(await paymentsOf(event.data.paymentId)).toEqual([])
  })

  it('a signed body that is not an event is a 400 with violations, and writes nothing', async () => {
    const before = await rowCounts()
    const notJson = '{"id":'
    const answer = await postWebhook(notJson, signatureFor(TEST_GATEWAY_SECRET, notJson, now()))
    expect(answer.status).toBe(400)
    const wrong = { ...paidEvent({ reference, amount: 10_00 }), type: 'payment.refunded' }
    const refused = await signed({ ...wrong, data: { ...wrong.data, currency: 'USD', amount: -1 } })
    expect(refused.status).toBe(400)
    const paths = refused.body.response.violations!.map((v) => v.propertyPath).sort()
    expect(paths).toEqual(['data.amount', 'data.currency', 'type'])
    expect(await rowCounts()).toEqual(before)
  })

  it('the same event delivered 50 times at once posts exactly one payment', async () => {
    const event = paidEvent({ reference, amount: 25_00 })
    const raw = JSON.stringify(event)
    const header = signatureFor(TEST_GATEWAY_SECRET, raw, now())
    const answers = await Promise.all(Array.from({ length: 50 }, () => postWebhook(raw, header)))
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200))
    const outcomes = answers.map((a) => a.body.data.outcome)
    expect(outcomes.filter((o) => o === 'posted')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(49)
    const rows = await paymentsOf(event.data.paymentId)
    expect(rows).toHaveLength(1)
    const entries = await t.database.db
      .select()
      .from(loanLedgerEntry)
      .where(eq(loanLedgerEntry.paymentId, rows[0]!.id))
    expect(entries.reduce((sum, e) => sum - e.amount, 0)).toBe(25_00)
    const inbox = await t.database.db.select().from(paymentEvent).where(eq(paymentEvent.eventId, event.id))
    expect(inbox).toHaveLength(1)
    expect(inbox[0]!.outcome).toBe('posted')
    // Delivered once more later: a duplicate again.
    expect((await signed(event)).body.data.outcome).toBe('duplicate')
  })

  it('another event of the same payment (a gateway re-sending it) posts nothing either', async () => {
    const event = paidEvent({ reference, amount: 10_00 })
    expect((await signed(event)).body.data.outcome).toBe('posted')
    const again = { ...event, id: newEventId() }
    expect((await signed(again)).body.data.outcome).toBe('duplicate')
    expect(await paymentsOf(event.data.paymentId)).toHaveLength(1)
  })

  it('a reference that matches no client is kept as unmatched, never lost', async () => {
    const nobody = paymentReferenceOf(987_654_321)
    const event = paidEvent({ reference: nobody, amount: 300_00 })
    const answer = await signed(event)
    expect(answer.status).toBe(200)
    expect(answer.body.data.outcome).toBe('unmatched')
    const [row] = await paymentsOf(event.data.paymentId)
    expect(row).toMatchObject({
      status: 'unmatched',
      loanId: null,
      clientId: null,
      amount: 300_00,
      reference: nobody,
    })
    const [inbox] = await t.database.db.select().from(paymentEvent).where(eq(paymentEvent.eventId, event.id))
    expect(inbox!.outcome).toBe('unmatched')
  })

  it('a provider this server does not run is refused by the path', async () => {
    const raw = JSON.stringify(paidEvent({ reference, amount: 10_00 }))
    const res = await t.request('/web/public/payments/webhook/paymongo', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'hiram-signature': signatureFor(TEST_GATEWAY_SECRET, raw, now()),
      },
      body: raw,
    })
    expect(res.status).toBe(400)
  })
})

describe('sandbox deliveries', () => {
  it('QA sends a payment at a channel: the gateway signs and delivers its webhook at once, and it posts', async () => {
    const answer = await call<{
      chargeId: string
      eventId: string
      delivered: boolean
      status: number | null
    }>(
      t,
      'POST',
      '/private/back-office/sandbox/payments',
      { reference: `${reference.slice(0, 5)} ${reference.slice(5)}`, amount: 75_00, channel: 'seven_eleven' },
      { token: admin },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.data).toMatchObject({ delivered: true, status: 200 })
    expect(answer.body.data.chargeId).toMatch(/^chg_[A-Za-z0-9]{24}$/)
    expect(answer.body.data.eventId).toMatch(/^evt_[A-Za-z0-9]{24}$/)
    const [row] = await paymentsOf(answer.body.data.chargeId)
    expect(row).toMatchObject({
      status: 'posted',
      loanId,
      channel: 'seven_eleven',
      amount: 75_00,
      source: 'webhook',
    })
    expect(await eventOf(answer.body.data.eventId)).toMatchObject({ attempts: 1, lastStatus: 200 })
    // Only the back office may.
    const asClient = await call(
      t,
      'POST',
      '/private/back-office/sandbox/payments',
      { reference, amount: 1_00, channel: 'gcash' },
      { token: c.token },
    )
    expect([401, 403]).toContain(asClient.status)
  })

  it('a failing delivery is retried with backoff (10 s, then 30 s) and then delivered', async () => {
    delivery.fail = 2
    const sent = await call<{ chargeId: string; eventId: string; delivered: boolean; status: number | null }>(
      t,
      'POST',
      '/private/back-office/sandbox/payments',
      { reference, amount: 40_00, channel: 'maya' },
      { token: admin },
    )
    expect(sent.status).toBe(200)
    expect(sent.body.data).toMatchObject({ delivered: false, status: 503 })
    const { chargeId, eventId } = sent.body.data
    expect(await paymentsOf(chargeId)).toEqual([])
    const first = await eventOf(eventId)
    expect(first).toMatchObject({ attempts: 1, lastStatus: 503, deliveredAt: null })
    expect(first.nextAttemptAt!.getTime() - first.createdAt.getTime()).toBeGreaterThanOrEqual(10_000)
    expect(first.nextAttemptAt!.getTime() - first.createdAt.getTime()).toBeLessThan(12_000)

    // Not due yet.
    expect(await deliverDueSandboxEvents(t.deps)).toBe(0)
    expect((await eventOf(eventId)).attempts).toBe(1)
    // 10 s later: the second attempt fails too, the next waits 30 s.
    shift += 11_000
    expect(await deliverDueSandboxEvents(t.deps)).toBe(0)
    const second = await eventOf(eventId)
    expect(second).toMatchObject({ attempts: 2, lastStatus: 503, deliveredAt: null })
    expect(second.nextAttemptAt!.getTime() - now().getTime()).toBeGreaterThan(29_000)
    shift += 20_000
    expect(await deliverDueSandboxEvents(t.deps)).toBe(0)
    shift += 11_000
    expect(await deliverDueSandboxEvents(t.deps)).toBe(1)
    const third = await eventOf(eventId)
    expect(third).toMatchObject({ attempts: 3, lastStatus: 200, nextAttemptAt: null })
    expect(third.deliveredAt).not.toBeNull()
    expect(await paymentsOf(chargeId)).toMatchObject([{ status: 'posted', source: 'webhook' }])
    // Delivered: never sent again (the clock stays within the admin session's lifetime for the tests below).
    shift += 60_000
    const before = delivery.attempts
    await deliverDueSandboxEvents(t.deps)
    expect(delivery.attempts).toBe(before)
  })

  it('reconciliation posts a paid charge whose webhook was lost; the late webhook is then a duplicate', async () => {
    delivery.fail = 1
    const sent = await call<{ chargeId: string; eventId: string; delivered: boolean }>(
      t,
      'POST',
      '/private/back-office/sandbox/payments',
      { reference, amount: 60_00, channel: 'bayad' },
      { token: admin },
    )
    expect(sent.body.data.delivered).toBe(false)
    const { chargeId, eventId } = sent.body.data
    expect(await paymentsOf(chargeId)).toEqual([])

    const answer = await call<{ checked: number; posted: number }>(
      t,
      'POST',
      '/private/back-office/payments/reconcile',
      undefined,
      { token: admin },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.data.posted).toBe(1)
    const [charges] = await t.database.db
      .select({ n: count() })
      .from(sandboxCharge)
      .where(eq(sandboxCharge.status, 'paid'))
    expect(answer.body.data.checked).toBe(charges!.n)
    expect(await paymentsOf(chargeId)).toMatchObject([{ status: 'posted', source: 'reconciliation', loanId }])

    // Run again: nothing left to post.
    expect(
      (await call(t, 'POST', '/private/back-office/payments/reconcile', undefined, { token: admin })).body
        .data,
    ).toMatchObject({ posted: 0 })
    // The retry arrives: recorded as a duplicate, nothing posted twice.
    shift += 11_000
    expect(await deliverDueSandboxEvents(t.deps)).toBe(1)
    expect((await eventOf(eventId)).lastStatus).toBe(200)
    expect(await paymentsOf(chargeId)).toHaveLength(1)
    const [inbox] = await t.database.db.select().from(paymentEvent).where(eq(paymentEvent.eventId, eventId))
    expect(inbox!.outcome).toBe('duplicate')
  })

  it('the job runner reconciles at most every 10 minutes, whichever process runs it', async () => {
    delivery.fail = 1
    const sent = await call<{ chargeId: string }>(
      t,
      'POST',
      '/private/back-office/sandbox/payments',
      { reference, amount: 20_00, channel: 'ecpay' },
      { token: admin },
    )
    const { chargeId } = sent.body.data
    // Two workers at once: one reconciles (and the retry, not yet due, waits).
    const rounds = await Promise.all([runGatewayJobs(t.deps), runGatewayJobs(t.deps)])
    const ran = rounds.filter((r) => r.reconciled !== null)
    expect(ran).toHaveLength(1)
    expect(ran[0]!.reconciled!.posted).toBe(1)
    expect(await paymentsOf(chargeId)).toMatchObject([{ source: 'reconciliation' }])
    // Not again until 10 minutes have passed.
    expect((await runGatewayJobs(t.deps)).reconciled).toBeNull()
    shift += RECONCILE_EVERY_MS + 1_000
    expect((await runGatewayJobs(t.deps)).reconciled).toMatchObject({ posted: 0 })
    const jobs = await t.database.db.select().from(servicingJob).where(eq(servicingJob.kind, 'reconcile'))
    expect(jobs).toHaveLength(1)
    expect(jobs[0]!.doneAt).toBeNull()
  })

  it('reconcile() compares only the last 7 days', async () => {
    const result = await reconcile(t.deps)
    expect(result.posted).toBe(0)
    shift += 8 * 86_400_000
    expect(await reconcile(t.deps)).toEqual({ checked: 0, posted: 0 })
  })
})

describe('the sandbox checkout', () => {
  const checkoutPath = (id: string) => `/public/sandbox/checkout/${id}`

  async function openCheckout(amount: number) {
    const opened = await gateway.createCheckout(
      t.database.db,
      { reference, amount, channel: 'gcash', returnPath: '/profile/my-loan' },
      now(),
    )
    await t.database.db.insert(paymentIntention).values({
      clientId: c.clientId,
      loanId,
      purpose: 'custom_amount',
      channel: 'gcash',
      amount,
      reference,
      status: 'open',
      checkoutId: opened.id,
      checkoutUrl: opened.url,
      expiresAt: new Date(now().getTime() + 86_400_000),
      createdAt: now(),
    })
    return opened
  }

  const intentionOf = async (checkoutId: string) =>
    (
      await t.database.db.select().from(paymentIntention).where(eq(paymentIntention.checkoutId, checkoutId))
    )[0]!

  it('Pay: the charge is paid, its webhook posts the payment, a second press changes nothing', async () => {
    const opened = await openCheckout(150_00)
    expect(opened.url).toBe(`/sandbox/checkout/${opened.id}`)
    const page = await call(t, 'GET', checkoutPath(opened.id))
    expect(page.status).toBe(200)
    expect(page.body.data).toEqual({
      id: opened.id,
      merchant: 'Hiram Lending Corporation',
      amount: 150_00,
      reference,
      channel: 'gcash',
      channelName: 'GCash',
      status: 'pending',
      returnPath: '/profile/my-loan',
    })
    const paid = await call(t, 'POST', checkoutPath(opened.id), { outcome: 'pay' })
    expect(paid.status).toBe(200)
    expect(paid.body.data).toMatchObject({ status: 'paid' })
    expect(await paymentsOf(opened.id)).toMatchObject([
      { status: 'posted', loanId, amount: 150_00, source: 'webhook' },
    ])
    expect((await intentionOf(opened.id)).status).toBe('paid')

    const again = await call(t, 'POST', checkoutPath(opened.id), { outcome: 'fail' })
    expect(again.status).toBe(200)
    expect(again.body.data).toMatchObject({ status: 'paid' })
    const events = await t.database.db.select().from(sandboxEvent).where(eq(sandboxEvent.chargeId, opened.id))
    expect(events).toHaveLength(1)
    expect(await paymentsOf(opened.id)).toHaveLength(1)
  })

  it('Fail: the charge fails, its webhook is recorded, the intention fails, nothing is posted', async () => {
    const opened = await openCheckout(80_00)
    const failed = await call(t, 'POST', checkoutPath(opened.id), { outcome: 'fail' })
    expect(failed.body.data).toMatchObject({ status: 'failed' })
    const [inbox] = await t.database.db
      .select()
      .from(paymentEvent)
      .where(and(eq(paymentEvent.providerPaymentId, opened.id), eq(paymentEvent.type, 'payment.failed')))
    expect(inbox!.outcome).toBe('ignored')
    expect((await intentionOf(opened.id)).status).toBe('failed')
    expect(await paymentsOf(opened.id)).toEqual([])
    expect((await call(t, 'POST', checkoutPath(opened.id), { outcome: 'pay' })).body.data).toMatchObject({
      status: 'failed',
    })
  })

  it('a checkout left a day expires: the job runner sends payment.expired and the intention expires', async () => {
    const opened = await openCheckout(90_00)
    shift += CHECKOUT_TTL_MS + 60_000
    await runGatewayJobs(t.deps)
    expect((await call(t, 'GET', checkoutPath(opened.id))).body.data).toMatchObject({ status: 'expired' })
    expect((await intentionOf(opened.id)).status).toBe('expired')
    const [event] = await t.database.db
      .select()
      .from(sandboxEvent)
      .where(eq(sandboxEvent.chargeId, opened.id))
    expect(event).toMatchObject({ type: 'payment.expired', lastStatus: 200 })
    expect((await call(t, 'POST', checkoutPath(opened.id), { outcome: 'pay' })).body.data).toMatchObject({
      status: 'expired',
    })
    expect(await paymentsOf(opened.id)).toEqual([])
  })

  it('an unknown checkout is a 404', async () => {
    const id = newChargeId()
    expect((await call(t, 'GET', checkoutPath(id))).status).toBe(404)
    expect((await call(t, 'POST', checkoutPath(id), { outcome: 'pay' })).status).toBe(404)
  })

  it('the logs carry ids, never the payment reference', () => {
    // Not even inside a longer number (a timestamp) is it counted: only the reference standing alone.
    expect(t.rawLogs()).not.toMatch(new RegExp(`(?<!\\d)${reference}(?!\\d)`))
    expect(t.rawLogs()).toContain('gateway event')
  })
})

describe('without the sandbox gateway', () => {
  it('the sandbox checkout and payments answer 404, and the sandbox webhook is not ours', async () => {
    const other = await createTestApp(
      {},
      {
        deps: {
          paymentGateway: {
            name: 'other',
            createCheckout: async () => ({ id: 'x', url: '/x' }),
            verifyWebhook: () => true,
            paidSince: async () => [],
          },
        },
      },
    )
    try {
      const token = await adminToken(other)
      const id = newChargeId()
      expect((await call(other, 'GET', `/public/sandbox/checkout/${id}`)).status).toBe(404)
      expect((await call(other, 'POST', `/public/sandbox/checkout/${id}`, { outcome: 'pay' })).status).toBe(
        404,
      )
      const sent = await call(
        other,
        'POST',
        '/private/back-office/sandbox/payments',
        { reference, amount: 1_00, channel: 'gcash' },
        { token },
      )
      expect(sent.status).toBe(404)
      const raw = JSON.stringify(paidEvent({ reference, amount: 1_00 }))
      const res = await other.request(WEBHOOK, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'hiram-signature': signatureFor(TEST_GATEWAY_SECRET, raw, now()),
        },
        body: raw,
      })
      expect(res.status).toBe(404)
      expect((await other.database.db.select({ n: count() }).from(paymentEvent))[0]!.n).toBe(0)
    } finally {
      await other.close()
    }
  })
})
