/**
 * Issue 19 item 5 over the API: the back office extends a loan on the client's behalf (options listed, one
 * chosen, the signing code sent to the client's phone, the code the client reads out entered by the agent, the fee
 * posted by hand, the due date moved) and refunds a loan's credit (queued once however often it is asked, sent by
 * the servicing worker, a failed automatic refund retried), each only by the roles holding its permission, each
 * with its audit entry. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  BackOfficeExtensions,
  CreditRefund,
  ExtensionChosen,
  LoanRefunds,
} from '../../domain/contract/back-office-loans'
import type { ActiveLoan } from '../../domain/contract/lending-answers'
import type { RolloverApplication } from '../../domain/contract/servicing-answers'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { defaultPricingConfig } from '../../domain/pricing/config'
import { addDays } from '../../domain/pricing/manila-date'
import { auditEntry } from '../../server/db/schema-audit'
import { loan } from '../../server/db/schema-lending'
import { type PayoutProvider, sandboxPayout } from '../../server/providers/payout'
import { runServicingJobs } from '../../server/services/payments/jobs'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'
import { call, lastCode, later, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'

const { cheap } = defaultPricingConfig.extensions
/** Past the agreement code's minute (the amendment code goes to the same phone). */
const CODE_WAIT_MS = 3 * 60_000

/** The sandbox payout, except that refunds are refused while `refuseRefunds` is set. */
let refuseRefunds = false
const payout: PayoutProvider = {
  name: 'sandbox-refusing-refunds',
  send: (request) =>
    refuseRefunds && request.purpose === 'refund'
      ? Promise.resolve({ status: 'failed', reference: 'test-refused', reason: 'Refused by the test.' })
      : sandboxPayout.send(request),
}

describe('back-office loan actions', () => {
  let t: TestApp
  let admin: string
  let collections: Staff
  let support: Staff
  let underwriter: Staff
  beforeAll(async () => {
    t = await createTestApp({}, { deps: { payout } })
    await seedSmallPsgc(t)
    admin = await adminToken(t)
    collections = await staffMember(t, 'collections')
    support = await staffMember(t, 'support')
    underwriter = await staffMember(t, 'underwriter')
  })
  afterAll(() => t.close())

  const as = <T>(staff: Staff | string, method: string, path: string, body?: unknown) =>
    call<T>(t, method, `/private/back-office/loans${path}`, body, {
      token: typeof staff === 'string' ? staff : staff.token,
    })
  const active = async (c: SignedUp) =>
    (await call<ActiveLoan>(t, 'GET', '/private/client/loan/active', undefined, { token: c.token })).body.data
  const pay = (c: SignedUp, amount: number, key: string) =>
    call<{ id: number; status: string }>(
      t,
      'POST',
      '/private/back-office/payments',
      { reference: paymentReferenceOf(c.clientId), amount, channel: 'bayad', idempotencyKey: `boa-${key}` },
      { token: admin },
    )
  const auditOf = (staff: Staff, entity: string) =>
    t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.userId, staff.id), eq(auditEntry.entity, entity)))

  it('extends a loan on the client’s behalf: options, choice, the client’s code, signature, fee, new due date', async () => {
    const c = await clientAt(t, 'loan_page')
    const before = await active(c)
    const options = await as<BackOfficeExtensions>(support, 'GET', `/${before.id}/extensions`)
    expect(options.status).toBe(200)
    expect(options.body.data).toMatchObject({ loanId: before.id, clientId: c.clientId, extendable: true })
    expect(options.body.data.options.map((o) => [o.type, o.available])).toEqual([
      ['cheap', true],
      ['expensive', true],
    ])
    // The same price the client's own screen shows: one pricing, not two.
    expect(options.body.data.options).toEqual(before.rollovers)

    const { rid, signed } = await later(t, CODE_WAIT_MS, async () => {
      const chosen = await as<ExtensionChosen>(collections, 'POST', `/${before.id}/extensions`, {
        type: 'cheap',
      })
      expect(chosen.status, JSON.stringify(chosen.body.response)).toBe(200)
      expect(chosen.body.data).toMatchObject({ sent: true, rollover: { type: 'cheap', signed: false } })
      expect(chosen.body.data.documents.map((d) => d.type).sort()).toEqual([
        'disclosure_statement',
        'extension_agreement',
      ])
      const rid = chosen.body.data.rollover.id
      // The code went to the client's phone, as in the client's own flow; the agent never sees it.
      expect(JSON.stringify(chosen.body)).not.toMatch(/"code"/)
      const code = await lastCode(t, c.phone, 'amendment')
      const wrong = await as(collections, 'POST', `/${before.id}/extensions/${rid}/signature`, {
        code: code === '000' ? '001' : '000',
      })
      expect(wrong.status).toBeGreaterThanOrEqual(400)
      expect(wrong.status).toBeLessThan(500)
      const signed = await as<RolloverApplication>(
        collections,
        'POST',
        `/${before.id}/extensions/${rid}/signature`,
        { code },
      )
      expect(signed.status, JSON.stringify(signed.body.response)).toBe(200)
      return { rid, signed: signed.body.data }
    })
    expect(signed).toMatchObject({ status: 'signed', rollover: { id: rid, signed: true } })
    expect(signed.documents.every((d) => d.signed)).toBe(true)

    // Waiting for its fee: nothing more can be chosen on the client's behalf.
    const pending = await as<BackOfficeExtensions>(collections, 'GET', `/${before.id}/extensions`)
    expect(pending.body.data).toMatchObject({ extendable: false, refusal: { code: 'extensionPending' } })
    const again = await as(collections, 'POST', `/${before.id}/extensions`, { type: 'expensive' })
    expect([again.status, again.body.response.code]).toEqual([409, 'extensionPending'])

    // The fee, recorded through the ordinary manual posting: the extension takes effect.
    const fee = signed.rollover.fee.amount
    expect((await pay(c, fee, `fee-${c.clientId}`)).body.data.status).toBe('posted')
    const after = await active(c)
    expect(after.dueDate).toBe(addDays(before.dueDate, cheap.term))
    expect(after.extensions!.taken).toBe(1)
    const [row] = await t.database.db.select().from(loan).where(eq(loan.id, before.id!))
    expect(row!.dueDate).toBe(addDays(before.dueDate, cheap.term))

    // Who did it: two entries, the choice and the signature, by the agent, about this client.
    const entries = await auditOf(collections, 'loan_extension')
    expect(entries.map((e) => [e.call, e.outcome, e.entityId, e.clientId])).toEqual([
      ['POST /web/private/back-office/loans/{id}/extensions', 'done', String(rid), c.clientId],
      [
        'POST /web/private/back-office/loans/{id}/extensions/{rid}/signature',
        'done',
        String(rid),
        c.clientId,
      ],
    ])
    // The client's code never reaches the trail.
    expect(entries[1]!.request).toMatchObject({ body: { code: '[redacted]' } })
    expect(entries.every((e) => e.permission === 'loans.extend')).toBe(true)
  })

  it('refuses what it must: a role without the permission, a bad type, a sign before a choice, a closed loan', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    const refused = await as(underwriter, 'POST', `/${l.id}/extensions`, { type: 'cheap' })
    expect([refused.status, refused.body.response.code]).toEqual([403, 'roleNotAllowed'])
    expect((await as(underwriter, 'POST', `/${l.id}/refunds`)).status).toBe(403)
    // Support may extend on a call; it may not refund.
    expect((await as(support, 'POST', `/${l.id}/refunds`)).status).toBe(403)
    expect((await as(collections, 'POST', `/${l.id}/extensions`, { type: 'lavish' })).status).toBe(400)
    const draft = l.rollovers[0]!
    const early = await as(collections, 'POST', `/${l.id}/extensions/${draft.id}/signature`, { code: '123' })
    expect([early.status, early.body.response.code]).toEqual([409, 'extensionNotChosen'])
    expect((await as(collections, 'GET', '/999999/extensions')).status).toBe(404)
    // An open loan's credit is not refunded (there is none either).
    const none = await as(collections, 'POST', `/${l.id}/refunds`)
    expect(none.status).toBe(409)
    // Repaid: nothing left to extend.
    await pay(c, l.amountDue.amount, `repay-${c.clientId}`)
    const closed = await as(collections, 'POST', `/${l.id}/extensions`, { type: 'cheap' })
    expect([closed.status, closed.body.response.code]).toEqual([409, 'loanNotActive'])
    const listed = await as<BackOfficeExtensions>(support, 'GET', `/${l.id}/extensions`)
    expect(listed.body.data).toMatchObject({ extendable: false, refusal: { code: 'loanNotActive' } })
  })

  it('refunds an overpayment credit whose automatic refund failed: once, however often asked at once', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    refuseRefunds = true
    try {
      expect((await pay(c, l.amountDue.amount + 250_00, `over-${c.clientId}`)).status).toBe(201)
    } finally {
      refuseRefunds = false
    }
    const listed = await as<LoanRefunds>(support, 'GET', `/${l.id}/refunds`)
    expect(listed.status).toBe(200)
    expect(listed.body.data).toMatchObject({ state: 'paid', credit: 250_00, refundable: true, refusal: null })
    expect(listed.body.data.refunds.map((r) => r.status)).toEqual(['failed'])

    const [first, second] = await Promise.all([
      as<CreditRefund>(collections, 'POST', `/${l.id}/refunds`),
      as<CreditRefund>(admin, 'POST', `/${l.id}/refunds`),
    ])
    const answers = [first, second].map((a) => a.status).sort()
    expect(answers).toEqual([202, 409])
    const accepted = first.status === 202 ? first : second
    const refusedOne = first.status === 202 ? second : first
    expect(refusedOne.body.response.code).toBe('refundPending')
    expect(accepted.body.data).toMatchObject({ status: 'queued', amount: 250_00, loanId: l.id })

    await runServicingJobs(t.deps)
    const done = await as<LoanRefunds>(support, 'GET', `/${l.id}/refunds`)
    expect(done.body.data).toMatchObject({ credit: 0, refundable: false, refusal: { code: 'noCredit' } })
    expect(done.body.data.refunds.map((r) => [r.status, r.amount])).toEqual([
      ['succeeded', 250_00],
      ['failed', 250_00],
    ])
    const twice = await as(collections, 'POST', `/${l.id}/refunds`)
    expect([twice.status, twice.body.response.code]).toEqual([409, 'noCredit'])

    const statement = await call<{
      balances: { credit: number }
      entries: { kind: string; amount: number }[]
    }>(t, 'GET', `/private/client/loan/${l.id}/statement`, undefined, { token: c.token })
    expect(statement.body.data.balances.credit).toBe(0)

    const audited = await t.database.db
      .select()
      .from(auditEntry)
      .where(
        and(eq(auditEntry.entity, 'credit_refund'), eq(auditEntry.entityId, String(accepted.body.data.id))),
      )
    expect(audited).toHaveLength(1)
    expect(audited[0]).toMatchObject({
      outcome: 'done',
      permission: 'payments.refund',
      clientId: c.clientId,
      call: 'POST /web/private/back-office/loans/{id}/refunds',
    })
  })
})
