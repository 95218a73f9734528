/**
 * The sandbox scenarios (issue 20, item 2): each name of domain/sandbox/scenarios.ts built by driving the real
 * services and the business clock, never by writing rows. The client side (a fresh client, the journey walk,
 * the decision and payout jobs, signing codes) is ./scenario-client.ts; the loan side is here: the client's own
 * sandbox clock (each skipped day runs the daily servicing run), payments posted as the back-office user who ran
 * the scenario, extensions and schedules signed with codes from the outbox, the hold, the debt sale and the
 * write-off. The sale and the write-off are maker-checker proposals in the back office; a scenario runs their
 * executing service directly, as the user who ran it (the scenario's own call is in the audit trail).
 */
import { desc, eq } from 'drizzle-orm'
import { conflict } from '../../../domain/errors'
import type { JourneyEventType, JourneyStep } from '../../../domain/journey/client-journey.machine'
import { type LoanLeaf, loanStatusOf } from '../../../domain/loan/loan-lifecycle.machine'
import { paymentReferenceOf } from '../../../domain/payments/reference'
import {
  DEFAULT_OVERDUE_DAYS,
  type ScenarioDefinition,
  type ScenarioName,
  type ScenarioRun,
  scenarios,
} from '../../../domain/sandbox/scenarios'
import { collectionAgency } from '../../db/schema-debt'
import { application, loan } from '../../db/schema-lending'
import type { AppDeps } from '../../deps'
import { recordChange } from '../audit/audit'
import type { Actor } from '../journey/journey'
import { readJourney } from '../journey/journey'
import { actualApplication, cancelApplication } from '../lending/applications'
import { drainJobs } from '../lending/jobs'
import { loanAction, postManually } from '../payments/back-office'
import { assertClockMovable } from '../payments/clock'
import { afterPosting } from '../payments/jobs'
import { leafOfRow } from '../payments/loans'
import { moveClock } from '../payments/servicing'
import { activeLoanView } from '../payments/views'
import { createAgency, sellDebt } from '../servicing/debt-sale'
import {
  chooseExtension,
  extensionApplicationFor,
  prepareExtensionSignature,
  signExtension,
} from '../servicing/extensions'
import { agreeSchedule, prepareScheduleSignature } from '../servicing/schedules'
import { writeOff } from '../servicing/write-off'
import {
  codeFromOutbox,
  defaultFacts,
  existingClient,
  freshClient,
  type ScenarioClient,
  type ScenarioFacts,
  walkJourney,
} from './scenario-client'

/** Who runs a scenario: the back-office user (payments, the hold, the sale and the write-off are theirs). */
export interface ScenarioCaller {
  userId: number
}

interface Ctx {
  deps: AppDeps
  c: ScenarioClient
  caller: ScenarioCaller
  days: number
}

interface Recipe {
  /** The sandbox data the providers decide by, for a fresh client. */
  facts?: Partial<ScenarioFacts>
  /** The journey step the walk goes to before `then`. */
  walkTo: JourneyStep
  /** An event the walk must pass through on its way (the payout failure). */
  through?: JourneyEventType
  then?: (ctx: Ctx) => Promise<void>
}

const asClient = (ctx: Ctx, call: string): Actor => ({ kind: 'client', id: ctx.c.id, call })

/** The client's open loan as My loan shows it, and its row. */
async function openLoan(ctx: Ctx) {
  const view = await activeLoanView(ctx.deps.database.db, ctx.c.id, ctx.deps.now())
  const [row] = await ctx.deps.database.db
    .select()
    .from(loan)
    .where(eq(loan.clientId, ctx.c.id))
    .orderBy(desc(loan.id))
    .limit(1)
  if (!view || !row) throw conflict('scenarioStuck', 'The client has no open loan.')
  return { view, row }
}

/** Moves the client's own business clock; each skipped day runs the daily servicing run for them. */
async function clock(ctx: Ctx, days: number) {
  if (days > 0) await moveClock(ctx.deps, { clientId: ctx.c.id, days })
}

let paymentSequence = 0
/** A payment at Bayad to the client's payment reference, posted as the scenario's user, then its follow-ups. */
async function pay(ctx: Ctx, amount: number, what: string) {
  const { paymentId } = await postManually(ctx.deps, ctx.caller.userId, {
    reference: paymentReferenceOf(ctx.c.id),
    amount,
    channel: 'bayad',
    idempotencyKey: `sandbox-${what}-${ctx.c.id}-${Date.now()}-${paymentSequence++}`,
    note: `Sandbox scenario: ${what}`,
  })
  await afterPosting(ctx.deps, paymentId)
}

/** Moves the clock `days` past the due date: the daily run marks the loan overdue and charges its penalty. */
async function overdue(ctx: Ctx) {
  const { view } = await openLoan(ctx)
  await clock(ctx, view.repaymentInvoice.dueDays + ctx.days)
}

async function sandboxAgency(ctx: Ctx) {
  const db = ctx.deps.database.db
  const [found] = await db
    .select()
    .from(collectionAgency)
    .where(eq(collectionAgency.name, 'Sandbox Collections'))
  if (found) {
    if (!found.active) throw conflict('scenarioStuck', 'The agency "Sandbox Collections" is inactive.')
    return found.id
  }
  const created = await createAgency(ctx.deps, ctx.caller.userId, {
    name: 'Sandbox Collections',
    phone: '09170000009',
    email: 'collections@sandbox.hiram.local',
    paymentInstructions: 'Pay Sandbox Collections at any Bayad Center with your loan number.',
  })
  return created.id
}

/** A walk to a step, then the steps that follow it there. */
const walkThen = (walkTo: JourneyStep, then: Recipe['then'], facts?: Partial<ScenarioFacts>): Recipe => ({
  walkTo,
  then,
  facts,
})
const loanPage = (then?: Recipe['then']): Recipe => walkThen('loan_page', then)

/** How each scenario is built. A Record over the names: a scenario without a recipe is a type error. */
const recipes: Record<ScenarioName, Recipe> = {
  'journey-details': { walkTo: 'new_client_created' },
  'journey-employment': { walkTo: 'work_info' },
  'journey-reference': { walkTo: 'relative_info' },
  'journey-address': { walkTo: 'address' },
  'journey-documents': { walkTo: 'document_upload' },
  'journey-verification': { walkTo: 'veriff' },
  'journey-bank-data': { walkTo: 'kontomatik' },
  'journey-payout': { walkTo: 'disbursement_type' },
  'journey-ready-to-apply': { walkTo: 'no_loan_page' },
  'journey-identity-declined': { walkTo: 'reject_page', facts: { lastName: 'Declined Cruz' } },
  'application-processing': walkThen(
    'application_processing',
    // The decision job asks the provider now, as the worker would within a second: "still evaluating".
    async (ctx) => {
      await drainJobs(ctx.deps)
      const step = (await readJourney(ctx.deps.database.db, ctx.c.id)).value
      if (step !== 'application_processing')
        throw conflict('scenarioStuck', `The application was decided meanwhile (${step}).`)
    },
    { firstName: 'Pending' },
  ),
  'application-approved': { walkTo: 'otp_agreement' },
  'application-manual-review': { walkTo: 'manual_page', facts: { firstName: 'Manual' } },
  'application-decision-error': { walkTo: 'manual_page', facts: { firstName: 'Scoreerror' } },
  'application-rejected': { walkTo: 'reject_page', facts: { firstName: 'Reject' } },
  'application-canceled': walkThen('otp_agreement', async (ctx) => {
    const row = await actualApplication(ctx.deps.database.db, ctx.c.id)
    if (!row) throw conflict('scenarioStuck', 'No application to cancel.')
    await cancelApplication(
      ctx.deps,
      ctx.c.id,
      row.id,
      ctx.deps.now(),
      asClient(ctx, 'POST /web/private/client/application/{id}/cancel'),
    )
  }),
  'offer-decrease': { walkTo: 'offer_decrease', facts: { firstName: 'Decrease' } },
  'offer-special': { walkTo: 'offer_decrease', facts: { firstName: 'Special' } },
  'offer-increase': { walkTo: 'offer_increase', facts: { firstName: 'Increase' } },
  'payout-cash-pickup': { walkTo: 'tmc_page', facts: { payout: 'cash-pickup' } },
  'payout-failed': {
    walkTo: 'disbursement_type',
    through: 'PAYOUT_FAILED',
    facts: { payout: 'bank-failing' },
  },
  'loan-active': loanPage(),
  'loan-due-tomorrow': loanPage(async (ctx) => {
    const { view } = await openLoan(ctx)
    await clock(ctx, view.repaymentInvoice.dueDays - 1)
  }),
  'loan-overdue-10': loanPage(overdue),
  'loan-extension-available': loanPage(async (ctx) => {
    const { view } = await openLoan(ctx)
    await clock(ctx, view.repaymentInvoice.dueDays - 3)
  }),
  'loan-extension-taken': loanPage(async (ctx) => {
    const rollover = await chooseExtension(
      ctx.deps,
      ctx.c.id,
      'cheap',
      asClient(ctx, 'PUT /web/private/client/loan/active/rollover'),
    )
    const app = await extensionApplicationFor(
      ctx.deps,
      ctx.c.id,
      rollover.loanId,
      rollover.id,
      asClient(ctx, 'POST /web/private/client/loan/{id}/rollover/{rid}/application'),
    )
    await prepareExtensionSignature(ctx.deps, ctx.c.id, rollover.loanId, rollover.id, app.id)
    await codeFromOutbox(ctx.deps, ctx.c, 'amendment')
    await signExtension(
      ctx.deps,
      ctx.c.id,
      rollover.loanId,
      rollover.id,
      app.id,
      asClient(ctx, 'POST /web/private/client/loan/{loanId}/rollover/{rid}/application/{appId}/document'),
    )
    await pay(ctx, rollover.fee.amount, 'extension-fee')
  }),
  'loan-schedule-overdue-instalment': loanPage(async (ctx) => {
    const before = await openLoan(ctx)
    // A schedule is offered near the due date.
    await clock(ctx, before.view.repaymentInvoice.dueDays - 2)
    const { view } = await openLoan(ctx)
    const offer = view.specialOffers?.find((o) => o.type === 'semi_monthly' && o.available)
    if (!offer) throw conflict('scenarioStuck', 'No semi-monthly schedule is offered on this loan.')
    await prepareScheduleSignature(ctx.deps, ctx.c.id, offer.id)
    await codeFromOutbox(ctx.deps, ctx.c, 'amendment')
    await agreeSchedule(
      ctx.deps,
      ctx.c.id,
      offer.id,
      asClient(ctx, 'POST /web/private/client/loan/active/payment-schedule/special-offer/submit/{id}'),
    )
    // The first instalment falls due 15 days on; a day after it, unpaid, it is overdue.
    await clock(ctx, 16)
  }),
  'loan-on-hold': loanPage(async (ctx) => {
    const { row } = await openLoan(ctx)
    await loanAction(ctx.deps, ctx.caller.userId, row.id, 'hold', 'Sandbox scenario: loan on hold')
  }),
  'loan-paid-repeat': loanPage(async (ctx) => {
    const { view } = await openLoan(ctx)
    await pay(ctx, view.amountDue.amount, 'repaid')
  }),
  'loan-additional-available': loanPage(),
  'loan-sold-debt': loanPage(async (ctx) => {
    await overdue(ctx)
    const { row } = await openLoan(ctx)
    const outcome = await sellDebt(ctx.deps, ctx.caller.userId, {
      agencyId: await sandboxAgency(ctx),
      loanIds: [row.id],
      reason: 'Sandbox scenario: debt sold',
    })
    if (!outcome.sold.length)
      throw conflict('scenarioStuck', outcome.refused[0]?.message ?? 'The sale was refused.')
  }),
  'loan-written-off': loanPage(async (ctx) => {
    await overdue(ctx)
    const { row } = await openLoan(ctx)
    await writeOff(ctx.deps, ctx.caller.userId, row.id, 'Sandbox scenario: written off')
  }),
}

export interface ScenarioOutcome {
  scenario: ScenarioName
  clientId: number
  login: { phone: string; email: string; password: string | null }
  journeyStep: JourneyStep
  applicationId: number | null
  applicationStatus: number | null
  loanId: number | null
  loanState: LoanLeaf | null
  loanStatus: number | null
  what: string
}

/** Where the client stands now, read back from the database (the claims are checked by the API test). */
async function outcomeOf(
  deps: AppDeps,
  name: ScenarioName,
  c: ScenarioClient,
  days: number,
): Promise<ScenarioOutcome> {
  const db = deps.database.db
  const journey = await readJourney(db, c.id)
  const [app] = await db
    .select({ id: application.id, status: application.status })
    .from(application)
    .where(eq(application.clientId, c.id))
    .orderBy(desc(application.id))
    .limit(1)
  const [row] = await db.select().from(loan).where(eq(loan.clientId, c.id)).orderBy(desc(loan.id)).limit(1)
  const leaf = row ? leafOfRow(row) : null
  const definition: ScenarioDefinition = scenarios[name]
  return {
    scenario: name,
    clientId: c.id,
    login: { phone: c.phone, email: c.email, password: c.password },
    journeyStep: journey.value,
    applicationId: app?.id ?? null,
    applicationStatus: app?.status ?? null,
    loanId: row?.id ?? null,
    loanState: leaf,
    loanStatus: leaf ? loanStatusOf(leaf) : null,
    what: definition.takesDays ? `${definition.title}: ${days} days past the due date` : definition.title,
  }
}

/**
 * Runs one scenario for a fresh client, or for an existing one (from wherever they stand; 409 when the scenario
 * cannot be reached from there). Sandbox only: refused like the sandbox clock (404) on a production server.
 */
export async function runScenario(
  deps: AppDeps,
  name: ScenarioName,
  run: ScenarioRun,
  caller: ScenarioCaller,
): Promise<ScenarioOutcome> {
  assertClockMovable(deps)
  const recipe = recipes[name]
  const facts: ScenarioFacts = { ...defaultFacts, ...recipe.facts }
  const c =
    run.clientId === undefined
      ? await freshClient(deps, name, facts)
      : await existingClient(deps, run.clientId, facts)
  const ctx: Ctx = { deps, c, caller, days: run.days ?? DEFAULT_OVERDUE_DAYS }
  await walkJourney(deps, c, recipe.walkTo, recipe.through)
  await recipe.then?.(ctx)
  const outcome = await outcomeOf(deps, name, c, ctx.days)
  // The run's own audit entry, without the generated password (the route layer would store the whole answer).
  await recordChange(deps.database.db, {
    entity: 'sandbox-scenario',
    entityId: name,
    clientId: c.id,
    after: { ...outcome, login: { ...outcome.login, password: c.password === null ? null : '[redacted]' } },
  })
  deps.logger.info(
    {
      event: 'sandbox.scenario',
      scenario: name,
      clientId: c.id,
      loanId: outcome.loanId,
      userId: caller.userId,
    },
    'sandbox scenario',
  )
  return outcome
}
