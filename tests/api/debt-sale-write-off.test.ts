/**
 * Issue 18, items 3 and 4 over the API and the database (docs/decisions/0029): selling overdue loans to a
 * collection agency (one, a batch, refusals, twice at once), the client's sold-debt facts and notice, payments
 * after the sale (posted, owed to the agency, the books at 0), writing a loan off by entries and recoveries after
 * it. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { daysBetween, manilaDate, manilaDayStart } from '../../domain/pricing/manila-date'
import { debtForward, debtSaleLoan, loanWriteOff } from '../../server/db/schema-debt'
import { backOfficeUser, outboxMessage } from '../../server/db/schema-identity'
import { loan } from '../../server/db/schema-lending'
import { loanLedgerEntry, payment, servicingJob } from '../../server/db/schema-payments'
import { postPaidInBatch } from '../../server/services/payments/batch-posting'
import { runServicingJobs } from '../../server/services/payments/jobs'
import { balancesOfLoan } from '../../server/services/payments/loans'
import { sellDebt } from '../../server/services/servicing/debt-sale'
import { createTestApp } from '../support/app'
import { proposeAndApprove } from '../support/maker-checker'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'

interface ActiveLoan {
  id: number
  dueDate: string
  amountDue: { amount: number }
}
interface SaleAnswer {
  saleId: number | null
  agencyId: number
  sold: { loanId: number; amount: number; loanNumber: string }[]
  refused: { loanId: number; code: string; message: string }[]
}

describe('debt sale and write-off', () => {
  let t: TestApp
  let admin: string
  let agencyId: number
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
    const agencies = await call<{ id: number; name: string }[]>(
      t,
      'GET',
      '/private/back-office/collection-agencies',
      undefined,
      { token: admin },
    )
    expect(agencies.status).toBe(200)
    agencyId = agencies.body.data.find((a) => a.name.startsWith('Bantay Collections'))!.id
  })
  afterAll(() => t.close())

  const db = () => t.database.db
  const active = async (c: SignedUp) =>
    (await call<ActiveLoan | null>(t, 'GET', '/private/client/loan/active', undefined, { token: c.token }))
      .body.data!
  const clock = async (c: SignedUp, days: number) => {
    const r = await call<{ clientToday: string }>(
      t,
      'POST',
      '/private/back-office/sandbox/clock',
      { clientId: c.clientId, days },
      { token: admin },
    )
    expect(r.status).toBe(200)
    return r.body.data.clientToday
  }
  const today = async (c: SignedUp) => clock(c, 0)
  /** A client whose loan is overdue: the sandbox clock moved past its due date, and the daily run marked it. */
  const overdueClient = async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    await clock(c, daysBetween(await today(c), l.dueDate) + 2)
    expect((await loanRow(l.id)).standing).toBe('overdue')
    return { c, loanId: l.id }
  }
  // Maker-checker (issue 19 item 5): the admin proposes, a second administrator approves (tests/support).
  const sell = (loanIds: number[], id = agencyId) =>
    proposeAndApprove<SaleAnswer>(t, admin, '/private/back-office/debt-sales', { agencyId: id, loanIds })
  const pay = (c: SignedUp, amount: number, key: string) =>
    call<{ id: number; status: string; loanId: number | null }>(
      t,
      'POST',
      '/private/back-office/payments',
      { reference: paymentReferenceOf(c.clientId), amount, channel: 'bayad', idempotencyKey: `debt-${key}` },
      { token: admin },
    )
  const reverse = (paymentId: number) =>
    proposeAndApprove(t, admin, `/private/back-office/payments/${paymentId}/reversal`, {
      reason: 'Bounced deposit',
    })
  const loanRow = async (id: number) => (await db().select().from(loan).where(eq(loan.id, id)))[0]!
  const entriesOf = (id: number, kind: string) =>
    db()
      .select()
      .from(loanLedgerEntry)
      .where(and(eq(loanLedgerEntry.loanId, id), eq(loanLedgerEntry.kind, kind)))
  const receivable = async (id: number) => {
    const b = await balancesOfLoan(db(), id)
    return { principal: b.principal, interest: b.interest, fees: b.fees, penalties: b.penalties }
  }
  const zero = { principal: 0, interest: 0, fees: 0, penalties: 0 }

  /** An instant of today's Manila date at `hour` (the business day does not change; the hour decides the notice). */
  const manilaHour = (hour: number) =>
    new Date(manilaDayStart(manilaDate(new Date())).getTime() + hour * 3_600_000)
  /**
   * The sale service itself at that hour of today, Manila (the HTTP call would check the admin's session against
   * the shifted clock too): what the back office's `POST /debt-sales` runs.
   */
  const sellAt = async (hour: number, loanIds: number[]) => {
    const [user] = await db().select({ id: backOfficeUser.id }).from(backOfficeUser).limit(1)
    return sellDebt({ ...t.deps, now: () => manilaHour(hour) }, user!.id, { agencyId, loanIds })
  }
  const receiptsOf = async (c: SignedUp) =>
    await db()
      .select()
      .from(outboxMessage)
      .where(and(eq(outboxMessage.purpose, 'payment_receipt'), eq(outboxMessage.recipient, c.phone)))
      .orderBy(asc(outboxMessage.id))
  const noticesOf = async (c: SignedUp) =>
    (
      await db()
        .select()
        .from(outboxMessage)
        .where(eq(outboxMessage.purpose, 'debt_sold'))
        .orderBy(asc(outboxMessage.id))
    ).filter((m) => m.recipient === c.phone || m.recipient === c.email)

  it('a sale at night tells the client when the lawful hours begin (6 AM Manila), not before', async () => {
    const { c, loanId } = await overdueClient()
    const answer = await sellAt(23, [loanId])
    expect(answer.sold).toHaveLength(1)
    expect(await noticesOf(c)).toEqual([])
    const [job] = await db()
      .select()
      .from(servicingJob)
      .where(and(eq(servicingJob.kind, 'debt_sale_notice'), eq(servicingJob.subjectId, String(loanId))))
    expect(job!.runAt.toISOString()).toBe(new Date(manilaHour(24 + 6)).toISOString())
    // Before 6 AM nothing goes; at 6 AM the job sends the SMS and the e-mail.
    await runServicingJobs({ ...t.deps, now: () => manilaHour(24 + 5) })
    expect(await noticesOf(c)).toEqual([])
    await runServicingJobs({ ...t.deps, now: () => manilaHour(24 + 6) })
    expect((await noticesOf(c)).map((m) => m.channel).sort()).toEqual(['email', 'sms'])
  })

  it('sells one overdue loan: status 9, receivables to 0 by entries, the client told and sent to the debt-sold page', async () => {
    const { c, loanId } = await overdueClient()
    const owed = await receivable(loanId)
    // In the lawful hours the notice goes at once.
    const sold = await sellAt(10, [loanId])
    const answer = { status: 200, body: { data: sold } }
    expect(answer.status).toBe(200)
    expect(answer.body.data.refused).toEqual([])
    expect(answer.body.data.sold).toHaveLength(1)
    const total = owed.principal + owed.interest + owed.fees + owed.penalties
    // The interest due up to today is booked first: at least what was booked before.
    expect(answer.body.data.sold[0]!.amount).toBeGreaterThanOrEqual(total)
    const row = await loanRow(loanId)
    expect(row).toMatchObject({ state: 'sold_debt', status: 9 })
    expect(await receivable(loanId)).toEqual(zero)
    const sale = await entriesOf(loanId, 'debt_sale')
    expect(-sale.reduce((a, e) => a + e.amount, 0)).toBe(answer.body.data.sold[0]!.amount)
    const [saleRow] = await db().select().from(debtSaleLoan).where(eq(debtSaleLoan.loanId, loanId))
    expect(saleRow!.amount).toBe(answer.body.data.sold[0]!.amount)
    expect(saleRow!.notifiedAt).not.toBeNull()

    const me = await call<{ soldDebt: boolean; hasActiveLoan: boolean }>(
      t,
      'GET',
      '/private/client',
      undefined,
      {
        token: c.token,
      },
    )
    expect(me.body.data.soldDebt).toBe(true)
    const page = await call<
      { loanNumber: string; amountAtSale: { amount: number }; agency: { name: string; phone: string } }[]
    >(t, 'GET', '/private/client/loan/sold-debt', undefined, { token: c.token })
    expect(page.status).toBe(200)
    expect(page.body.data).toHaveLength(1)
    expect(page.body.data[0]!.agency.name).toMatch(/^Bantay Collections/)
    expect(page.body.data[0]!.amountAtSale.amount).toBe(saleRow!.amount)

    const notices = await db()
      .select()
      .from(outboxMessage)
      .where(eq(outboxMessage.purpose, 'debt_sold'))
      .orderBy(asc(outboxMessage.id))
    const mine = notices.filter((m) => m.recipient === c.phone || m.recipient === c.email)
    expect(mine.map((m) => m.channel).sort()).toEqual(['email', 'sms'])
    expect(mine[0]!.body).toContain('Bantay Collections')

    // Selling it again is refused for that loan, and no second sale is recorded.
    const again = await sell([loanId])
    expect(again.status).toBe(200)
    expect(again.body.data).toMatchObject({ saleId: null, sold: [] })
    expect(again.body.data.refused).toEqual([expect.objectContaining({ loanId, code: 'loanStateMismatch' })])
    expect(await db().select().from(debtSaleLoan).where(eq(debtSaleLoan.loanId, loanId))).toHaveLength(1)
  })

  it('sells a batch: the overdue loans are sold, a current and a paid loan are refused, the sale is listed', async () => {
    const one = await overdueClient()
    const two = await overdueClient()
    const current = await clientAt(t, 'loan_page')
    const currentLoan = await active(current)
    const paid = await clientAt(t, 'loan_page')
    const paidLoan = await active(paid)
    expect((await pay(paid, paidLoan.amountDue.amount, `payoff-${paid.clientId}`)).status).toBe(201)
    expect((await loanRow(paidLoan.id)).state).toBe('paid')

    const answer = await sell([one.loanId, two.loanId, currentLoan.id, paidLoan.id, one.loanId])
    expect(answer.status).toBe(200)
    expect(answer.body.data.sold.map((s) => s.loanId).sort()).toEqual([one.loanId, two.loanId].sort())
    expect(answer.body.data.refused.map((r) => [r.loanId, r.code])).toEqual([
      [currentLoan.id, 'loanStateMismatch'],
      [paidLoan.id, 'loanStateMismatch'],
    ])
    expect((await loanRow(currentLoan.id)).state).toBe('active')
    expect(await entriesOf(currentLoan.id, 'debt_sale')).toEqual([])

    const list = await call<{ id: number; loans: { loanId: number }[]; total: number }[]>(
      t,
      'GET',
      '/private/back-office/debt-sales',
      undefined,
      { token: admin },
    )
    expect(list.status).toBe(200)
    const sale = list.body.data.find((s) => s.id === answer.body.data.saleId)!
    expect(sale.loans.map((l) => l.loanId).sort()).toEqual([one.loanId, two.loanId].sort())
    expect(sale.total).toBe(answer.body.data.sold.reduce((a, s) => a + s.amount, 0))
  })

  it('a payment after the sale is posted to the loan and owed to the agency; the books stay at 0', async () => {
    const { c, loanId } = await overdueClient()
    const before = await pay(c, 200_00, `before-sale-${c.clientId}`)
    expect(before.body.data).toMatchObject({ status: 'posted', loanId })
    expect((await sell([loanId])).body.data.sold).toHaveLength(1)
    // What it paid left the books with the loan: its reversal now would make a sold loan owe Hiram again.
    const late = await reverse(before.body.data.id)
    expect(late.status).toBe(409)
    expect(late.body.response.code).toBe('paymentBeforeDefault')
    // Refused when executed: the proposal is marked failed with the code (it may be proposed again).
    const decided = await call<{ id: number; status: string; result: unknown }[]>(
      t,
      'GET',
      '/private/back-office/approvals?status=decided&kind=payments.reverse',
      undefined,
      { token: admin },
    )
    expect(decided.body.data.find((p) => p.id === late.proposalId)).toMatchObject({
      status: 'failed',
      result: { error: { code: 'paymentBeforeDefault' } },
    })
    const first = await pay(c, 1_000_00, `after-sale-${c.clientId}`)
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ status: 'posted', loanId })
    expect(await balancesOfLoan(db(), loanId)).toEqual({ ...zero, credit: 0 })
    const [forward] = await db()
      .select()
      .from(debtForward)
      .where(eq(debtForward.paymentId, first.body.data.id))
    expect(forward).toMatchObject({ status: 'pending', amount: 1_000_00, agencyId, loanId })
    expect((await loanRow(loanId)).state).toBe('sold_debt')
    // The receipt says the payment goes on to the agency, and whom to pay now (no "remaining balance").
    await runServicingJobs(t.deps)
    const receipt = (await receiptsOf(c)).at(-1)!
    expect(receipt.body).toMatch(
      /we received PHP 1,000\.00 .* now belongs to Bantay Collections.* pass this payment on/,
    )
    expect(receipt.body).not.toMatch(/Remaining balance|fully paid/)
    const page = await call<{ paidToHiramAfterSale: { amount: number } }[]>(
      t,
      'GET',
      '/private/client/loan/sold-debt',
      undefined,
      { token: c.token },
    )
    expect(page.body.data[0]!.paidToHiramAfterSale.amount).toBe(1_000_00)

    // Reversed before it was paid over: no longer owed to the agency.
    expect((await reverse(first.body.data.id)).status).toBe(200)
    const [cancelled] = await db()
      .select()
      .from(debtForward)
      .where(eq(debtForward.paymentId, first.body.data.id))
    expect(cancelled!.status).toBe('cancelled')

    // Paid over to the agency: a reversal is refused (get it back from the agency first).
    const second = await pay(c, 500_00, `after-sale-2-${c.clientId}`)
    const [pending] = await db()
      .select()
      .from(debtForward)
      .where(eq(debtForward.paymentId, second.body.data.id))
    const listed = await call<{ id: number; status: string }[]>(
      t,
      'GET',
      '/private/back-office/debt-forwards?status=pending',
      undefined,
      { token: admin },
    )
    expect(listed.body.data.map((f) => f.id)).toContain(pending!.id)
    const marked = await call<{ status: string }>(
      t,
      'POST',
      `/private/back-office/debt-forwards/${pending!.id}/forwarded`,
      undefined,
      { token: admin },
    )
    expect(marked.status).toBe(200)
    expect(marked.body.data.status).toBe('forwarded')
    const refused = await reverse(second.body.data.id)
    expect(refused.status).toBe(409)
    expect(refused.body.response.code).toBe('paymentForwarded')
    const [still] = await db().select().from(payment).where(eq(payment.id, second.body.data.id))
    expect(still!.status).toBe('posted')
  })

  it('writes a loan off by entries; a later payment is a recovery; the reversal undoes it', async () => {
    const { c, loanId } = await overdueClient()
    const refusedReason = await call(
      t,
      'POST',
      `/private/back-office/loan/${loanId}/write-off`,
      { reason: 'x' },
      { token: admin },
    )
    expect(refusedReason.status).toBe(400)
    const answer = await proposeAndApprove<{ loanId: number; state: string; status: number; amount: number }>(
      t,
      admin,
      `/private/back-office/loan/${loanId}/write-off`,
      { reason: 'Borrower deceased, no estate' },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.data).toMatchObject({ loanId, state: 'write_off', status: 10 })
    expect(await receivable(loanId)).toEqual(zero)
    const written = await entriesOf(loanId, 'write_off')
    expect(-written.reduce((a, e) => a + e.amount, 0)).toBe(answer.body.data.amount)
    expect(written.every((e) => e.memo === 'Borrower deceased, no estate')).toBe(true)
    const [record] = await db().select().from(loanWriteOff).where(eq(loanWriteOff.loanId, loanId))
    expect(record!.amount).toBe(answer.body.data.amount)

    // Written off already: refused when proposed, with the service's own code.
    const again = await call(
      t,
      'POST',
      `/private/back-office/loan/${loanId}/write-off`,
      { reason: 'Twice' },
      { token: admin },
    )
    expect(again.status).toBe(409)
    expect(again.body.response.code).toBe('loanStateMismatch')

    const paid = await pay(c, 700_00, `recovery-${c.clientId}`)
    expect(paid.body.data).toMatchObject({ status: 'posted', loanId })
    const recovered = await entriesOf(loanId, 'recovery')
    expect(recovered.reduce((a, e) => a + e.amount, 0)).toBe(700_00)
    expect(await balancesOfLoan(db(), loanId)).toEqual({ ...zero, credit: 0 })
    expect((await loanRow(loanId)).state).toBe('write_off')
    await runServicingJobs(t.deps)
    const receipt = (await receiptsOf(c)).at(-1)!
    expect(receipt.body).toMatch(/we received PHP 700\.00 for loan .*\. Thank you\./)
    expect(receipt.body).not.toMatch(/Remaining balance|fully paid/)

    expect((await reverse(paid.body.data.id)).status).toBe(200)
    expect(await balancesOfLoan(db(), loanId)).toEqual({ ...zero, credit: 0 })

    // More than was written off: recovered up to it, the rest is the client's credit.
    const over = await pay(c, answer.body.data.amount + 50_00, `recovery-all-${c.clientId}`)
    expect(over.body.data.status).toBe('posted')
    const net = (await entriesOf(loanId, 'recovery')).reduce((a, e) => a + e.amount, 0)
    const reversedRecoveries = (await entriesOf(loanId, 'reversal'))
      .filter((e) => e.memo === 'recovery')
      .reduce((a, e) => a + e.amount, 0)
    expect(net + reversedRecoveries).toBe(answer.body.data.amount)
    expect((await balancesOfLoan(db(), loanId)).credit).toBe(50_00)
  })

  it('refuses to write off a current loan', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    const answer = await call(
      t,
      'POST',
      `/private/back-office/loan/${l.id}/write-off`,
      { reason: 'Too early' },
      { token: admin },
    )
    expect(answer.status).toBe(409)
    expect((await loanRow(l.id)).state).toBe('active')
  })

  it('two sales of one loan at once: one wins, the other is refused', async () => {
    const { loanId } = await overdueClient()
    const [a, b] = await Promise.all([sell([loanId]), sell([loanId])])
    const sold = [a, b].flatMap((r) => r.body.data.sold)
    const refused = [a, b].flatMap((r) => r.body.data.refused)
    expect(sold).toHaveLength(1)
    expect(refused).toEqual([expect.objectContaining({ loanId, code: 'loanStateMismatch' })])
    expect(await db().select().from(debtSaleLoan).where(eq(debtSaleLoan.loanId, loanId))).toHaveLength(1)
    expect((await entriesOf(loanId, 'debt_sale')).length).toBeGreaterThan(0)
    expect(await receivable(loanId)).toEqual(zero)
  })

  it('the batched webhook posting leaves payments on sold and written-off loans to the single path', async () => {
    const sold = await overdueClient()
    expect((await sell([sold.loanId])).body.data.sold).toHaveLength(1)
    const written = await overdueClient()
    const off = await proposeAndApprove(t, admin, `/private/back-office/loan/${written.loanId}/write-off`, {
      reason: 'Uncollectable',
    })
    expect(off.status).toBe(200)
    const at = new Date().toISOString()
    for (const { c } of [sold, written]) {
      const outcome = await postPaidInBatch(t.deps, 'sandbox', {
        id: `evt_debt_${c.clientId}`,
        type: 'payment.paid',
        createdAt: at,
        data: {
          paymentId: `chg_debt_${c.clientId}`,
          reference: paymentReferenceOf(c.clientId),
          amount: 300_00,
          currency: 'PHP',
          channel: 'gcash',
          paidAt: at,
        },
      } as Parameters<typeof postPaidInBatch>[2])
      expect(outcome).toBe('single')
    }
    expect(await db().select().from(payment).where(eq(payment.loanId, sold.loanId))).toEqual([])
    expect(await db().select().from(payment).where(eq(payment.loanId, written.loanId))).toEqual([])
  })

  it('agencies: created and listed; a duplicate name, an unknown agency and bad input are refused', async () => {
    const created = await call<{ id: number; active: boolean }>(
      t,
      'POST',
      '/private/back-office/collection-agencies',
      {
        name: 'Tala Recovery Partners (test)',
        phone: '+63 2 8123 4567',
        email: 'Pay@Tala-Recovery.example',
        paymentInstructions: 'Pay at any Bayad center quoting your loan number.',
      },
      { token: admin },
    )
    expect(created.status).toBe(201)
    expect(created.body.data.active).toBe(true)
    const duplicate = await call(
      t,
      'POST',
      '/private/back-office/collection-agencies',
      {
        name: 'tala recovery partners (TEST)',
        phone: '+63 2 8123 4567',
        email: 'x@tala.example',
        paymentInstructions: 'Pay at any Bayad center quoting your loan number.',
      },
      { token: admin },
    )
    expect(duplicate.status).toBe(409)
    expect((await sell([1], 987_654)).status).toBe(404)
    expect((await sell([])).status).toBe(400)
    expect((await sell(Array.from({ length: 501 }, (_, i) => i + 1))).status).toBe(400)
    const asClient = await clientAt(t, 'loan_page')
    expect(
      (
        await call(
          t,
          'POST',
          '/private/back-office/debt-sales',
          { agencyId, loanIds: [1] },
          {
            token: asClient.token,
          },
        )
      ).status,
    ).toBe(403)
  })
})
