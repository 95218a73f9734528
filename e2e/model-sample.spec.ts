/**
 * Model-based tests that drive the real system, the browser half (issue 20 item 4): a sample of the paths planned
 * from the server's two statecharts, at least one through each state, replayed in Chromium.
 *
 * The plan is the API suite's (tests/support/model-plan.ts with the rules of tests/support/model-rules.ts), asked to
 * cover every state rather than every transition (the API suite takes every transition): the journey needs four
 * paths, one per outcome the sandbox providers fix at sign-up, the loan lifecycle five. Nothing here lists paths by
 * hand: a new state in either machine is planned and must be reached here.
 *
 * How each event is caused:
 * - What the borrower does, through the screens: each registration form, the identity check, the bank link, the
 *   payout account, applying, answering an offer, signing, agreeing a payment schedule.
 * - What the server does by itself (decisions, payouts, the daily servicing run): nothing to do but wait, or the
 *   sandbox clock for the days a path needs to pass.
 * - What staff do (a manual approval, a hold, a cancel, a write-off, a debt sale with its second approval) and a
 *   payment made at a counter: their real API calls, as the back office and the gateway make them.
 * A path that shares its start with an earlier path of the sample replays that shared part over the API (the same
 * calls the screens send, e2e/clients.ts `registrationCalls`; for a loan, the signing the journey sample drove), so
 * each borrower event runs through the screens at least once without every path filling every form again.
 *
 * After every event the browser must show the state: for a journey step the page the one journey model maps it to
 * (`routeForFlow`) and the server's flow answering that step; for a loan state what the borrower sees of it (my loan,
 * its overdue notice or instalments, the debt-sold page, the apply page once closed). At the end, the client's
 * recorded history (the back office's timeline) must hold the path's events in order.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { transition } from 'xstate'
import type { ActiveLoan } from '../domain/contract/lending-answers'
import type { PaymentSchedule } from '../domain/contract/servicing-answers'
import {
  clientJourneyMachine,
  type JourneyEventType,
  type JourneyStep,
  stepMeta,
} from '../domain/journey/client-journey.machine'
import { journeyPages } from '../domain/journey/destinations'
import { routeForFlow } from '../domain/journey/routing'
import { type LoanEventType, loanLifecycleMachine } from '../domain/loan/loan-lifecycle.machine'
import { daysBetween } from '../domain/pricing/manila-date'
import { type PlannedPath, planCoverage } from '../tests/support/model-plan'
import {
  type JourneyFacts,
  journeyPlanRules,
  type LoanFacts,
  loanPlanRules,
  sandboxDataOf,
} from '../tests/support/model-rules'
import {
  adminToken,
  lastCode,
  logInAsClient,
  type PayoutAccount,
  type ReadyClient,
  type RegistrationEvent,
  readyClient,
  registrationCalls,
  verifiedClient,
} from './clients'
import { expect, test } from './fixtures'
import { applyInBrowser, signSchedule, signSummary } from './journey-steps'
import {
  chooseFirst,
  fillAddress,
  fillDetails,
  fillDocuments,
  fillEmployment,
  fillReference,
  pageToken,
  serverFlow,
  signUpFromCalculator,
} from './registration-steps'
import { inviteStaff, staffToken } from './staff'

const journeyPlan = planCoverage(journeyPlanRules, 'states')
const loanPlan = planCoverage(loanPlanRules, 'states')

/** How many leading events `path` shares with the paths planned before it. */
function sharedStart(paths: readonly PlannedPath<never>[], index: number): number {
  let best = 0
  for (const earlier of paths.slice(0, index)) {
    let n = 0
    while (n < earlier.events.length && earlier.events[n] === paths[index]!.events[n]) n++
    best = Math.max(best, n)
  }
  return best
}

let admin: string
let checker: string | null = null

test.beforeAll(async ({ request }) => {
  admin = await adminToken(request)
})

const asAdmin = (token = admin) => ({ authorization: `Bearer ${token}` })

/** A second administrator's session, for the second approval of a write-off or a sale (maker-checker). */
async function secondApprover(request: APIRequestContext): Promise<string> {
  checker ??= await staffToken(request, await inviteStaff(request, 'administrator'))
  return checker
}

/** Proposes with the seeded administrator and approves as a second one: the way a write-off or a sale is made. */
async function proposeAndApprove(request: APIRequestContext, path: string, data: unknown) {
  const proposed = await request.post(`/web/private/back-office${path}`, { headers: asAdmin(), data })
  expect(proposed.status(), await proposed.text()).toBe(202)
  const { id } = (await proposed.json()).data as { id: number }
  const approved = await request.post(`/web/private/back-office/approvals/${id}/approve`, {
    headers: asAdmin(await secondApprover(request)),
    data: {},
  })
  expect(approved.status(), await approved.text()).toBe(200)
}

interface HistoryRow {
  machine: string
  subjectId: number
  event: string
}

/** The client's recorded transitions, oldest first (the back office's timeline). */
async function history(request: APIRequestContext, clientId: number): Promise<HistoryRow[]> {
  const answer = await request.get(`/web/private/back-office/clients/${clientId}/timeline`, {
    headers: asAdmin(),
  })
  expect(answer.status(), await answer.text()).toBe(200)
  return (await answer.json()).data as HistoryRow[]
}

/** The model's events, in order, among what was recorded for `machine` (a call may record more). */
function expectInOrder(rows: readonly HistoryRow[], machine: string, events: readonly string[]) {
  const recorded = rows.filter((r) => r.machine === machine).map((r) => r.event)
  let at = 0
  for (const event of recorded) if (event === events[at]) at++
  expect(at, `${machine}: recorded ${recorded.join(', ')}; planned ${events.join(', ')}`).toBe(events.length)
}

async function clientIdOf(page: Page, request: APIRequestContext): Promise<number> {
  const me = await request.get('/web/private/client', {
    headers: { authorization: `Bearer ${await pageToken(page.context())}` },
  })
  expect(me.status()).toBe(200)
  return ((await me.json()).data as { id: number }).id
}

// ---------------------------------------------------------------------------------------------------------------
// The journey

interface JourneyRun {
  page: Page
  request: APIRequestContext
  client: ReadyClient
  data: ReturnType<typeof sandboxDataOf>
  cashPickup: boolean
  /** The details step was sent: the client has a first name (routing reads it). */
  named: boolean
}

/** The payout account for the sandbox's answer: a bank account it pays, one it fails (…0000), or a cash pickup. */
function payoutAccount(kind: ReturnType<typeof sandboxDataOf>['payout'], phone: string): PayoutAccount {
  if (kind === 'cash_pickup') return { type: 'cash_pickup', provider: 'cebuana' }
  const accountNumber = kind === 'failing_bank' ? '001234560000' : `00${phone.slice(-8)}12`
  return { type: 'bank_transfer', bankId: 1, accountNumber }
}

async function identityCheck(run: JourneyRun) {
  await run.page.getByRole('button', { name: 'Start identity check' }).click()
  await run.page.getByRole('button', { name: 'Check the result' }).click()
}

/** Adds the path's payout account on the payment step and finishes the registration. */
async function finishRegistration({ page, data, client }: JourneyRun) {
  if (data.payout === 'cash_pickup') {
    await page.getByRole('radio', { name: 'Cash pickup' }).check()
    await page.getByRole('radio', { name: 'Cebuana Lhuillier' }).check()
  } else {
    await page.getByLabel('Bank transfer').check()
    await chooseFirst(page.getByLabel('Bank', { exact: true }))
    await page
      .getByLabel('Account number')
      .fill(String(payoutAccount(data.payout, client.phone).accountNumber))
  }
  await page.getByRole('button', { name: 'Save payout account' }).click()
  await expect(page.locator('.reg-card--selected [aria-current="true"]')).toHaveText('Selected')
  await page.getByRole('button', { name: 'Finish registration' }).click()
}

/** The borrower's part of each journey event, through the screens; none for what the server or staff do. */
const journeyScreens: Partial<
  Record<JourneyEventType, (run: JourneyRun, step: JourneyStep) => Promise<void>>
> = {
  SUBMIT_DETAILS: ({ page, data }) => fillDetails(page, data.lastName, data.firstName),
  SUBMIT_EMPLOYMENT: ({ page }) => fillEmployment(page),
  SUBMIT_REFERENCE: ({ page }) => fillReference(page),
  SUBMIT_ADDRESS: ({ page }) => fillAddress(page),
  FINISH_ID_DOCUMENT: ({ page }) => fillDocuments(page),
  VERIFICATION_APPROVED: identityCheck,
  VERIFICATION_DECLINED: identityCheck,
  VERIFICATION_RESUBMISSION: identityCheck,
  BANK_DATA_IMPORTED: async ({ page }) => {
    await page.getByLabel('Bank', { exact: true }).selectOption('sandbox-bdo')
    await page.getByLabel('Online banking user name').fill('sandbox')
    await page.getByLabel('Online banking password').fill('sandbox')
    await page.getByRole('button', { name: 'Link bank' }).click()
  },
  SKIP_BANK_DATA: async ({ page }) => {
    await page.getByRole('button', { name: 'Continue without linking' }).click()
  },
  FINISH: finishRegistration,
  APPLY: async ({ page }) => {
    await expect(page.getByRole('heading', { name: 'Apply for a loan', level: 1 })).toBeVisible()
    await applyInBrowser(page)
  },
  OFFER_ANSWERED: async ({ page }, step) => {
    const accept =
      step === 'offer_decrease'
        ? page.getByRole('button', { name: 'Accept the offer' })
        : page.getByRole('button', { name: /^Accept ₱/ })
    await accept.click()
  },
  SIGN: async ({ page, request, client }) => {
    await signSummary(page, client, () => lastCode(request, admin, client.phone))
  },
}

/** What staff do for a journey event (the server's own events need nothing). */
const journeyStaff: Partial<Record<JourneyEventType, (run: JourneyRun, step: JourneyStep) => Promise<void>>> =
  {
    DECISION_APPROVED: async ({ page, request }, step) => {
      if (step !== 'manual_page') return
      // The underwriter approves the application waiting in the review queue.
      const actual = await request.get('/web/private/client/application/actual', {
        headers: { authorization: `Bearer ${await pageToken(page.context())}` },
      })
      const { id } = (await actual.json()).data as { id: number }
      const decided = await request.put(`/web/private/back-office/application/${id}/decision`, {
        headers: asAdmin(),
        data: { decision: 'approve', reason: 'Checked the payslip' },
      })
      expect(decided.status(), await decided.text()).toBe(200)
    },
  }

/** The browser shows `step`: the page the journey model maps it to, and the server's flow answers it. */
async function expectJourneyStep(run: JourneyRun, step: JourneyStep) {
  const meta = stepMeta(step)
  // The decision and the payout run in a second: the loading page they map to may be gone before it is seen.
  if (meta.status === 'completed') return
  const path = routeForFlow(
    { step, status: 'active' },
    {
      client: { firstName: run.named ? run.data.firstName : null, closedLoansCount: 0 },
      application: run.cashPickup
        ? { id: '0', disbursementType: 'cash_pickup', cashPickupNumber: 'CP0000000000' }
        : null,
    },
  )
  await expect(run.page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`), { timeout: 45_000 })
  expect(await serverFlow(run.page, run.request)).toEqual({ step, status: 'active' })
}

test.describe('the journey sample', () => {
  test('plans a path through every step', () => {
    expect(journeyPlan.uncovered).toEqual([])
  })

  journeyPlan.paths.forEach((path, index) => {
    test(`journey path ${index + 1}: ${path.events.join(' > ')}`, async ({ page, request }) => {
      test.setTimeout(240_000)
      const data = sandboxDataOf(path.facts as JourneyFacts)
      const shared = sharedStart(journeyPlan.paths as never, index)
      // The shared start is replayed over the API only as far as the registration goes (its calls are the screens').
      const fastForward: RegistrationEvent[] = []
      for (const event of path.events.slice(0, shared)) {
        if (!(event in registrationCalls)) break
        fastForward.push(event as RegistrationEvent)
      }
      let client: ReadyClient
      let clientId: number
      if (fastForward.length === 0) {
        const signedUp = await signUpFromCalculator(page, request, admin)
        client = { ...signedUp, password: 'Secret123', nextCodeAt: '' }
        clientId = await clientIdOf(page, request)
      } else {
        const made = await verifiedClient(request, 'Ready1234')
        const entered = { ...made.client, ...data, payout: payoutAccount(data.payout, made.client.phone) }
        for (const event of fastForward) await registrationCalls[event](request, made.headers, entered)
        client = made.client
        clientId = made.id
        await logInAsClient(page, client.phone, client.password)
        // The registration guard takes a logged-in client to the step the journey is on.
        await page.goto(journeyPages.registration)
      }
      const named = fastForward.includes('SUBMIT_DETAILS')
      const run: JourneyRun = { page, request, client, data, cashPickup: false, named }
      let step = path.events
        .slice(0, fastForward.length)
        .reduce<JourneyStep>((at, event) => stepAfter(at, event), 'new_client_created')
      await expectJourneyStep(run, step)
      for (const event of path.events.slice(fastForward.length) as JourneyEventType[]) {
        const screen = journeyScreens[event]
        if (screen) await screen(run, step)
        await journeyStaff[event]?.(run, step)
        step = stepAfter(step, event)
        if (event === 'PAYOUT_CASH_PICKUP_READY') run.cashPickup = true
        if (event === 'SUBMIT_DETAILS') run.named = true
        await expectJourneyStep(run, step)
      }
      expectInOrder(await history(request, clientId), 'clientJourney', path.events)
    })
  })
})

function stepAfter(step: JourneyStep, event: string): JourneyStep {
  const on = clientJourneyMachine.resolveState({ value: step, context: {} })
  return transition(clientJourneyMachine, on, { type: event as JourneyEventType })[0].value as JourneyStep
}

// ---------------------------------------------------------------------------------------------------------------
// The loan lifecycle

interface LoanRun {
  page: Page
  request: APIRequestContext
  client: ReadyClient
  clientId: number
  loanId: number
}

const clientHeaders = async (run: LoanRun) => ({
  authorization: `Bearer ${await pageToken(run.page.context())}`,
})

async function activeLoan(run: LoanRun): Promise<ActiveLoan> {
  const answer = await run.request.get('/web/private/client/loan/active', {
    headers: await clientHeaders(run),
  })
  expect(answer.status()).toBe(200)
  return (await answer.json()).data as ActiveLoan
}

/** Moves the client's business clock `days` forward (the daily servicing run runs for each day) and answers today. */
async function clock(run: LoanRun, days: number): Promise<string> {
  const moved = await run.request.post('/web/private/back-office/sandbox/clock', {
    headers: asAdmin(),
    data: { clientId: run.clientId, days },
  })
  expect(moved.status(), await moved.text()).toBe(200)
  return ((await moved.json()).data as { clientToday: string }).clientToday
}

const loanAction = async (run: LoanRun, action: 'hold' | 'cancel', reason: string) => {
  const answer = await run.request.post(`/web/private/back-office/loan/${run.loanId}/${action}`, {
    headers: asAdmin(),
    data: { reason },
  })
  expect(answer.status(), await answer.text()).toBe(200)
}

/** Each loan event: the borrower's screens, staff's calls, a payment at the gateway, or the clock. */
const loanEvents: Record<LoanEventType, ((run: LoanRun, leaf: string) => Promise<void>) | null> = {
  // The payout job: the signing already asked for it.
  DISBURSED: async () => {},
  // The payout job failed (the account refuses it); the back office cancels the signed loan.
  CANCELLED: async (run) => {
    await expect(run.page).toHaveURL(/\/registration\/payment$/, { timeout: 45_000 })
    await loanAction(run, 'cancel', 'Payout failed')
  },
  SCHEDULE_AGREED: async (run) => {
    const { page, request, client } = run
    const loan = await activeLoan(run)
    // A schedule is offered in the last days before the due date.
    if (loan.repaymentInvoice.dueDays > 2) await clock(run, loan.repaymentInvoice.dueDays - 2)
    await page.goto('/profile/my-loan')
    const offers = page.getByRole('region', { name: 'Split what you owe' })
    await offers.getByRole('button', { name: 'Review: Instalments twice a month' }).click({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Continue to sign' }).click()
    await signSchedule(page, request, admin, client.phone)
  },
  HOLD: (run) => loanAction(run, 'hold', 'Dispute opened'),
  // Paid in full at a counter: the sandbox gateway's signed webhook.
  REPAID: async (run) => {
    const loan = await activeLoan(run)
    const paid = await run.request.post('/web/private/back-office/sandbox/payments', {
      headers: asAdmin(),
      data: { reference: loan.paymentReference, amount: loan.amountDue.amount, channel: 'seven_eleven' },
    })
    expect(paid.status(), await paid.text()).toBe(200)
  },
  OVERDUE: async (run, leaf) => {
    const today = await clock(run, 0)
    let due = (await activeLoan(run)).dueDate
    if (leaf.startsWith('active.scheduled')) {
      const answer = await run.request.get('/web/private/client/loan/active/payment-schedule', {
        headers: await clientHeaders(run),
      })
      due = ((await answer.json()).data as PaymentSchedule).payments.find((p) => p.status !== 'paid')!.dueDate
    }
    // The day after the unpaid due date: the daily run marks the loan overdue.
    await clock(run, daysBetween(today, due) + 1)
  },
  DEBT_SOLD: async (run) => {
    const agencies = await run.request.get('/web/private/back-office/collection-agencies', {
      headers: asAdmin(),
    })
    const [agency] = (await agencies.json()).data as { id: number }[]
    await proposeAndApprove(run.request, '/debt-sales', { agencyId: agency!.id, loanIds: [run.loanId] })
  },
  WRITTEN_OFF: (run) =>
    proposeAndApprove(run.request, `/loan/${run.loanId}/write-off`, { reason: 'Uncollectible after review' }),
  // Not in the sample (the API suite takes them): planned paths that need one fail here, loudly.
  PAYMENT_POSTED: null,
  PAYMENT_REVERSED: null,
  REOPENED: null,
  REOPENED_ON_SCHEDULE: null,
  RELEASE: null,
  CAUGHT_UP: null,
  EXTENDED: null,
  CREDIT_REFUNDED: null,
}

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] dd`)

/** What the borrower sees of each loan state. */
async function expectLoanLeaf(run: LoanRun, leaf: string) {
  const { page } = run
  if (leaf === 'draft') return
  if (leaf === 'write_off') {
    // Written off, the loan leaves the books and my loan (a later payment is a recovery, ADR 0029).
    await page.goto('/profile/my-loan')
    await expect(page.getByRole('status').filter({ hasText: 'You have no active loan.' })).toBeVisible({
      timeout: 45_000,
    })
    return
  }
  if (leaf === 'cancelled' || leaf === 'paid') {
    // Closed: the journey leaves my loan (apply for a first loan; the no-loan page after a repaid one).
    const path = leaf === 'paid' ? journeyPages.noLoan : journeyPages.apply
    await page.goto('/profile/my-loan')
    await expect(page).toHaveURL(new RegExp(`${path}$`), { timeout: 45_000 })
    return
  }
  if (leaf === 'sold_debt') {
    await page.goto('/profile/my-loan')
    await expect(page).toHaveURL(/\/profile\/debt-sold$/, { timeout: 45_000 })
    await expect(page.getByRole('heading', { level: 1, name: 'Your loan was transferred' })).toBeVisible()
    return
  }
  await page.goto('/profile/my-loan')
  await expect(page).toHaveURL(/\/profile\/my-loan$/, { timeout: 45_000 })
  await expect(figure(page, 'payment-reference')).toHaveText(/^\d{10}$/)
  const [, plan, standing] = leaf.split('.')
  const instalments = page.getByRole('table', { name: 'Your instalments' })
  await expect(instalments).toHaveCount(plan === 'scheduled' ? 1 : 0)
  if (leaf.startsWith('active')) {
    const overdue = page.getByRole('region', { name: 'Your payment is overdue' })
    await expect(overdue).toHaveCount(standing === 'overdue' ? 1 : 0)
    if (standing === 'overdue' && plan === 'scheduled')
      await expect(instalments.getByRole('row').filter({ hasText: /overdue/i })).not.toHaveCount(0)
  }
  // And the server's loan is in that state, as the borrower's own session reads it.
  const loan = await activeLoan(run)
  expect([loan.state, loan.plan, loan.standing ?? 'current']).toEqual([
    leaf.split('.')[0],
    plan,
    standing ?? loan.standing ?? 'current',
  ])
}

test.describe('the loan lifecycle sample', () => {
  test('plans a path through every loan state', () => {
    expect(loanPlan.uncovered).toEqual([])
  })

  loanPlan.paths.forEach((path, index) => {
    test(`loan path ${index + 1}: ${path.events.join(' > ')}`, async ({ page, request }) => {
      test.setTimeout(240_000)
      const facts = path.facts as LoanFacts
      // The signing the journey sample drove through the screens; the payout account decides DISBURSED or not.
      const client = await readyClient(
        request,
        'Juan',
        facts.payout === 'fail' ? payoutAccount('failing_bank', '') : undefined,
      )
      await logInAsClient(page, client.phone, client.password)
      await page.goto('/application/apply')
      await applyInBrowser(page)
      await expect(page).toHaveURL(/\/registration\/summary$/, { timeout: 45_000 })
      await signSummary(page, client, () => lastCode(request, admin, client.phone))
      const clientId = await clientIdOf(page, request)
      const loans = await request.get(`/web/private/back-office/clients/${clientId}/loans`, {
        headers: asAdmin(),
      })
      const [loan] = ((await loans.json()).data as { loans: { id: number }[] }).loans
      const run: LoanRun = { page, request, client, clientId, loanId: loan!.id }

      let snapshot = loanLifecycleMachine.resolveState({ value: 'draft', context: {} })
      let leaf = loanPlanRules.leafOf(snapshot.value)
      for (const event of path.events as LoanEventType[]) {
        const cause = loanEvents[event]
        if (!cause) throw new Error(`the browser sample has no way to cause ${event}`)
        await cause(run, leaf)
        snapshot = transition(loanLifecycleMachine, snapshot, { type: event })[0]
        leaf = loanPlanRules.leafOf(snapshot.value)
        await expectLoanLeaf(run, leaf)
      }
      expectInOrder(await history(request, clientId), 'loanLifecycle', path.events)
    })
  })
})
