/**
 * Issue 16 over the API: a paid-out loan's ledger, today's payoff, payment intentions, posting in the allocation
 * order (penalties, fees, interest, principal), interest accrual with the business clock, repayment in full (the
 * loan paid, the journey at no_loan_page, the client a repeat client), overpayment credit and its refund,
 * reversal reopening a paid loan, holds, unmatched payments, the statement and the back office's list.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { addDays, manilaDate } from '../../domain/pricing/manila-date'
import { stateTransition } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { creditRefund, loanLedgerEntry } from '../../server/db/schema-payments'
import { runServicingJobs } from '../../server/services/payments/jobs'
import { receivePayment } from '../../server/services/payments/posting'
import { createTestApp } from '../support/app'
import { approveAsSecond } from '../support/maker-checker'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'

interface ActiveLoan {
  id: number
  loanNumber: string
  paymentReference: string
  state: string
  amountDue: {
    amount: number
    parts: Record<'principal' | 'interest' | 'fees' | 'penalties', { amount: number }>
  }
  credit: { amount: number }
  contractInterest: { amount: number }
  principal: { amount: number }
  term: { value: number }
  dueDate: string
  repaymentInvoice: { dueDays: number }
}

describe('loan servicing API', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t.close())

  const active = async (c: SignedUp) =>
    (await call<ActiveLoan | null>(t, 'GET', '/private/client/loan/active', undefined, { token: c.token }))
      .body.data
  const pay = async (c: SignedUp, amount: number, key: string, channel = 'bayad') =>
    call<{ id: number; status: string }>(
      t,
      'POST',
      '/private/back-office/payments',
      { reference: paymentReferenceOf(c.clientId), amount, channel, idempotencyKey: `test-${key}` },
      { token: admin },
    )
  const flow = async (c: SignedUp) =>
    (await call<{ step: string }>(t, 'GET', '/private/client/flow', undefined, { token: c.token })).body.data
      .step
  const moveClock = (body: Record<string, unknown>) =>
    call<{ clientToday: string; daysRun: number }>(t, 'POST', '/private/back-office/sandbox/clock', body, {
      token: admin,
    })

  it('a paid-out loan: ledger of principal and fees, a day of interest, the reference and loan number', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    expect(l.paymentReference).toBe(paymentReferenceOf(c.clientId))
    expect(l.loanNumber).toMatch(/^L\d{8}$/)
    const oneDay = Math.floor(l.contractInterest.amount / l.term.value)
    expect(l.amountDue.parts.interest.amount).toBe(oneDay)
    expect(l.amountDue.amount).toBe(l.principal.amount + l.amountDue.parts.fees.amount + oneDay)
    const entries = await t.database.db.select().from(loanLedgerEntry).where(eq(loanLedgerEntry.loanId, l.id))
    expect(entries.map((e) => e.kind).sort()).toEqual(expect.arrayContaining(['disbursement', 'fee']))
    // The lifecycle's history: draft at the signature, active at the payout (by the payout job).
    const history = await t.database.db
      .select()
      .from(stateTransition)
      .where(eq(stateTransition.subjectId, l.id))
    expect(
      history.filter((h) => h.machine === 'loanLifecycle').map((h) => [h.fromState, h.event, h.toState]),
    ).toEqual([['draft', 'DISBURSED', 'active.on_terms.current']])
  })

  it('payment intentions: the payoff until 23:59 Manila, at most the payoff, e-wallet checkout', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    const full = await call<{
      amount: number
      reference: string
      expiresAt: string
      checkoutUrl: string | null
      instructions: { steps: string[] } | null
    }>(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'full_repayment', channel: 'seven_eleven' },
      { token: c.token },
    )
    expect(full.status).toBe(201)
    expect(full.body.data.amount).toBe(l.amountDue.amount)
    expect(full.body.data.reference).toBe(l.paymentReference)
    expect(full.body.data.checkoutUrl).toBeNull()
    expect(full.body.data.instructions!.steps.join(' ')).toContain(l.paymentReference)
    const expires = new Date(full.body.data.expiresAt)
    // 23:59:59.999 in Manila is 15:59:59.999 UTC.
    expect(expires.toISOString().slice(11)).toBe('15:59:59.999Z')
    expect(manilaDate(expires)).toBe(manilaDate(new Date()))
    const tooMuch = await call(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'custom_amount', amount: l.amountDue.amount + 1 },
      { token: c.token },
    )
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.body.response.violations).toEqual([expect.objectContaining({ propertyPath: 'amount' })])
    const noAmount = await call(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'custom_amount' },
      { token: c.token },
    )
    expect(noAmount.status).toBe(400)
    const wallet = await call<{ checkoutUrl: string }>(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'custom_amount', amount: 100_00, channel: 'gcash' },
      { token: c.token },
    )
    expect(wallet.status).toBe(201)
    expect(wallet.body.data.checkoutUrl).toMatch(/^\/sandbox\/checkout\/chg_/)
    const extension = await call(
      t,
      'POST',
      '/private/client/payment-intention',
      { purpose: 'extension_fee' },
      { token: c.token },
    )
    expect(extension.status).toBe(409)
  })

  it('a partial payment goes to fees, then interest, then principal; the receipt says so', async () => {
    const c = await clientAt(t, 'loan_page')
    const before = (await active(c))!
    const fees = before.amountDue.parts.fees.amount
    const interest = before.amountDue.parts.interest.amount
    const amount = fees + interest + 1_000_00
    const posted = await pay(c, amount, `partial-${c.clientId}`, 'seven_eleven')
    expect(posted.status).toBe(201)
    expect(posted.body.data.status).toBe('posted')
    const after = (await active(c))!
    expect(after.amountDue.parts).toMatchObject({
      fees: { amount: 0 },
      interest: { amount: 0 },
      principal: { amount: before.principal.amount - 1_000_00 },
      penalties: { amount: 0 },
    })
    expect(after.amountDue.amount).toBe(before.amountDue.amount - amount)
    await runServicingJobs(t.deps)
    const outbox = await call<{ body: string; purpose: string }[]>(
      t,
      'GET',
      '/private/back-office/outbox',
      undefined,
      {
        token: admin,
      },
    )
    const receipt = outbox.body.data.find(
      (m) => m.purpose === 'payment_receipt' && m.body.includes(after.loanNumber),
    )
    expect(receipt?.body).toContain('Remaining balance')
    // The same idempotency key again posts nothing.
    const again = await pay(c, amount, `partial-${c.clientId}`, 'seven_eleven')
    expect(again.status).toBe(200)
    expect((await active(c))!.amountDue.amount).toBe(after.amountDue.amount)
  })

  it('the business clock: interest accrues by the Manila day, on the principal outstanding, up to the contract', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    const moved = await moveClock({ clientId: c.clientId, days: 5 })
    expect(moved.status).toBe(200)
    expect(moved.body.data.daysRun).toBe(5)
    expect(moved.body.data.clientToday).toBe(addDays(manilaDate(new Date()), 5))
    const later = (await active(c))!
    const perDay = l.contractInterest.amount / l.term.value
    expect(later.amountDue.parts.interest.amount).toBe(Math.floor(perDay * 6))
    expect(later.repaymentInvoice.dueDays).toBe(l.repaymentInvoice.dueDays - 5)
    // Far past the due date, interest stops at the contract's (penalties are issue 18's).
    await moveClock({ clientId: c.clientId, days: 60 })
    expect((await active(c))!.amountDue.parts.interest.amount).toBe(l.contractInterest.amount)
    expect((await moveClock({ clientId: c.clientId, days: -1 })).status).toBe(400)
  })

  it('repaid in full: the loan is paid, the journey at no_loan_page, the client prices as a repeat client', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    expect((await pay(c, l.amountDue.amount, `full-${c.clientId}`)).status).toBe(201)
    expect(await active(c)).toBeNull()
    const [row] = await t.database.db.select().from(loan).where(eq(loan.id, l.id))
    expect(row).toMatchObject({ status: 5, state: 'paid' })
    expect(await flow(c)).toBe('no_loan_page')
    const me = await call<{
      closedLoansCount: number
      hasActiveLoan: boolean
      availableLoanAmount: { amount: number }
    }>(t, 'GET', '/private/client', undefined, { token: c.token })
    expect(me.body.data.closedLoansCount).toBe(1)
    expect(me.body.data.hasActiveLoan).toBe(false)
    expect(me.body.data.availableLoanAmount.amount).toBeGreaterThan(l.principal.amount)
    const statement = await call<{
      payoff: number
      entries: { kind: string }[]
      balances: Record<string, number>
    }>(t, 'GET', `/private/client/loan/${l.id}/statement`, undefined, { token: c.token })
    expect(statement.body.data.payoff).toBe(0)
    expect(statement.body.data.entries.map((e) => e.kind)).toContain('allocation')
    const pdf = await t.request(`/web/private/client/loan/${l.id}/statement/download`, {
      headers: { authorization: `Bearer ${c.token}` },
    })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })

  it('an overpayment becomes credit and is refunded to the payout account', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    const posted = await pay(c, l.amountDue.amount + 250_00, `over-${c.clientId}`)
    expect(posted.status).toBe(201)
    const [refund] = await t.database.db.select().from(creditRefund).where(eq(creditRefund.loanId, l.id))
    expect(refund).toMatchObject({ status: 'succeeded', amount: 250_00 })
    const statement = await call<{
      balances: { credit: number }
      entries: { kind: string; amount: number }[]
    }>(t, 'GET', `/private/client/loan/${l.id}/statement`, undefined, { token: c.token })
    expect(statement.body.data.balances.credit).toBe(0)
    expect(statement.body.data.entries.filter((e) => e.kind === 'refund').map((e) => e.amount)).toEqual([
      -250_00,
    ])
  })

  it('a reversal restores the balances exactly and reopens a paid loan; the journey follows', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    const posted = await pay(c, l.amountDue.amount, `rev-${c.clientId}`)
    expect(await flow(c)).toBe('no_loan_page')
    // Maker-checker (issue 19 item 5): the admin proposes (202); nothing happens until a second user approves.
    const proposed = await call<{ id: number; status: string; kind: string }>(
      t,
      'POST',
      `/private/back-office/payments/${posted.body.data.id}/reversal`,
      { reason: 'Chargeback from the bank' },
      { token: admin },
    )
    expect(proposed.status).toBe(202)
    expect(proposed.body.data).toMatchObject({ status: 'pending', kind: 'payments.reverse' })
    expect(await flow(c)).toBe('no_loan_page')
    const own = await call(
      t,
      'POST',
      `/private/back-office/approvals/${proposed.body.data.id}/approve`,
      {},
      {
        token: admin,
      },
    )
    expect(own.status).toBe(403)
    expect(own.body.response.code).toBe('ownProposal')
    const reversed = await approveAsSecond<{
      status: string
      result: { status: string; reversalReason: string }
    }>(t, proposed.body.data.id)
    expect(reversed.status).toBe(200)
    expect(reversed.body.data.status).toBe('approved')
    expect(reversed.body.data.result).toMatchObject({
      status: 'reversed',
      reversalReason: 'Chargeback from the bank',
    })
    // Approving again answers what was decided; nothing runs twice.
    expect((await approveAsSecond(t, proposed.body.data.id)).status).toBe(200)
    const reopened = (await active(c))!
    expect(reopened.amountDue).toEqual(l.amountDue)
    expect(reopened.state).toBe('active')
    expect(await flow(c)).toBe('loan_page')
    // Once is enough: a reversed payment is refused at once, when proposed.
    const twice = await call(
      t,
      'POST',
      `/private/back-office/payments/${posted.body.data.id}/reversal`,
      { reason: 'again' },
      { token: admin },
    )
    expect(twice.status).toBe(409)
  })

  it('on hold: no interest accrues; released, the held days are never charged', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    const held = await call<{ status: number; state: string }>(
      t,
      'POST',
      `/private/back-office/loan/${l.id}/hold`,
      { reason: 'Disputed' },
      { token: admin },
    )
    expect(held.body.data).toMatchObject({ status: 6, state: 'on_hold' })
    await moveClock({ clientId: c.clientId, days: 3 })
    expect((await active(c))!.amountDue.parts.interest.amount).toBe(l.amountDue.parts.interest.amount)
    const released = await call<{ state: string }>(
      t,
      'POST',
      `/private/back-office/loan/${l.id}/release`,
      { reason: 'Resolved' },
      { token: admin },
    )
    expect(released.body.data.state).toBe('active')
    expect((await active(c))!.amountDue.parts.interest.amount).toBe(l.amountDue.parts.interest.amount)
    await moveClock({ clientId: c.clientId, days: 1 })
    const perDay = Math.floor(l.contractInterest.amount / l.term.value)
    expect((await active(c))!.amountDue.parts.interest.amount).toBe(
      Math.floor((l.contractInterest.amount * 2) / l.term.value),
    )
    expect(perDay).toBeGreaterThan(0)
    // Releasing twice is a 409: the loan is not on hold.
    expect(
      (
        await call(
          t,
          'POST',
          `/private/back-office/loan/${l.id}/release`,
          { reason: 'again' },
          { token: admin },
        )
      ).status,
    ).toBe(409)
  })

  it('an unknown reference is kept as unmatched and assigned by hand; the list pages and filters', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = (await active(c))!
    const got = await receivePayment(t.deps, {
      provider: 'sandbox',
      providerPaymentId: `unmatched-${c.clientId}`,
      reference: '0000000000',
      amount: 500_00,
      channel: 'cebuana',
      paidAt: new Date(),
      source: 'webhook',
    })
    expect(got.outcome).toBe('unmatched')
    const list = await call<{ id: number; status: string }[]>(
      t,
      'GET',
      '/private/back-office/payments?status=unmatched&perPage=5',
      undefined,
      { token: admin },
    )
    expect(list.res.headers.get('x-per-page')).toBe('5')
    expect(list.body.data.map((p) => p.id)).toContain(got.paymentId)
    expect(list.body.data.every((p) => p.status === 'unmatched')).toBe(true)
    const assigned = await call<{ status: string; loanId: number }>(
      t,
      'POST',
      `/private/back-office/payments/${got.paymentId}/assign`,
      { loanId: l.id, reason: 'Receipt sent by the client' },
      { token: admin },
    )
    expect(assigned.body.data).toMatchObject({ status: 'posted', loanId: l.id })
    expect((await active(c))!.amountDue.amount).toBe(l.amountDue.amount - 500_00)
    const bad = await pay(c, 100, 'bad-ref-key')
    expect(bad.status).toBe(201)
    const invalid = await call(
      t,
      'POST',
      '/private/back-office/payments',
      { reference: '1234567890', amount: 100, channel: 'bayad', idempotencyKey: 'invalid-reference' },
      { token: admin },
    )
    expect(invalid.status).toBe(400)
  })
})
