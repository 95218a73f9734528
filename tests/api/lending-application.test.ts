/**
 * Issue 6 over the API, per status transition and per sandbox outcome: apply, the asynchronous decision (run
 * with runDueJobs), counter-offers, manual verification in the back office, documents, the signing code, the
 * payout and the active loan. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { createHash } from 'node:crypto'
import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, manilaDate } from '../../domain/pricing/manila-date'
import { clientProfile } from '../../server/db/schema-journey'
import {
  application,
  applicationDecision,
  disbursement,
  lendingJob,
  loan,
  loanDocument,
} from '../../server/db/schema-lending'
import { ScoringPendingError } from '../../server/providers/scoring'
import { SCORING_RECHECK_MS } from '../../server/services/lending/jobs'
import { createTestApp } from '../support/app'
import { call, later, type TestApp } from './identity-helpers'
import { addBankAccountWithCode, seedSmallPsgc } from './journey-helpers'

import {
  type AppView,
  actual,
  adminToken,
  aMinuteLater,
  apply,
  applyBody,
  expectStatus,
  flowOf,
  pdfText,
  readyClient,
  runJobs,
  sign,
  signingCode,
} from './lending-helpers'

type Offer = {
  total: { amount: number }
  principal: { amount: number }
  term: number
  interest: { amount: number }
}

const printed = (centavos: number) =>
  `PHP ${Math.trunc(centavos / 100).toLocaleString('en-US')}.${String(centavos % 100).padStart(2, '0')}`

describe('lending API', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t.close())

  const count_ = async (table: typeof application | typeof disbursement | typeof loan, clientId: number) =>
    (await t.database.db.select({ n: count() }).from(table).where(eq(table.clientId, clientId)))[0]!.n

  it('approve: apply (1) -> signing (2) -> documents -> code -> accepted (3) -> payout -> completed (4) with an active loan', async () => {
    const c = await readyClient(t, 'Juan')
    const created = await expectStatus(apply(t, c), 201)
    const app = created.body.data
    expect(app).toMatchObject({
      status: 1,
      desiredLoanAmount: { amount: 5_000_00 },
      principalAmount: { amount: 5_000_00 },
      term: { value: 14, unit: 'day' },
      borrowersAdvantagePackageFeeConsent: true,
      disbursementType: { type: 'bank_transfer' },
    })
    expect(await flowOf(t, c)).toEqual({ step: 'application_processing', status: 'completed' })
    const status = await call(t, 'GET', '/private/client/application/actual/status', undefined, {
      token: c.token,
    })
    expect(status.body.data).toEqual({ id: app.id, status: 1 })

    expect(await runJobs(t)).toBeGreaterThan(0)
    expect((await actual(t, c)).status).toBe(2)
    expect(await flowOf(t, c)).toEqual({ step: 'otp_agreement', status: 'active' })

    // Explainable: the decision stored its rules, inputs and reasons.
    const [decision] = await t.database.db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, app.id))
    expect(decision).toMatchObject({ source: 'engine', outcome: 'approve', applicationVersion: 1 })
    expect((decision!.rules as { rule: string; passed: boolean }[]).map((r) => [r.rule, r.passed])).toEqual([
      ['client_status', true],
      ['age', true],
      ['identity_verified', true],
      ['additional_loan', true],
      ['repayment_history', true],
      ['affordability', true],
    ])
    expect(decision!.inputs).toMatchObject({ amount: 5_000_00, term: 14, monthlyIncome: 28_000_00 })
    // Last, how the limit was reached (ADR 0030).
    expect(decision!.reasons).toEqual(['sandbox: approve by default', 'limit: First-loan limit: ₱10,000.00.'])

    // The offer is the pricing engine's for the application's figures: the same as the client's calculator offer.
    const offer = (
      await call<Offer>(t, 'GET', `/private/client/application/${app.id}/offer/actual`, undefined, {
        token: c.token,
      })
    ).body.data
    const calculator = (
      await call<Offer>(t, 'GET', '/private/client/arithmetic/offer/stl/500000/14', undefined, {
        token: c.token,
      })
    ).body.data
    expect(offer).toEqual(calculator)

    // No code before the documents exist.
    const early = await call(
      t,
      'POST',
      `/private/client/application/agreement/${app.id}`,
      {},
      { token: c.token },
    )
    expect(early.status).toBe(409)
    // A malformed code is a 400, a wrong one a 422; neither signs anything.
    await expectStatus(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
    const agreement = `/private/client/application/agreement/${app.id}`
    const malformed = await call(t, 'POST', agreement, { code: '1234' }, { token: c.token })
    expect(malformed.status).toBe(400)
    expect(malformed.body.response.violations?.[0]?.propertyPath).toBe('code')
    const signed = await aMinuteLater(t, async () => {
      const code = await signingCode(t, c, app.id)
      const wrong = await call(
        t,
        'POST',
        agreement,
        { code: code === '000' ? '001' : '000' },
        { token: c.token },
      )
      expect(wrong.status).toBe(422)
      expect(wrong.body.response.message).toBe('Phone verification not passed')
      expect((await actual(t, c)).status).toBe(2)
      return call(t, 'POST', agreement, { code }, { token: c.token })
    })
    expect(signed.status).toBe(200)
    expect((await actual(t, c)).status).toBe(3)
    expect(await flowOf(t, c)).toEqual({ step: 'payout_processing', status: 'completed' })
    const docsBefore = await t.database.db
      .select()
      .from(loanDocument)
      .where(eq(loanDocument.applicationId, app.id))
    expect(docsBefore.every((d) => d.signedAt !== null)).toBe(true)

    await runJobs(t)
    expect((await actual(t, c)).status).toBe(4)
    expect(await flowOf(t, c)).toEqual({ step: 'loan_page', status: 'active' })
    const active = await expectStatus(
      call(t, 'GET', '/private/client/loan/active', undefined, { token: c.token }),
    )
    const today = manilaDate(new Date())
    // Today's payoff: the principal, every fee (booked at payout) and one day of the contract's interest (the
    // payout day counts); the whole interest accrues by the due date (docs/decisions/0024).
    const fees = offer.total.amount - 5_000_00 - offer.interest.amount
    const oneDay = Math.floor(offer.interest.amount / 14)
    expect(active.body.data).toMatchObject({
      status: 4,
      state: 'active',
      principal: { amount: 5_000_00 },
      contractInterest: { amount: offer.interest.amount },
      amountDue: {
        amount: 5_000_00 + fees + oneDay,
        parts: {
          principal: { amount: 5_000_00 },
          interest: { amount: oneDay },
          fees: { amount: fees },
          penalties: { amount: 0 },
        },
      },
      dueDate: addDays(today, 14),
      repaymentInvoice: { dueDays: 14, amount: { amount: 5_000_00 + fees + oneDay } },
      createdAtDate: today,
      finalClosingDate: `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`,
    })

    // The client now reads as having an active loan; what is left of the first-loan limit (PHP 10,000 less the
    // PHP 5,000 owed) is available as an additional loan (ADR 0030).
    const me = await call<{
      hasActiveLoan: boolean
      availableLoanAmount: { amount: number }
      hasActualApplication: boolean
    }>(t, 'GET', '/private/client', undefined, { token: c.token })
    expect(me.body.data).toMatchObject({
      hasActiveLoan: true,
      availableLoanAmount: { amount: 5_000_00 },
      hasActualApplication: false,
    })

    // The signed PDFs are kept unchanged: the downloaded bytes hash to what was recorded at rendering.
    for (const type of ['loan_agreement', 'disclosure_statement']) {
      const res = await t.request(`/web/private/client/document/download/${type}`, {
        headers: { authorization: `Bearer ${c.token}` },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/pdf')
      const bytes = new Uint8Array(await res.arrayBuffer())
      const recorded = docsBefore.find((d) => d.type === type)!
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(recorded.sha256)
      const text = await pdfText(bytes)
      expect(text).toContain(printed(offer.total.amount))
      expect(text).toContain(printed(5_000_00))
    }
    const list = await call<{ type: string; signed: boolean }[]>(
      t,
      'GET',
      '/private/client/document/list',
      undefined,
      {
        token: c.token,
      },
    )
    expect(list.body.data.map((d) => [d.type, d.signed]).sort()).toEqual([
      ['disclosure_statement', true],
      ['loan_agreement', true],
    ])
    expect(await count_(disbursement, c.clientId)).toBe(1)
    expect(await count_(loan, c.clientId)).toBe(1)
  })

  it('the disclosure statement itemises every finance charge of the offer to the centavo', async () => {
    const c = await readyClient(t, 'Maria')
    const app = (await expectStatus(apply(t, c, applyBody(7_300_00, 21, { promoCode: 'HIRAM10' })), 201)).body
      .data
    await runJobs(t)
    const rendered = await expectStatus(
      call<{ offer: Offer & Record<string, { amount: number }> }>(
        t,
        'POST',
        '/private/client/render/document',
        {},
        { token: c.token },
      ),
      201,
    )
    const offer = rendered.body.data.offer
    const res = await t.request('/web/private/client/document/download/disclosure_statement', {
      headers: { authorization: `Bearer ${c.token}` },
    })
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()))
    expect(text).toContain(`1. Loan amount (principal): ${printed(7_300_00)}`)
    expect(text).toContain(`2. Amount financed: ${printed(7_300_00)}`)
    expect(text).toContain(`a. Interest (21 days): ${printed(offer.interest.amount)}`)
    expect(text).toContain(`b. Processing fee: ${printed(offer.processingFee!.amount)}`)
    expect(text).toContain(`c. Service fee: ${printed(offer.serviceFee!.amount)}`)
    expect(text).toContain(
      `f. Borrower's advantage package fee: ${printed(offer.borrowers_advantage_package_fee!.amount)}`,
    )
    expect(text).toContain(`Total finance charges: ${printed(offer.total.amount - 7_300_00)}`)
    expect(text).toContain(`6. Total amount to be paid: ${printed(offer.total.amount)}`)
    expect(text).toContain('Promo code applied: HIRAM10')
    // The effective rate per month stays under the 12% cap of SEC MC 14 s.2025.
    const eir = Number(/8\. Effective interest rate: ([\d.]+)% per month/.exec(text)?.[1])
    expect(eir).toBeGreaterThan(0)
    expect(eir).toBeLessThanOrEqual(12)
    expect(app.promoCode).toBe('HIRAM10')
  })

  it('reject: status 6 and reject_page; a new application is possible afterwards', async () => {
    const c = await readyClient(t, 'Reject')
    const first = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await actual(t, c)).status).toBe(6)
    expect(await flowOf(t, c)).toEqual({ step: 'reject_page', status: 'active' })
    const second = await expectStatus(apply(t, c), 201)
    expect(second.body.data.id).not.toBe(first.id)
  })

  it('manual verification: 14 and manual_page; the back office approves (2) or rejects (6) with a reason', async () => {
    const a = await readyClient(t, 'Manual')
    const b = await readyClient(t, 'manual')
    const appA = (await expectStatus(apply(t, a), 201)).body.data
    const appB = (await expectStatus(apply(t, b), 201)).body.data
    await runJobs(t)
    expect((await actual(t, a)).status).toBe(14)
    expect(await flowOf(t, a)).toEqual({ step: 'manual_page', status: 'active' })

    // Both wait in the back office's review queue, oldest first, with the engine's reasons.
    type Queued = { id: number; status: number; clientName: string; decision: { reasons: string[] } | null }
    const queue = async () =>
      (await call<Queued[]>(t, 'GET', '/private/back-office/review-queue', undefined, { token: admin })).body
        .data
    const waiting = (await queue()).filter((q) => q.id === appA.id || q.id === appB.id)
    expect(waiting.map((q) => [q.id, q.status, q.clientName])).toEqual([
      [appA.id, 14, 'Manual Santos Dela Cruz'],
      [appB.id, 14, 'manual Santos Dela Cruz'],
    ])
    expect(waiting[0]!.decision?.reasons).toEqual([
      'sandbox: first name Manual',
      'limit: First-loan limit: ₱10,000.00.',
    ])
    // A client's token is refused: the queue is the back office's.
    expect(
      (await call(t, 'GET', '/private/back-office/review-queue', undefined, { token: a.token })).status,
    ).toBe(403)

    // A client token cannot decide; a reason is required.
    const byClient = await call(
      t,
      'PUT',
      `/private/back-office/application/${appA.id}/decision`,
      { decision: 'approve', reason: 'ok' },
      { token: a.token },
    )
    expect(byClient.status).toBe(403)
    const noReason = await call(
      t,
      'PUT',
      `/private/back-office/application/${appA.id}/decision`,
      { decision: 'approve' },
      { token: admin },
    )
    expect(noReason.status).toBe(400)
    expect(noReason.body.response.violations?.map((v) => v.propertyPath)).toEqual(['reason'])

    await expectStatus(
      call(
        t,
        'PUT',
        `/private/back-office/application/${appA.id}/decision`,
        { decision: 'approve', reason: 'Payslip checked by phone.' },
        { token: admin },
      ),
    )
    expect((await actual(t, a)).status).toBe(2)
    expect(await flowOf(t, a)).toEqual({ step: 'otp_agreement', status: 'active' })
    await expectStatus(
      call(
        t,
        'PUT',
        `/private/back-office/application/${appB.id}/decision`,
        { decision: 'reject', reason: 'Employer could not be reached.' },
        { token: admin },
      ),
    )
    expect((await actual(t, b)).status).toBe(6)
    expect(await flowOf(t, b)).toEqual({ step: 'reject_page', status: 'active' })
    const [stored] = await t.database.db
      .select()
      .from(applicationDecision)
      .where(
        and(eq(applicationDecision.applicationId, appB.id), eq(applicationDecision.source, 'back_office')),
      )
    expect(stored).toMatchObject({ outcome: 'reject', reasons: ['Employer could not be reached.'] })
    // Deciding twice is refused.
    const again = await call(
      t,
      'PUT',
      `/private/back-office/application/${appA.id}/decision`,
      { decision: 'reject', reason: 'Changed my mind.' },
      { token: admin },
    )
    expect(again.status).toBe(409)
    // Decided applications leave the queue.
    expect((await queue()).some((q) => q.id === appA.id || q.id === appB.id)).toBe(false)
  })

  it('yhat decrease: 17 with a lower amount; accepting signs for it, more than offered is a 400', async () => {
    const c = await readyClient(t, 'Decrease')
    await expectStatus(apply(t, c, applyBody(8_000_00, 20)), 201)
    await runJobs(t)
    const app = await actual(t, c)
    expect(app).toMatchObject({ status: 17, offeredAmount: { amount: 4_000_00 } })
    expect(await flowOf(t, c)).toEqual({ step: 'offer_decrease', status: 'active' })
    // The offer the screen shows is the price of the lower amount: what accepting signs for.
    const shown = await call<Offer>(
      t,
      'GET',
      `/private/client/application/${app.id}/offer/actual`,
      undefined,
      {
        token: c.token,
      },
    )
    expect(shown.body.data).toMatchObject({ principal: { amount: 4_000_00 }, term: 20 })
    // The special-offer call does not answer a yhat decrease.
    expect(
      (await call(t, 'PUT', '/private/client/special/offer/approve', {}, { token: c.token })).status,
    ).toBe(409)
    const tooMuch = await call(
      t,
      'PUT',
      '/private/client/yhat/offer/approve/decrease',
      { amount: { amount: 5_000_00 } },
      { token: c.token },
    )
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.body.response.violations?.[0]?.propertyPath).toBe('amount.amount')
    const accepted = await expectStatus(
      call<AppView>(t, 'PUT', '/private/client/yhat/offer/approve/decrease', {}, { token: c.token }),
    )
    expect(accepted.body.data).toMatchObject({
      status: 2,
      principalAmount: { amount: 4_000_00 },
      desiredLoanAmount: { amount: 8_000_00 },
      term: { value: 20 },
    })
    expect(await flowOf(t, c)).toEqual({ step: 'otp_agreement', status: 'active' })
    expect((await sign(t, c, app.id)).status).toBe(200)
    await runJobs(t)
    const active = await call<{ principal: { amount: number } }>(
      t,
      'GET',
      '/private/client/loan/active',
      undefined,
      { token: c.token },
    )
    expect(active.body.data.principal.amount).toBe(4_000_00)
  })

  it('special offer: 13, answered by the special-offer call only', async () => {
    const c = await readyClient(t, 'Special')
    await expectStatus(apply(t, c, applyBody(6_000_00, 10)), 201)
    await runJobs(t)
    const offered = await actual(t, c)
    expect(offered).toMatchObject({ status: 13, offeredAmount: { amount: 3_000_00 } })
    const shown = await call<Offer>(
      t,
      'GET',
      `/private/client/application/${offered.id}/offer/actual`,
      undefined,
      { token: c.token },
    )
    expect(shown.body.data.principal.amount).toBe(3_000_00)
    expect(await flowOf(t, c)).toEqual({ step: 'offer_decrease', status: 'active' })
    expect(
      (await call(t, 'PUT', '/private/client/yhat/offer/approve/decrease', {}, { token: c.token })).status,
    ).toBe(409)
    const ok = await expectStatus(
      call<AppView>(t, 'PUT', '/private/client/special/offer/approve', {}, { token: c.token }),
    )
    expect(ok.body.data).toMatchObject({ status: 2, principalAmount: { amount: 3_000_00 } })
  })

  it('yhat increase: 18 up to the available amount; accepting a higher amount, or refusing with the original figures', async () => {
    const up = await readyClient(t, 'Increase')
    const keep = await readyClient(t, 'INCREASE')
    await expectStatus(apply(t, up, applyBody(3_000_00, 15)), 201)
    await expectStatus(apply(t, keep, applyBody(3_000_00, 15)), 201)
    await runJobs(t)
    expect(await actual(t, up)).toMatchObject({ status: 18, offeredAmount: { amount: 10_000_00 } })
    expect(await flowOf(t, up)).toEqual({ step: 'offer_increase', status: 'active' })
    const above = await call(
      t,
      'PUT',
      '/private/client/yhat/offer/approve/increase',
      { amount: { amount: 11_000_00 }, term: { value: 15 } },
      { token: up.token },
    )
    expect(above.status).toBe(400)
    const below = await call(
      t,
      'PUT',
      '/private/client/yhat/offer/approve/increase',
      { amount: { amount: 2_000_00 }, term: { value: 15 } },
      { token: up.token },
    )
    expect(below.status).toBe(400)
    const raised = await expectStatus(
      call<AppView>(
        t,
        'PUT',
        '/private/client/yhat/offer/approve/increase',
        { amount: { amount: 8_000_00 }, term: { value: 30 } },
        { token: up.token },
      ),
    )
    expect(raised.body.data).toMatchObject({
      status: 2,
      principalAmount: { amount: 8_000_00 },
      term: { value: 30 },
    })
    const refused = await expectStatus(
      call<AppView>(
        t,
        'PUT',
        '/private/client/yhat/offer/approve/increase',
        { amount: { amount: 3_000_00 }, term: { value: 15 } },
        { token: keep.token },
      ),
    )
    expect(refused.body.data).toMatchObject({
      status: 2,
      principalAmount: { amount: 3_000_00 },
      term: { value: 15 },
    })
  })

  it('affordability: a repayment above the disposable income gets the largest affordable amount (17), or a refusal', async () => {
    const tight = await readyClient(t, 'Juan')
    const poor = await readyClient(t, 'Juan')
    // Registration stored PHP 28,000 income and PHP 12,000 expenses; these clients declared less.
    await t.database.db
      .update(clientProfile)
      .set({ monthlyIncome: 8_000_00, monthlyExpenses: 4_000_00 })
      .where(eq(clientProfile.clientId, tight.clientId))
    await t.database.db
      .update(clientProfile)
      .set({ monthlyIncome: 1_500_00, monthlyExpenses: 1_000_00 })
      .where(eq(clientProfile.clientId, poor.clientId))
    const app = (await expectStatus(apply(t, tight, applyBody(8_000_00, 14)), 201)).body.data
    await expectStatus(apply(t, poor, applyBody(8_000_00, 14)), 201)
    await runJobs(t)
    const decided = await actual(t, tight)
    expect(decided.status).toBe(17)
    const offered = decided.offeredAmount!.amount
    const totalAt = async (amount: number) =>
      (
        await call<Offer>(t, 'GET', `/private/client/arithmetic/offer/stl/${amount}/14`, undefined, {
          token: tight.token,
        })
      ).body.data.total.amount
    expect(await totalAt(offered)).toBeLessThanOrEqual(4_000_00)
    expect(await totalAt(offered + 100_00)).toBeGreaterThan(4_000_00)
    const [decision] = await t.database.db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, app.id))
    expect(decision).toMatchObject({ outcome: 'decrease', offeredAmount: offered })
    expect((decision!.reasons as string[])[0]).toMatch(/^affordability:/)
    expect((decision!.inputs as { scoring: unknown }).scoring).toBeNull()
    expect((await actual(t, poor)).status).toBe(6)
    expect(await flowOf(t, poor)).toEqual({ step: 'reject_page', status: 'active' })
  })

  it('a scoring provider that keeps failing: retried, then decision error (401) for a person to decide', async () => {
    const c = await readyClient(t, 'Scorefail')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    const start = Date.now()
    try {
      await runJobs(t)
      expect((await actual(t, c)).status).toBe(1)
      const [job] = await t.database.db.select().from(lendingJob).where(eq(lendingJob.applicationId, app.id))
      expect(job).toMatchObject({ attempts: 1, doneAt: null })
      // The error's class, never its message: the provider's message names the client (issue 13, item 4).
      expect(job!.lastError).toBe('ScoringUnavailableError')
      for (const minutes of [1, 3]) {
        t.setClock(() => new Date(start + minutes * 60_000))
        await runJobs(t)
      }
      expect((await actual(t, c)).status).toBe(401)
      expect(await flowOf(t, c)).toEqual({ step: 'manual_page', status: 'active' })
      await expectStatus(
        call(
          t,
          'PUT',
          `/private/back-office/application/${app.id}/decision`,
          { decision: 'approve', reason: 'Scored by hand.' },
          { token: admin },
        ),
      )
      expect((await actual(t, c)).status).toBe(2)
    } finally {
      t.setClock(() => new Date())
    }
  })

  it('a scoring provider still checking: verification (7) until it answers, and new figures make it new again', async () => {
    const c = await readyClient(t, 'Juan')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    const sandbox = t.deps.scoring
    let checking = true
    t.deps.scoring = {
      ...sandbox,
      async score(request) {
        if (checking) throw new ScoringPendingError('the bureau is still checking')
        return sandbox.score(request)
      },
    }
    const start = Date.now()
    const status = async () =>
      (await call(t, 'GET', '/private/client/application/actual/status', undefined, { token: c.token })).body
        .data
    try {
      await runJobs(t)
      expect(await status()).toEqual({ id: app.id, status: 7 })
      expect(await flowOf(t, c)).toEqual({ step: 'application_processing', status: 'completed' })
      const [job] = await t.database.db.select().from(lendingJob).where(eq(lendingJob.applicationId, app.id))
      expect(job).toMatchObject({ attempts: 0, doneAt: null })
      // Asked again a minute later: still checking, still verification, and no decision written.
      t.setClock(() => new Date(start + SCORING_RECHECK_MS + 1_000))
      await runJobs(t)
      expect((await actual(t, c)).status).toBe(7)
      // The client lowers the amount: the new figures are scored from scratch, from new (1).
      const changed = await expectStatus(
        call<AppView>(
          t,
          'PUT',
          `/private/client/application/${app.id}`,
          { amount: { amount: 4_000_00, currency: 'PHP' } },
          { token: c.token },
        ),
      )
      expect(changed.body.data).toMatchObject({ status: 1, desiredLoanAmount: { amount: 4_000_00 } })
      await runJobs(t)
      expect((await actual(t, c)).status).toBe(7)
      // The bureau answers: the engine decides from verification, on the figures it checked.
      checking = false
      t.setClock(() => new Date(start + 2 * SCORING_RECHECK_MS + 2_000))
      await runJobs(t)
      expect((await actual(t, c)).status).toBe(2)
      const decisions = await t.database.db
        .select()
        .from(applicationDecision)
        .where(eq(applicationDecision.applicationId, app.id))
      expect(decisions).toHaveLength(1)
      expect(decisions[0]!.inputs).toMatchObject({ amount: 4_000_00, applicationVersion: 2 })
    } finally {
      t.deps.scoring = sandbox
      t.setClock(() => new Date())
    }
  })

  it('a client may cancel an application in verification (7): canceled (5), and the answer that comes later is dropped', async () => {
    const c = await readyClient(t, 'Pending')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await actual(t, c)).status).toBe(7)
    await expectStatus(
      call(t, 'POST', `/private/client/application/${app.id}/cancel`, {}, { token: c.token }),
    )
    const [row] = await t.database.db.select().from(application).where(eq(application.id, app.id))
    expect(row!.status).toBe(5)
    const start = Date.now()
    try {
      t.setClock(() => new Date(start + SCORING_RECHECK_MS + 1_000))
      await runJobs(t)
      const [after] = await t.database.db.select().from(application).where(eq(application.id, app.id))
      expect(after!.status).toBe(5)
      const [job] = await t.database.db.select().from(lendingJob).where(eq(lendingJob.applicationId, app.id))
      expect(job!.doneAt).not.toBeNull()
    } finally {
      t.setClock(() => new Date())
    }
  })

  it('bad input is a 400 with field violations and writes nothing', async () => {
    const c = await readyClient(t, 'Juan')
    const cases: [unknown, string[]][] = [
      [applyBody(15_000_00), ['loanAmount.amount']],
      [applyBody(5_000_00, 3), ['term.value']],
      [applyBody(5_050_00), ['loanAmount.amount']],
      [{ loanAmount: { amount: 12.5 }, term: { value: 'x' } }, ['loanAmount.amount', 'term.value']],
      [applyBody(5_000_00, 14, { paymentMethod: 'cash' }), ['paymentMethod']],
      [applyBody(5_000_00, 14, { promoCode: 'OLDPROMO' }), ['promoCode']],
      [applyBody(5_000_00, 14, { affiliate: { evil: 'x' } }), ['affiliate']],
    ]
    for (const [body, paths] of cases) {
      const answer = await apply(t, c, body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.response.violations?.map((v) => v.propertyPath).sort()).toEqual(paths.sort())
    }
    const badKey = await apply(t, c, applyBody(), { 'idempotency-key': 'x' })
    expect(badKey.status).toBe(400)
    expect(await count_(application, c.clientId)).toBe(0)
    expect(await flowOf(t, c)).toEqual({ step: 'no_loan_page', status: 'active' })
  })

  it('one active application: a second create is 409 applicationExist; the same Idempotency-Key answers the first result', async () => {
    const c = await readyClient(t, 'Juan')
    const key = 'key-0001-abcdef'
    const first = await expectStatus(apply(t, c, applyBody(), { 'idempotency-key': key }), 201)
    const replay = await apply(t, c, applyBody(9_000_00), { 'idempotency-key': key })
    expect(replay.status).toBe(201)
    expect(replay.res.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body.data).toEqual(first.body.data)
    const second = await apply(t, c, applyBody())
    expect(second.status).toBe(409)
    expect(second.body.response.code).toBe('applicationExist')
    expect(await count_(application, c.clientId)).toBe(1)
  })

  it("only the client's own applications: another client gets 404", async () => {
    const owner = await readyClient(t, 'Juan')
    const other = await readyClient(t, 'Pedro')
    const app = (await expectStatus(apply(t, owner), 201)).body.data
    const token = { token: other.token }
    expect(
      (await call(t, 'GET', `/private/client/application/${app.id}/offer/actual`, undefined, token)).status,
    ).toBe(404)
    expect(
      (await call(t, 'PUT', `/private/client/application/${app.id}`, { term: { value: 20 } }, token)).status,
    ).toBe(404)
    expect((await call(t, 'POST', `/private/client/application/${app.id}/cancel`, {}, token)).status).toBe(
      404,
    )
    expect(
      (
        await call(
          t,
          'POST',
          `/private/client/application/${app.id}/promocode`,
          { promoCode: 'HIRAM10' },
          token,
        )
      ).status,
    ).toBe(404)
    expect((await call(t, 'POST', `/private/client/application/agreement/${app.id}`, {}, token)).status).toBe(
      404,
    )
    expect(await actual(t, other)).toBeNull()
  })

  it('update before the decision re-decides on the new figures; at signing only lower figures are accepted', async () => {
    const c = await readyClient(t, 'Juan')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    const changed = await expectStatus(
      call<AppView>(
        t,
        'PUT',
        `/private/client/application/${app.id}`,
        {
          amount: { amount: 6_000_00, currency: 'PHP' },
          term: { value: 21, unit: 'day' },
          consents: { acceptBorrowersAdvantagePackageFee: false },
        },
        { token: c.token },
      ),
    )
    expect(changed.body.data).toMatchObject({
      status: 1,
      principalAmount: { amount: 6_000_00 },
      desiredLoanAmount: { amount: 6_000_00 },
      term: { value: 21 },
      borrowersAdvantagePackageFeeConsent: false,
    })
    const empty = await call(t, 'PUT', `/private/client/application/${app.id}`, {}, { token: c.token })
    expect(empty.status).toBe(400)
    await runJobs(t)
    const [decision] = await t.database.db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, app.id))
    expect(decision!.inputs).toMatchObject({ amount: 6_000_00, term: 21, applicationVersion: 2 })
    const higher = await call(
      t,
      'PUT',
      `/private/client/application/${app.id}`,
      { amount: { amount: 7_000_00 } },
      { token: c.token },
    )
    expect(higher.status).toBe(400)
    expect(higher.body.response.violations?.[0]?.propertyPath).toBe('amount.amount')
    const lower = await expectStatus(
      call<AppView>(
        t,
        'PUT',
        `/private/client/application/${app.id}`,
        { amount: { amount: 5_500_00 } },
        { token: c.token },
      ),
    )
    expect(lower.body.data).toMatchObject({ status: 2, principalAmount: { amount: 5_500_00 } })
  })

  it('documents rendered before a change are stale: signing needs them rendered again', async () => {
    const c = await readyClient(t, 'Juan')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    await expectStatus(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
    await expectStatus(
      call(
        t,
        'PUT',
        `/private/client/application/${app.id}`,
        { amount: { amount: 4_000_00 } },
        { token: c.token },
      ),
    )
    const code = await call(
      t,
      'POST',
      `/private/client/application/agreement/${app.id}`,
      {},
      { token: c.token },
    )
    expect(code.status).toBe(409)
    expect((await sign(t, c, app.id)).status).toBe(200)
    const [row] = await t.database.db
      .select()
      .from(disbursement)
      .where(eq(disbursement.applicationId, app.id))
    expect(row!.amount).toBe(4_000_00)
  })

  it('cancel: status 5, no_loan_page, and the pending decision never runs', async () => {
    const c = await readyClient(t, 'Juan')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    const canceled = await expectStatus(
      call<AppView>(t, 'POST', `/private/client/application/${app.id}/cancel`, {}, { token: c.token }),
    )
    expect(canceled.body.data.status).toBe(5)
    expect(await flowOf(t, c)).toEqual({ step: 'no_loan_page', status: 'active' })
    await runJobs(t)
    expect((await actual(t, c)).status).toBe(5)
    const decisions = await t.database.db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, app.id))
    expect(decisions).toEqual([])
    expect(
      (await call(t, 'POST', `/private/client/application/${app.id}/cancel`, {}, { token: c.token })).status,
    ).toBe(409)
  })

  it('promo code: a valid one is applied, an invalid one is refused with error-promo-applied-wrong', async () => {
    const c = await readyClient(t, 'Juan')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    const bad = await call(
      t,
      'POST',
      `/private/client/application/${app.id}/promocode`,
      { promoCode: 'SOON27' },
      { token: c.token },
    )
    expect(bad.status).toBe(422)
    expect(bad.body.response.violations).toEqual([
      { propertyPath: 'promoCode', message: 'error-promo-applied-wrong' },
    ])
    const good = await expectStatus(
      call<{ application: AppView; offer: Offer & { promo: { applied: boolean } } }>(
        t,
        'POST',
        `/private/client/application/${app.id}/promocode`,
        { promoCode: 'WELCOME' },
        { token: c.token },
      ),
    )
    expect(good.body.data.application.promoCode).toBe('WELCOME')
    expect(good.body.data.offer.promo.applied).toBe(true)
  })

  it('payment method: the selected payout account', async () => {
    const c = await readyClient(t, 'Juan')
    const answer = await expectStatus(
      call<{ disbursement: { type: string } }>(
        t,
        'GET',
        '/private/client/application/payment-method',
        undefined,
        { token: c.token },
      ),
    )
    expect(answer.body.data.disbursement.type).toBe('bank_transfer')
  })

  it('cash pickup: the loan starts, the application carries the pickup number, the journey shows tmc_page', async () => {
    const c = await readyClient(t, 'Juan', { type: 'cash_pickup' })
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await sign(t, c, app.id)).status).toBe(200)
    await runJobs(t)
    const done = await actual(t, c)
    expect(done).toMatchObject({ status: 4, disbursementType: { type: 'cash_pickup' } })
    expect(done.cashPickupNumber).toMatch(/^CP\d{10}$/)
    expect(await flowOf(t, c)).toEqual({ step: 'tmc_page', status: 'active' })
    expect(await count_(loan, c.clientId)).toBe(1)
  })

  it('payout failure: back to disbursement_type; a new account and PUT /finish retry the same disbursement', async () => {
    const c = await readyClient(t, 'Juan', { type: 'bank_transfer', accountNumber: '009876540000' })
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await sign(t, c, app.id)).status).toBe(200)
    await runJobs(t)
    expect((await actual(t, c)).status).toBe(3)
    expect(await flowOf(t, c)).toEqual({ step: 'disbursement_type', status: 'active' })
    const [failed] = await t.database.db
      .select()
      .from(disbursement)
      .where(eq(disbursement.applicationId, app.id))
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'The receiving account was refused.' })
    // The loan exists from the signature as a draft (status 1): no money left, nothing booked.
    const loans = await t.database.db.select().from(loan).where(eq(loan.clientId, c.clientId))
    expect(loans.map((l) => [l.status, l.state])).toEqual([[1, 'draft']])
    // A new application is not possible while the signed one waits for its money.
    expect((await apply(t, c)).status).toBe(409)

    // Registration is over: the new account needs the SMS code (tests/api/payout-change.test.ts), a code a
    // minute after the signing code.
    await later(t, 125_000, async () => {
      await addBankAccountWithCode(t, c, '001122334455')
    })
    await expectStatus(call(t, 'PUT', '/private/client/finish', {}, { token: c.token }))
    expect(await flowOf(t, c)).toEqual({ step: 'payout_processing', status: 'completed' })
    await runJobs(t)
    expect((await actual(t, c)).status).toBe(4)
    expect(await flowOf(t, c)).toEqual({ step: 'loan_page', status: 'active' })
    expect(await count_(disbursement, c.clientId)).toBe(1)
    const [paid] = await t.database.db
      .select()
      .from(disbursement)
      .where(eq(disbursement.applicationId, app.id))
    expect(paid).toMatchObject({ status: 'succeeded', attempts: 2 })
  })

  it('50 concurrent creates: exactly one application; 50 concurrent signatures: exactly one disbursement', async () => {
    const c = await readyClient(t, 'Juan')
    const creates = await Promise.all(Array.from({ length: 50 }, () => apply(t, c)))
    expect(creates.filter((a) => a.status === 201)).toHaveLength(1)
    expect(creates.filter((a) => a.status === 409)).toHaveLength(49)
    expect(creates.every((a) => a.status === 201 || a.status === 409)).toBe(true)
    expect(await count_(application, c.clientId)).toBe(1)
    const app = await actual(t, c)
    await runJobs(t)
    await expectStatus(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
    const signs = await aMinuteLater(t, async () => {
      const code = await signingCode(t, c, app.id)
      return Promise.all(
        Array.from({ length: 50 }, () =>
          call(t, 'POST', `/private/client/application/agreement/${app.id}`, { code }, { token: c.token }),
        ),
      )
    })
    expect(signs.filter((a) => a.status === 200)).toHaveLength(1)
    expect(signs.every((a) => a.status < 500)).toBe(true)
    // And the payout job run by two workers at once pays once.
    await Promise.all([runJobs(t), runJobs(t)])
    expect(await count_(disbursement, c.clientId)).toBe(1)
    expect(await count_(loan, c.clientId)).toBe(1)
  })
})
