/**
 * Issue 17 over the API: extensions (rollovers with invoices: choose, apply, sign with a code, pay the fee, the
 * due date moves and the statechart records EXTENDED), their refusals, hasActiveRefinancing, payment-schedule
 * special offers (the decision, the plan, signing, instalments paid oldest first, overdue per instalment with the
 * spec's sign, repaid), and the races: two choices at once give one, a fee paid twice extends once.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import type { ActiveLoan } from '../../domain/contract/lending-answers'
import type {
  PaymentSchedule,
  Rollover,
  RolloverApplication,
  ScheduleOffer,
} from '../../domain/contract/servicing-answers'
import { extensionFee } from '../../domain/loan/extension'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { defaultPricingConfig } from '../../domain/pricing/config'
import { addDays, daysBetween } from '../../domain/pricing/manila-date'
import { stateTransition } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { loanLedgerEntry } from '../../server/db/schema-payments'
import { loanExtension } from '../../server/db/schema-servicing'
import { createTestApp } from '../support/app'
import { changeConfig } from '../support/config-change'
import { call, clearOfManilaMidnight, lastCode, later, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'

const { cheap, expensive } = defaultPricingConfig.extensions
/** Past the agreement code's minute (the amendment code goes to the same phone). */
const CODE_WAIT_MS = 3 * 60_000

describe('extensions and payment schedules API', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t.close())

  const get = async <T>(c: SignedUp, path: string) => {
    const answer = await call<T>(t, 'GET', path, undefined, { token: c.token })
    expect(answer.status, `${path}: ${JSON.stringify(answer.body.response)}`).toBe(200)
    return answer.body.data
  }
  const active = (c: SignedUp) => get<ActiveLoan>(c, '/private/client/loan/active')
  const choose = (c: SignedUp, type: 'cheap' | 'expensive') =>
    call<Rollover>(t, 'PUT', '/private/client/loan/active/rollover', { type }, { token: c.token })
  const pay = (c: SignedUp, amount: number, key: string) =>
    call<{ id: number; status: string }>(
      t,
      'POST',
      '/private/back-office/payments',
      { reference: paymentReferenceOf(c.clientId), amount, channel: 'bayad', idempotencyKey: `ext-${key}` },
      { token: admin },
    )
  const clock = (c: SignedUp, days: number) =>
    call(t, 'POST', '/private/back-office/sandbox/clock', { clientId: c.clientId, days }, { token: admin })
  const client = (c: SignedUp) =>
    get<{ hasActiveRefinancing: boolean; hasActiveLoan: boolean }>(c, '/private/client')

  /** Choose, apply, render and sign an extension (the code a few minutes on: one code a minute per phone). */
  async function signExtension(c: SignedUp, type: 'cheap' | 'expensive') {
    const chosen = await choose(c, type)
    expect(chosen.status, JSON.stringify(chosen.body.response)).toBe(200)
    const rid = chosen.body.data.id
    const loanId = chosen.body.data.loanId
    const app = await call<RolloverApplication>(
      t,
      'POST',
      `/private/client/loan/${loanId}/rollover/${rid}/application`,
      undefined,
      { token: c.token },
    )
    expect(app.status).toBe(201)
    const docPath = `/private/client/loan/${loanId}/rollover/${rid}/application/${app.body.data.id}/document`
    return later(t, CODE_WAIT_MS, async () => {
      const sent = await call<{ sent: true; documents: { url: string; type: string }[] }>(
        t,
        'POST',
        docPath,
        {},
        { token: c.token },
      )
      expect(sent.status, JSON.stringify(sent.body.response)).toBe(200)
      expect(sent.body.data.documents.map((d) => d.type).sort()).toEqual([
        'disclosure_statement',
        'extension_agreement',
      ])
      const code = await lastCode(t, c.phone, 'amendment')
      const signed = await call<RolloverApplication>(t, 'POST', docPath, { code }, { token: c.token })
      expect(signed.status, JSON.stringify(signed.body.response)).toBe(200)
      return { rid, loanId, app: signed.body.data, documents: sent.body.data.documents }
    })
  }

  it('an active loan lists one inactive rollover per type with a draft invoice, priced on the principal owed', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    expect(l.plan).toBe('on_terms')
    expect(l.extensions).toEqual({ taken: 0, max: defaultPricingConfig.extensions.maxCount })
    expect(l.rollovers.map((r) => [r.type, r.status, r.invoices.map((i) => i.status)])).toEqual([
      ['cheap', 'inactive', ['draft']],
      ['expensive', 'inactive', ['draft']],
    ])
    const [c1, e1] = l.rollovers as [Rollover, Rollover]
    expect(c1.fee.amount).toBe(extensionFee(l.principal.amount, cheap.feeBps))
    expect(e1.fee.amount).toBe(extensionFee(l.principal.amount, expensive.feeBps))
    expect(c1.newDueDate).toBe(addDays(l.dueDate, cheap.term))
    expect(e1.newDueDate).toBe(addDays(l.dueDate, expensive.term))
    expect(c1.available && e1.available).toBe(true)
    expect(l.legalRoom!.amount).toBeGreaterThan(c1.fee.amount)
    expect(c1.legalRoomAfter.amount).toBe(l.legalRoom!.amount - c1.fee.amount)
    // A schedule is offered only near the due date: the offers exist, not available yet, and say why.
    expect(l.specialOffers!.map((o) => [o.type, o.available])).toEqual([
      ['monthly', false],
      ['semi_monthly', false],
    ])
    expect(l.specialOffers![0]!.reason).toMatch(/days before the due date/)
    expect((await client(c)).hasActiveRefinancing).toBe(false)
  })

  it('extends a loan: choose, apply, sign with the code, pay the fee; the due date moves and the history says so', async () => {
    const c = await clientAt(t, 'loan_page')
    const before = await active(c)
    // Choosing the expensive one then the cheap one: the expensive goes back to draft.
    expect((await choose(c, 'expensive')).body.data.invoices[0]!.status).toBe('unpaid')
    expect((await client(c)).hasActiveRefinancing).toBe(true)
    const { rid, loanId, app, documents } = await signExtension(c, 'cheap')
    expect(app.status).toBe('signed')
    expect(app.rollover.signed).toBe(true)
    const rollovers = (await active(c)).rollovers
    expect(rollovers.find((r) => r.type === 'expensive')!.invoices[0]!.status).toBe('draft')
    const chosen = rollovers.find((r) => r.id === rid)!
    expect(chosen.invoices[0]!.status).toBe('unpaid')
    // The documents are real PDFs.
    const pdf = await t.app.request(`/web${documents[0]!.url.replace(/^\/web/, '')}`, {
      headers: { authorization: `Bearer ${c.token}` },
    })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-')
    // The intention asks for the fee exactly.
    const intention = await call<{ amount: number; purpose: string }>(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'extension_fee' },
      { token: c.token },
    )
    expect(intention.status).toBe(201)
    expect(intention.body.data.amount).toBe(chosen.fee.amount)
    const paid = await pay(c, chosen.fee.amount, `fee-${c.clientId}`)
    expect(paid.body.data.status).toBe('posted')
    const after = await active(c)
    expect(after.dueDate).toBe(addDays(before.dueDate, cheap.term))
    expect(after.repaymentInvoice.dueDays).toBe(before.repaymentInvoice.dueDays + cheap.term)
    expect(after.extensions!.taken).toBe(1)
    const taken = after.rollovers.find((r) => r.id === rid)!
    expect([taken.status, taken.invoices[0]!.status]).toEqual(['active', 'paid'])
    // The fee is charged and paid by the same payment: what else was owed is unchanged.
    expect(after.amountDue.amount).toBe(before.amountDue.amount)
    // New drafts for the next extension, one per type.
    expect(after.rollovers.filter((r) => r.status === 'inactive').map((r) => r.type)).toEqual(
      expect.arrayContaining(['cheap', 'expensive']),
    )
    expect((await client(c)).hasActiveRefinancing).toBe(false)
    const entries = await t.database.db
      .select()
      .from(loanLedgerEntry)
      .where(eq(loanLedgerEntry.loanId, loanId))
    expect(entries.filter((e) => e.kind === 'extension_fee').map((e) => e.amount)).toEqual([
      chosen.fee.amount,
    ])
    const history = await t.database.db
      .select()
      .from(stateTransition)
      .where(and(eq(stateTransition.machine, 'loanLifecycle'), eq(stateTransition.subjectId, loanId)))
    expect(history.map((h) => h.event)).toContain('EXTENDED')
    expect(history.find((h) => h.event === 'EXTENDED')).toMatchObject({
      fromState: 'active.on_terms.current',
      toState: 'active.on_terms.current',
    })
    // The payment's allocation shows the fee in the history.
    const payments = await get<{ allocation: { fees: number } }[]>(c, '/private/client/payments')
    expect(payments[0]!.allocation.fees).toBe(chosen.fee.amount)
  })

  it('refuses with the reason: past the grace window, an unchosen extension, a fee before signing', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    // Nothing signed: no fee is payable.
    const early = await call(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'extension_fee' },
      {
        token: c.token,
      },
    )
    expect(early.status).toBe(409)
    const draft = l.rollovers[0]!
    const notChosen = await call(
      t,
      'POST',
      `/private/client/loan/${l.id}/rollover/${draft.id}/application`,
      undefined,
      { token: c.token },
    )
    expect(notChosen.status).toBe(409)
    // Another client's loan does not exist for this one.
    const other = await clientAt(t, 'loan_page')
    const foreign = await call(
      t,
      'POST',
      `/private/client/loan/${l.id}/rollover/${draft.id}/application`,
      undefined,
      {
        token: other.token,
      },
    )
    expect(foreign.status).toBe(404)
    // Past the due date by more than the grace days: refused, and the refusal says why.
    await clock(c, daysBetween((await active(c)).createdAtDate!, l.dueDate) + 7)
    const late = await active(c)
    expect(late.rollovers.every((r) => !r.available && r.refusal?.code === 'tooLate')).toBe(true)
    const refused = await choose(c, 'cheap')
    expect(refused.status).toBe(409)
    expect(JSON.stringify(refused.body.response)).toMatch(/after the due date/)
  })

  it('prices on the principal still owed after a part payment, and refuses past maxCount', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    // Pay the fees, the interest and half the principal: the fee follows the principal owed.
    const parts = l.amountDue.parts!
    const half = Math.floor(l.principal.amount / 2)
    await pay(c, parts.fees!.amount + parts.interest!.amount + half, `part-${c.clientId}`)
    const after = await active(c)
    const owed = after.amountDue.parts!.principal!.amount
    expect(owed).toBe(l.principal.amount - half)
    const [cheapOne] = after.rollovers as [Rollover]
    expect(cheapOne.fee.amount).toBe(extensionFee(owed, cheap.feeBps))
    expect(cheapOne.fee.amount).toBeLessThan(extensionFee(l.principal.amount, cheap.feeBps))
    // One extension allowed: after it, both types are refused with the reason.
    const saved = await call(t, 'GET', '/private/back-office/config/lending', undefined, { token: admin })
    const pricing = (saved.body.data as { pricing: typeof defaultPricingConfig }).pricing
    // A second administrator approves each change (issue 19 item 6).
    const put = (maxCount: number) =>
      changeConfig(
        t,
        admin,
        'pricing',
        { ...pricing, extensions: { ...pricing.extensions, maxCount } },
        {
          note: 'test maxCount',
        },
      )
    expect((await put(1)).status).toBe(200)
    try {
      const { rid } = await signExtension(c, 'cheap')
      const fee = (await active(c)).rollovers.find((r) => r.id === rid)!.fee.amount
      await pay(c, fee, `max-${c.clientId}`)
      const done = await active(c)
      expect(done.extensions).toEqual({ taken: 1, max: 1 })
      const drafts = done.rollovers.filter((r) => r.status === 'inactive')
      expect(drafts.length).toBe(2)
      expect(drafts.every((r) => !r.available && r.refusal?.code === 'maxCount')).toBe(true)
      expect((await choose(c, 'expensive')).status).toBe(409)
    } finally {
      expect((await put(pricing.extensions.maxCount)).status).toBe(200)
    }
  })

  it('two choices at once give one unpaid invoice; a fee paid twice (two payments) extends once', async () => {
    const c = await clientAt(t, 'loan_page')
    const answers = await Promise.all([choose(c, 'cheap'), choose(c, 'cheap'), choose(c, 'cheap')])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1)
    const l0 = await active(c)
    const unpaid = await t.database.db
      .select()
      .from(loanExtension)
      .where(and(eq(loanExtension.loanId, l0.id!), eq(loanExtension.invoiceStatus, 'unpaid')))
    expect(unpaid).toHaveLength(1)
    const { rid } = await signExtension(c, 'cheap')
    const fee = (await active(c)).rollovers.find((r) => r.id === rid)!.fee.amount
    // The same payment reported twice posts once; a second payment of the fee is an ordinary payment.
    const [a, b, d] = await Promise.all([
      pay(c, fee, `race-${c.clientId}`),
      pay(c, fee, `race-${c.clientId}`),
      pay(c, fee, `race2-${c.clientId}`),
    ])
    expect([a, b, d].every((x) => x.status === 200 || x.status === 201)).toBe(true)
    const [row] = await t.database.db.select().from(loan).where(eq(loan.id, l0.id!))
    expect(row!.dueDate).toBe(addDays(l0.dueDate, cheap.term))
    const fees = await t.database.db
      .select()
      .from(loanLedgerEntry)
      .where(and(eq(loanLedgerEntry.loanId, l0.id!), eq(loanLedgerEntry.kind, 'extension_fee')))
    expect(fees).toHaveLength(1)
    const posted = new Set([a, b, d].map((x) => x.body.data.id))
    expect(posted.size).toBe(2)
  })

  it('a semi-monthly schedule: offered near the due date, signed, instalments paid oldest first, overdue per instalment', async () => {
    const c = await clientAt(t, 'loan_page')
    // The days below are counted in Manila days, and signing moves the clock a few minutes on (later).
    const realClock = clearOfManilaMidnight(t)
    onTestFinished(() => t.setClock(realClock))
    const l = await active(c)
    // Two days before the due date the offer is made.
    await clock(c, l.repaymentInvoice.dueDays - 2)
    const near = await active(c)
    const summary = near.specialOffers!.find((o) => o.type === 'semi_monthly')!
    expect(summary.available).toBe(true)
    const offerPath = `/private/client/loan/active/payment-schedule/special-offer/submit/${summary.id}`
    const offer = await get<ScheduleOffer>(c, offerPath)
    expect(offer.payments).toHaveLength(4)
    expect(offer.payments.reduce((a, p) => a + p.amount.amount, 0)).toBe(offer.total.amount)
    expect(offer.total.amount).toBe(offer.owed.amount + offer.interest.amount)
    expect(offer.rules.every((r) => r.passed)).toBe(true)
    expect(await get(c, '/private/client/loan/active/payment-schedule')).toBeNull()
    const schedule = await later(t, CODE_WAIT_MS, async () => {
      const sent = await call<{ documents: unknown[] }>(t, 'POST', offerPath, {}, { token: c.token })
      expect(sent.status, JSON.stringify(sent.body.response)).toBe(200)
      expect(sent.body.data.documents).toHaveLength(2)
      const wrong = await call(t, 'POST', offerPath, { code: '000' }, { token: c.token })
      const code = await lastCode(t, c.phone, 'amendment')
      if (code !== '000') expect(wrong.status).toBe(422)
      const agreed = await call<PaymentSchedule>(t, 'POST', offerPath, { code }, { token: c.token })
      expect(agreed.status, JSON.stringify(agreed.body.response)).toBe(200)
      return agreed.body.data
    })
    expect(schedule.type).toBe('semi_monthly')
    expect(schedule.payments.map((p) => [p.seq, p.status])).toEqual([
      [1, 'unpaid'],
      [2, 'unpaid'],
      [3, 'unpaid'],
      [4, 'unpaid'],
    ])
    // Before its due date an instalment's dueDays is negative (days PAST the due date, spec section 4).
    expect(schedule.payments[0]!.dueDays).toBe(-15)
    expect(schedule.toPayNow.amount).toBe(schedule.payments[0]!.amount.amount)
    const onSchedule = await active(c)
    expect(onSchedule.plan).toBe('scheduled')
    expect(onSchedule.rollovers.every((r) => !r.available)).toBe(true)
    expect((await client(c)).hasActiveRefinancing).toBe(true)
    // The first instalment, through an instalment intention.
    const intention = await call<{ amount: number }>(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'instalment' },
      {
        token: c.token,
      },
    )
    expect(intention.body.data.amount).toBe(schedule.toPayNow.amount)
    await pay(c, intention.body.data.amount, `inst1-${c.clientId}`)
    let now = await get<PaymentSchedule>(c, '/private/client/loan/active/payment-schedule')
    expect(now.payments.map((p) => p.status)).toEqual(['paid', 'unpaid', 'unpaid', 'unpaid'])
    // The second is left unpaid past its date: overdue, dueDays above 0.
    await clock(c, 32)
    now = await get<PaymentSchedule>(c, '/private/client/loan/active/payment-schedule')
    expect(now.payments[1]).toMatchObject({ status: 'unpaid', overdue: true, dueDays: 2 })
    expect(now.toPayNow.amount).toBe(now.payments[1]!.amount.amount)
    expect(now.payments[2]).toMatchObject({ status: 'unpaid', overdue: false, dueDays: -13 })
    // Paying off what is owed today repays the loan and completes the schedule.
    const owed = (await active(c)).amountDue.amount
    expect(owed).toBeLessThan(now.payments.slice(1).reduce((a, p) => a + p.amount.amount, 0))
    await pay(c, owed, `rest-${c.clientId}`)
    const [row] = await t.database.db.select().from(loan).where(eq(loan.clientId, c.clientId))
    expect([row!.state, row!.plan]).toEqual(['paid', 'scheduled'])
    expect(await call(t, 'GET', '/private/client/loan/active', undefined, { token: c.token })).toMatchObject({
      status: 200,
    })
  })
})
