/**
 * Applications (spec sections 3, 4 and 7): create, change, cancel, promo codes, counter-offer answers, and the
 * views the app reads. Every change runs as one journey transaction (server/services/journey/journey.ts): the
 * client's journey row is locked first, so all calls of one client (and the decision engine's and payout's
 * results) take turns, and the partial unique index `application_one_active_per_client_uq` makes a second
 * active application impossible whatever happens. Prices always come from the pricing engine.
 */
import { createHash } from 'node:crypto'
import { and, asc, count, desc, eq, inArray, like, notInArray, sql } from 'drizzle-orm'
import type { CalculatorConfig } from '../../../domain/calculator-config'
import { amountLimitsFor } from '../../../domain/calculator-rules'
import type { Application } from '../../../domain/contract/lending-answers'
import type { PricedOffer } from '../../../domain/contract/pricing-answers'
import type { Violation } from '../../../domain/contract/wire'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import {
  type AdditionalLoanClientFacts,
  type AdditionalLoanVerdict,
  additionalLoanAvailability,
  MAX_OPEN_LOANS,
} from '../../../domain/loan/additional-loan'
import {
  availableAmount as availableOf,
  type ClientLimit,
  type ClosedLoanHistory,
  clientLimit,
  defaultLimitGrowth,
  LIMITS_CONFIG_KEY,
  type LimitGrowth,
  limitGrowthSchema,
} from '../../../domain/loan/limits'
import {
  isDefaultedLoanState,
  isOpenLoanState,
  type LoanState,
  loanLifecycleMachine,
  loanStatusCode,
} from '../../../domain/loan/loan-lifecycle.machine'
import type { ClientKind } from '../../../domain/offer'
import { applicationStatus } from '../../../domain/offer-decision'
import { daysBetween } from '../../../domain/pricing/manila-date'
import type { DbOrTx, Tx } from '../../db/client'
import { client } from '../../db/schema-identity'
import { disbursementEntry, stateTransition } from '../../db/schema-journey'
import {
  application,
  INACTIVE_APPLICATION_STATUSES,
  lendingJob,
  loan,
  loanDocument,
} from '../../db/schema-lending'
import { payment } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import { readConfigOr } from '../config'
import {
  type Actor,
  assertJourneyAccepts,
  JourneyStepMismatch,
  jobActor,
  journeyTransaction,
  uniqueViolationOn,
} from '../journey/journey'
import { businessToday } from '../payments/clock'
import { balancesOfLoan } from '../payments/loans'
import { checkPromo, lendingConfig, priceOffer } from '../pricing'
import { hasActiveRefinancing } from '../servicing/schedules'
import { consentsToDeviceData } from '../tracking/consent'

/** What a change needs: the database, and the logger the journey writes its event line to. */
export type LendingCtx = Pick<AppDeps, 'database' | 'logger'>

/** Application status codes, spec section 4: the one table in domain/, shared with the web app. */
export const AppStatus = applicationStatus

/**
 * Submitted and not decided yet: new (1), or verification (7) while the scoring provider is still checking the
 * client (jobs.ts). The decision job runs, and the client may still change the figures, only in these.
 */
export const awaitsDecision = (status: number) =>
  status === AppStatus.new || status === AppStatus.verification

/** Loan status codes, spec section 4 (the loan lifecycle's, domain/loan/loan-lifecycle.machine.ts). */
export const LoanStatus = {
  active: loanStatusCode.active,
  paid: loanStatusCode.paid,
  onHold: loanStatusCode.on_hold,
} as const

export const isActiveStatus = (status: number) =>
  !(INACTIVE_APPLICATION_STATUSES as readonly number[]).includes(status)

export type ApplicationRow = typeof application.$inferSelect

/** What the lender knows about a client's borrowing: the pricing kind, the limit and the amount available now. */
export interface LendingFacts {
  kind: Exclude<ClientKind, 'guest'>
  closedLoans: number
  /** Open loans: active or on hold (a dispute does not make the loan go away). */
  activeLoans: number
  /** What the client may borrow now, centavos: the limit less the principal owed on open loans. */
  availableAmount: number
  /** The limit from the repayment history (domain/loan/limits.ts), with its explanation. */
  limit: ClientLimit
  /** A new application now is an additional loan (an open loan runs). */
  additionalLoan: boolean
  /** The facts of the additional-loan rule, as GET /private/client tells the browser. */
  additional: AdditionalLoanClientFacts
  /** The rule's verdict, with the calculator's max for the client; null without an open loan. */
  additionalVerdict: AdditionalLoanVerdict | null
  /** The principal still owed on open loans, centavos. */
  openPrincipal: number
}

/** The limit's growth steps (configuration 'limits'); the defaults when the document is missing. */
async function limitGrowth(db: DbOrTx): Promise<LimitGrowth> {
  // The version in force (config_version, issue 19 item 6), not the config row.
  return readConfigOr(db, LIMITS_CONFIG_KEY, limitGrowthSchema, defaultLimitGrowth)
}

/** Days a repaid loan was repaid after its due date: from its last posted payment's business day. */
async function lateness(db: DbOrTx, paid: { id: number; dueDate: string }[]) {
  const days = new Map<number, number>()
  if (!paid.length) return days
  const ids = paid.map((p) => p.id)
  const last = await db
    .select({ loanId: payment.loanId, day: sql<string | null>`max(${payment.businessDate})` })
    .from(payment)
    .where(and(inArray(payment.loanId, ids), eq(payment.status, 'posted')))
    .groupBy(payment.loanId)
  // The loan's own history says whether it was ever overdue (overdue_since is cleared on cure).
  const overdue = await db
    .selectDistinct({ loanId: stateTransition.subjectId })
    .from(stateTransition)
    .where(
      and(
        eq(stateTransition.machine, loanLifecycleMachine.id),
        inArray(stateTransition.subjectId, ids),
        like(stateTransition.toState, '%.overdue'),
      ),
    )
  const wasOverdue = new Set(overdue.map((o) => o.loanId))
  for (const p of paid) {
    const day = last.find((l) => l.loanId === p.id)?.day ?? null
    const late = day ? Math.max(0, daysBetween(p.dueDate, day)) : 0
    days.set(p.id, wasOverdue.has(p.id) ? Math.max(1, late) : late)
  }
  return days
}

export async function lendingFacts(db: DbOrTx, clientId: number, now = new Date()): Promise<LendingFacts> {
  const { calculator } = await lendingConfig(db)
  const rows = await db
    .select({
      id: loan.id,
      state: loan.state,
      plan: loan.plan,
      standing: loan.standing,
      dueDate: loan.dueDate,
      createdAt: loan.createdAt,
      closedAt: loan.closedAt,
    })
    .from(loan)
    .where(eq(loan.clientId, clientId))
    .orderBy(asc(loan.createdAt), asc(loan.id))
  const closed = rows
    .filter((r) => r.state === 'paid' || isDefaultedLoanState(r.state as LoanState))
    .sort((a, b) => (a.closedAt?.getTime() ?? 0) - (b.closedAt?.getTime() ?? 0) || a.id - b.id)
  const late = await lateness(
    db,
    closed.filter((r) => r.state === 'paid'),
  )
  const history: ClosedLoanHistory[] = closed.map((r) => ({
    outcome: r.state as ClosedLoanHistory['outcome'],
    daysLate: late.get(r.id) ?? 0,
  }))
  // The growth steps matter only once a loan was repaid: a first-time client costs no read.
  const limit = clientLimit(history, calculator, history.length ? await limitGrowth(db) : defaultLimitGrowth)
  const closedLoans = rows.filter((r) => r.state === 'paid').length
  const open = rows.filter((r) => isOpenLoanState(r.state as LoanState))
  let openPrincipal = 0
  for (const r of open) openPrincipal += Math.max(0, (await balancesOfLoan(db, r.id)).principal)
  const kind = closedLoans > 0 ? 'repeat' : 'new'
  const availableAmount = availableOf(limit, openPrincipal, open.length, MAX_OPEN_LOANS)
  const oldest = open[0]
  const today = oldest ? await businessToday(db, clientId, now) : null
  const additional: AdditionalLoanClientFacts = {
    openLoans: open.length,
    loan:
      oldest && today
        ? {
            dueDays: daysBetween(today, oldest.dueDate),
            overdue: oldest.standing === 'overdue',
            onHold: oldest.state === 'on_hold',
            hasPaymentSchedule: oldest.plan === 'scheduled',
          }
        : null,
    hasActiveRefinancing: oldest ? await hasActiveRefinancing(db, clientId, now) : false,
    defaulted: limit.frozen,
  }
  const additionalVerdict = oldest
    ? additionalLoanAvailability({
        ...additional,
        maxAmount: calculatorMaxFor(calculator, kind, availableAmount),
      })
    : null
  return {
    kind,
    closedLoans,
    activeLoans: open.length,
    availableAmount,
    limit,
    additionalLoan: open.length > 0,
    additional,
    additionalVerdict,
    openPrincipal,
  }
}

/**
 * The calculator's max for a logged-in client with an open loan, as the browser computes it
 * (domain/calculator-rules.ts `amountLimitsFor`): 0 when it falls below the additional-loan min.
 */
export function calculatorMaxFor(calculator: CalculatorConfig, kind: 'new' | 'repeat', available: number) {
  const tab = kind === 'repeat' ? 'repeat' : 'new'
  return amountLimitsFor({
    config: calculator,
    tab,
    tabs: [tab],
    loggedIn: true,
    availableAmount: available,
    hasActiveLoan: true,
    increaseOffer: null,
  }).max
}

const hashedId = (id: number) =>
  createHash('sha256').update(`hiram-application-${id}`).digest('hex').slice(0, 16)

/** The payout method an application pays out to: its type, and for a cash pickup or e-wallet the partner. */
export interface PayoutEntryFacts {
  type: string
  provider: string | null
}

/** The Application of spec section 3 as the app reads it (the contract's answer). Money in centavos. */
export function applicationView(row: ApplicationRow, entry: PayoutEntryFacts | null = null): Application {
  return {
    id: row.id,
    hashedId: hashedId(row.id),
    status: row.status,
    desiredLoanAmount: { amount: row.desiredAmount },
    desiredTerm: { value: row.desiredTerm, unit: 'day' as const },
    principalAmount: { amount: row.principalAmount },
    loanAmount: { amount: row.principalAmount, currency: 'PHP' as const },
    term: { value: row.term, unit: 'day' as const },
    /** The counter-offer: the lower amount (13, 17) or the upper limit of an increase (18). */
    offeredAmount: row.offeredAmount === null ? null : { amount: row.offeredAmount },
    borrowersAdvantagePackageFeeConsent: row.packageFeeConsent,
    promoCode: row.promoCode,
    paymentMethod: row.paymentMethod,
    // Spec section 3 names disbursementType.type; the provider lets the cash-pickup page name the partner.
    disbursementType: entry ? { type: entry.type, provider: entry.provider } : null,
    cashPickupNumber: row.cashPickupNumber,
    createdAt: row.createdAt.toISOString(),
    signedAt: row.signedAt?.toISOString() ?? null,
  }
}

async function payoutEntryOf(db: DbOrTx, row: ApplicationRow): Promise<PayoutEntryFacts | null> {
  const columns = { type: disbursementEntry.type, provider: disbursementEntry.provider }
  const id = row.disbursementEntryId
  if (id !== null) {
    const [entry] = await db.select(columns).from(disbursementEntry).where(eq(disbursementEntry.id, id))
    return entry ?? null
  }
  const [selected] = await db
    .select(columns)
    .from(disbursementEntry)
    .where(and(eq(disbursementEntry.clientId, row.clientId), eq(disbursementEntry.selected, true)))
  return selected ?? null
}

export async function viewOf(db: DbOrTx, row: ApplicationRow) {
  return applicationView(row, await payoutEntryOf(db, row))
}

/** The client's newest application (the "actual" one), active or not; null when there is none. */
export async function actualApplication(db: DbOrTx, clientId: number): Promise<ApplicationRow | null> {
  const [row] = await db
    .select()
    .from(application)
    .where(eq(application.clientId, clientId))
    .orderBy(desc(application.createdAt), desc(application.id))
    .limit(1)
  return row ?? null
}

/** One of the client's own applications; anyone else's is a 404, as if it did not exist. */
export async function ownApplication(db: DbOrTx, clientId: number, id: number): Promise<ApplicationRow> {
  const [row] = await db
    .select()
    .from(application)
    .where(and(eq(application.id, id), eq(application.clientId, clientId)))
  if (!row) throw notFound('Application')
  return row
}

/** The same, locked for the rest of the transaction. */
export async function lockApplication(tx: Tx, clientId: number, id: number): Promise<ApplicationRow> {
  const [row] = await tx
    .select()
    .from(application)
    .where(and(eq(application.id, id), eq(application.clientId, clientId)))
    .for('update')
  if (!row) throw notFound('Application')
  return row
}

export async function activeApplication(db: DbOrTx, clientId: number): Promise<ApplicationRow | null> {
  const [row] = await db
    .select()
    .from(application)
    .where(
      and(
        eq(application.clientId, clientId),
        notInArray(application.status, [...INACTIVE_APPLICATION_STATUSES]),
      ),
    )
  return row ?? null
}

export const applicationExist = () =>
  new DomainError('conflict', 'applicationExist', 'You already have an application in progress.')

const statusConflict = (what: string, status: number) =>
  new DomainError(
    'conflict',
    'applicationStatus',
    `${what} is not possible while the application is in status ${status}.`,
  )

/** Offer violations (`amount`, `term`, `promoCode`) renamed onto the body's fields. */
function renamed(violations: Violation[], paths: Record<string, string>): Violation[] {
  return violations.map((v) => ({ ...v, propertyPath: paths[v.propertyPath] ?? v.propertyPath }))
}

export interface Figures {
  amount: number
  term: number
  withPackageFee: boolean
  promoCode?: string | null
}

/**
 * Prices figures for a client: the calculator's range and grid, the available amount and the legal caps are all
 * checked by the pricing engine; a bad figure is a 400 on the caller's own field names.
 */
export async function priceFor(
  db: DbOrTx,
  clientId: number,
  facts: LendingFacts,
  figures: Figures,
  now: Date,
  paths: Record<string, string>,
  maxAmount = facts.availableAmount,
): Promise<PricedOffer> {
  try {
    return await priceOffer(
      db,
      {
        kind: facts.kind,
        amount: figures.amount,
        term: figures.term,
        withPackageFee: figures.withPackageFee,
        promoCode: figures.promoCode ?? undefined,
        clientId,
        maxAmount,
        additionalLoan: facts.additionalLoan,
      },
      now,
    )
  } catch (error) {
    if (error instanceof DomainError && error.code === 'validationError')
      throw invalid(renamed(error.violations, paths))
    throw error
  }
}

/**
 * 409 `loanNotAvailable` unless the client may borrow now: with an open loan, only as the additional-loan rule
 * allows (domain/loan/additional-loan.ts, the calculator's rule too), its first reason the message; without one,
 * only with an amount available (a defaulted client's limit is frozen at 0).
 */
export function assertLoanAvailable(facts: LendingFacts) {
  if (facts.additionalVerdict && !facts.additionalVerdict.available) {
    const [first] = facts.additionalVerdict.reasons
    throw new DomainError(
      'conflict',
      'loanNotAvailable',
      first?.message ?? 'No additional loan is available to you now.',
    )
  }
  if (facts.availableAmount <= 0)
    throw new DomainError(
      'conflict',
      'loanNotAvailable',
      facts.limit.frozen
        ? 'No new loan can be offered after a debt was sold or written off.'
        : 'No loan is available to you now.',
    )
}

export interface CreateApplication {
  amount: number
  term: number
  withPackageFee: boolean
  paymentMethod: string
  promoCode?: string
  iovation?: string
  affiliate?: Record<string, string>
  marketing?: Record<string, string>
}

const createPaths = { amount: 'loanAmount.amount', term: 'term.value' }

/** The application's fraud-tool ids (ADR 0042): kept in `marketing` with the campaign's marketing data. */
export const FRAUD_TOOL_KEYS = ['hotjarUserId', 'seonSession', 'juicySessionId'] as const

/** The blackbox and the fraud tools' ids only with the device-data consent; the marketing data stays. */
function withoutDeviceData(input: CreateApplication, consented: boolean) {
  if (consented) return { iovation: input.iovation, marketing: input.marketing }
  const marketing = Object.fromEntries(
    Object.entries(input.marketing ?? {}).filter(
      ([key]) => !(FRAUD_TOOL_KEYS as readonly string[]).includes(key),
    ),
  )
  return { iovation: undefined, marketing: Object.keys(marketing).length ? marketing : undefined }
}

async function byIdempotencyKey(db: DbOrTx, clientId: number, key: string) {
  const [row] = await db
    .select()
    .from(application)
    .where(and(eq(application.clientId, clientId), eq(application.idempotencyKey, key)))
  return row ?? null
}

/** POST /private/client/application. Returns the row and whether it was created now (false: a replay). */
export async function createApplication(
  ctx: LendingCtx,
  clientId: number,
  input: CreateApplication,
  idempotencyKey: string | null,
  now: Date,
  by: Actor,
): Promise<{ row: ApplicationRow; created: boolean }> {
  const db = ctx.database.db
  if (idempotencyKey) {
    const first = await byIdempotencyKey(db, clientId, idempotencyKey)
    if (first) return { row: first, created: false }
  }
  const facts = await lendingFacts(db, clientId, now)
  assertLoanAvailable(facts)
  // Nothing of the device is kept without the client's consent to device data (RA 10173, ADR 0042).
  const signals = withoutDeviceData(input, await consentsToDeviceData(db, clientId))
  const offer = await priceFor(
    db,
    clientId,
    facts,
    {
      amount: input.amount,
      term: input.term,
      withPackageFee: input.withPackageFee,
      promoCode: input.promoCode,
    },
    now,
    createPaths,
  )
  if (input.promoCode && !offer.promo?.applied)
    throw invalid([{ propertyPath: 'promoCode', message: 'error-promo-applied-wrong' }])

  try {
    const change = await journeyTransaction(ctx, clientId, { type: 'APPLY' }, by, now, async (tx) => {
      const [selected] = await tx
        .select({ id: disbursementEntry.id })
        .from(disbursementEntry)
        .where(and(eq(disbursementEntry.clientId, clientId), eq(disbursementEntry.selected, true)))
      if (!selected)
        throw new DomainError(
          'conflict',
          'registrationIncomplete',
          'Choose how to receive the money before applying.',
        )
      const [row] = await tx
        .insert(application)
        .values({
          clientId,
          status: AppStatus.new,
          desiredAmount: input.amount,
          desiredTerm: input.term,
          principalAmount: input.amount,
          term: input.term,
          packageFeeConsent: input.withPackageFee,
          promoCode: input.promoCode ?? null,
          paymentMethod: input.paymentMethod,
          clientKind: facts.kind,
          iovationBlackbox: signals.iovation || null,
          affiliate: input.affiliate ?? null,
          marketing: signals.marketing ?? null,
          idempotencyKey,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
      if (!row) throw new Error('insert returned nothing')
      await tx
        .insert(lendingJob)
        .values({ kind: 'decide', applicationId: row.id, runAt: now, createdAt: now })
      return row
    })
    return { row: change.result, created: true }
  } catch (error) {
    // A concurrent create with the same key won: answer its result.
    if (idempotencyKey) {
      const first = await byIdempotencyKey(db, clientId, idempotencyKey)
      if (first) return { row: first, created: false }
    }
    const index = uniqueViolationOn(error)
    if (index === 'application_one_active_per_client_uq') throw applicationExist()
    if (error instanceof JourneyStepMismatch && (await activeApplication(db, clientId)))
      throw applicationExist()
    throw error
  }
}

export interface ChangeApplication {
  amount?: number
  term?: number
  withPackageFee?: boolean
}

/**
 * PUT /private/client/application/{id}. While the decision is pending (status 1) any valid figures; the decision
 * is taken again on the new figures. Once approved (status 2, signing) only lower or equal figures than the
 * approved ones, or the fee consent: the approval covers them, and documents rendered before are stale.
 */
export async function changeApplication(
  ctx: LendingCtx,
  clientId: number,
  id: number,
  input: ChangeApplication,
  now: Date,
  by: Actor,
) {
  const db = ctx.database.db
  const current = await ownApplication(db, clientId, id)
  // The step first: after the payout the figures no longer fit the available amount, and a 400 about them would
  // hide that the application cannot change any more.
  await assertJourneyAccepts(db, clientId, { type: 'CHANGE_APPLICATION' })
  const facts = await lendingFacts(db, clientId, now)
  const figures: Figures = {
    amount: input.amount ?? current.principalAmount,
    term: input.term ?? current.term,
    withPackageFee: input.withPackageFee ?? current.packageFeeConsent,
    promoCode: current.promoCode,
  }
  const paths = { amount: 'amount.amount', term: 'term.value' }
  await priceFor(db, clientId, facts, figures, now, paths, Math.max(facts.availableAmount, 0))
  const change = await journeyTransaction(
    ctx,
    clientId,
    { type: 'CHANGE_APPLICATION' },
    by,
    now,
    async (tx) => {
      const row = await lockApplication(tx, clientId, id)
      if (row.status === AppStatus.signing) {
        const violations: Violation[] = []
        if (figures.amount > row.principalAmount)
          violations.push({
            propertyPath: 'amount.amount',
            message: 'The amount cannot exceed the approved amount.',
          })
        if (figures.term > row.term)
          violations.push({
            propertyPath: 'term.value',
            message: 'The term cannot exceed the approved term.',
          })
        if (violations.length) throw invalid(violations)
      } else if (!awaitsDecision(row.status)) {
        throw statusConflict('Changing the application', row.status)
      }
      const undecided = awaitsDecision(row.status)
      const [updated] = await tx
        .update(application)
        .set({
          principalAmount: figures.amount,
          term: figures.term,
          packageFeeConsent: figures.withPackageFee,
          // New figures are scored from scratch: an application in verification is new again.
          ...(undecided
            ? { status: AppStatus.new, desiredAmount: figures.amount, desiredTerm: figures.term }
            : {}),
          acceptedOffer: null,
          version: row.version + 1,
          updatedAt: now,
        })
        .where(eq(application.id, id))
        .returning()
      if (undecided) await requeueDecision(tx, id, now)
      return updated!
    },
  )
  return change.result
}

/** The decision job runs again from scratch on the new figures. */
export async function requeueDecision(tx: Tx, applicationId: number, now: Date) {
  await tx
    .update(lendingJob)
    .set({ runAt: now, doneAt: null, attempts: 0, lockedUntil: null, lastError: null })
    .where(and(eq(lendingJob.kind, 'decide'), eq(lendingJob.applicationId, applicationId)))
}

/** Statuses a client may cancel from: anything active before the signature (status 3 means money is moving). */
const cancellable: number[] = [
  AppStatus.new,
  AppStatus.signing,
  AppStatus.verification,
  AppStatus.specialOffer,
  AppStatus.manualVerification,
  AppStatus.yhatDecrease,
  AppStatus.yhatIncrease,
  AppStatus.decisionError,
]

/** POST /private/client/application/{id}/cancel. */
export async function cancelApplication(ctx: LendingCtx, clientId: number, id: number, now: Date, by: Actor) {
  const db = ctx.database.db
  await ownApplication(db, clientId, id)
  const change = await journeyTransaction(
    ctx,
    clientId,
    { type: 'CANCEL_APPLICATION' },
    by,
    now,
    async (tx) => {
      const row = await lockApplication(tx, clientId, id)
      if (!cancellable.includes(row.status)) throw statusConflict('Cancelling', row.status)
      const [updated] = await tx
        .update(application)
        .set({ status: AppStatus.canceled, version: row.version + 1, updatedAt: now })
        .where(eq(application.id, id))
        .returning()
      await tx
        .update(lendingJob)
        .set({ doneAt: now, lockedUntil: null })
        .where(and(eq(lendingJob.applicationId, id), sql`${lendingJob.doneAt} is null`))
      return updated!
    },
  )
  await returnToLoan(ctx, clientId, id, now)
  return change.result
}

/**
 * After an application ended without a new loan (cancelled, rejected): a client whose loan still runs goes back to
 * my loan (RETURN_TO_LOAN), not to the no-loan or rejected step a client without a loan stays on. A separate
 * transaction right after the first; a journey that moved on meanwhile is left as it is.
 */
export async function returnToLoan(ctx: LendingCtx, clientId: number, applicationId: number, now: Date) {
  const by = jobActor('return-to-loan', applicationId)
  const [open] = await ctx.database.db
    .select({ id: loan.id })
    .from(loan)
    .where(and(eq(loan.clientId, clientId), inArray(loan.state, ['active', 'on_hold'])))
    .limit(1)
  if (!open) return
  try {
    await journeyTransaction(ctx, clientId, { type: 'RETURN_TO_LOAN' }, by, now, async () => null)
  } catch (error) {
    if (!(error instanceof JourneyStepMismatch)) throw error
  }
}

/** POST /private/client/application/{applicationId}/promocode: applied only when the server finds it valid. */
export async function applyPromo(
  ctx: LendingCtx,
  clientId: number,
  id: number,
  code: string,
  now: Date,
  by: Actor,
) {
  const db = ctx.database.db
  const current = await ownApplication(db, clientId, id)
  const facts = await lendingFacts(db, clientId, now)
  const check = await checkPromo(db, code, facts.kind, now, clientId)
  if (!check.valid)
    throw new DomainError('refused', 'promoRejected', `The promo code cannot be applied (${check.status}).`, [
      { propertyPath: 'promoCode', message: 'error-promo-applied-wrong' },
    ])
  const offer = await priceFor(
    db,
    clientId,
    facts,
    {
      amount: current.principalAmount,
      term: current.term,
      withPackageFee: current.packageFeeConsent,
      promoCode: code,
    },
    now,
    {},
    Math.max(facts.availableAmount, current.principalAmount),
  )
  const change = await journeyTransaction(
    ctx,
    clientId,
    { type: 'CHANGE_APPLICATION' },
    by,
    now,
    async (tx) => {
      const row = await lockApplication(tx, clientId, id)
      if (!awaitsDecision(row.status) && row.status !== AppStatus.signing)
        throw statusConflict('Applying a promo code', row.status)
      const [updated] = await tx
        .update(application)
        .set({ promoCode: check.code, acceptedOffer: null, version: row.version + 1, updatedAt: now })
        .where(eq(application.id, id))
        .returning()
      return updated!
    },
  )
  return { application: change.result, offer, promo: { code: check.code, status: check.status, valid: true } }
}

/**
 * The offer the client is asked about now: once signed, the signed offer unchanged; while a lower offer waits
 * for the answer (special offer 13, yhat decrease 17), the price of the offered amount, which is what accepting
 * signs for; otherwise the price of the application's figures.
 */
export async function applicationOffer(db: DbOrTx, row: ApplicationRow, now: Date): Promise<PricedOffer> {
  if (row.signedAt && row.acceptedOffer) return row.acceptedOffer as PricedOffer
  const additionalLoan = await isAdditionalApplication(db, row)
  const lowerOffer =
    (row.status === AppStatus.specialOffer || row.status === AppStatus.yhatDecrease) &&
    row.offeredAmount !== null
  return priceOffer(
    db,
    {
      kind: row.clientKind as LendingFacts['kind'],
      amount: lowerOffer ? row.offeredAmount! : row.principalAmount,
      term: row.term,
      withPackageFee: row.packageFeeConsent,
      promoCode: row.promoCode ?? undefined,
      clientId: row.clientId,
      additionalLoan,
    },
    now,
  )
}

/**
 * Whether an application is for an additional loan: a loan of the client's, applied for before it, was still
 * open (not cancelled, not closed) when it was made. Read from the loans, not stored: it stays the same however
 * those loans go on.
 */
export async function isAdditionalApplication(db: DbOrTx, row: ApplicationRow): Promise<boolean> {
  const made = row.createdAt.toISOString()
  const [other] = await db
    .select({ id: loan.id })
    .from(loan)
    .innerJoin(application, eq(application.id, loan.applicationId))
    .where(
      and(
        eq(loan.clientId, row.clientId),
        sql`${loan.applicationId} <> ${row.id}`,
        sql`${loan.state} <> 'cancelled'`,
        sql`${application.createdAt} < ${made}::timestamptz`,
        sql`(${loan.closedAt} is null or ${loan.closedAt} > ${made}::timestamptz)`,
      ),
    )
    .limit(1)
  return Boolean(other)
}

export type OfferAnswer = 'special' | 'decrease' | 'increase'

const offerStatus: Record<OfferAnswer, number[]> = {
  special: [AppStatus.specialOffer],
  decrease: [AppStatus.yhatDecrease],
  increase: [AppStatus.yhatIncrease],
}

/**
 * The client's answer to a counter-offer. Decrease and special offer: the offered amount (or any lower grid
 * amount the client chooses). Increase: any amount from the original principal up to the offered limit; sending
 * the original amount and term is how the client refuses.
 */
export async function answerOffer(
  ctx: LendingCtx,
  clientId: number,
  answer: OfferAnswer,
  chosen: { amount?: number; term?: number },
  now: Date,
  by: Actor,
) {
  const db = ctx.database.db
  const current = await activeApplication(db, clientId)
  if (!current || !offerStatus[answer].includes(current.status) || current.offeredAmount === null)
    throw new DomainError('conflict', 'noPendingOffer', 'There is no such offer waiting for your answer.')
  const amount = chosen.amount ?? (answer === 'increase' ? current.desiredAmount : current.offeredAmount)
  const term = chosen.term ?? current.term
  const violations: Violation[] = []
  if (answer === 'increase' && amount < current.desiredAmount)
    violations.push({
      propertyPath: 'amount.amount',
      message: 'The amount cannot be below the amount you asked for.',
    })
  if (amount > current.offeredAmount)
    violations.push({
      propertyPath: 'amount.amount',
      message: 'The amount cannot exceed the amount offered.',
    })
  if (violations.length) throw invalid(violations)
  const facts = await lendingFacts(db, clientId, now)
  await priceFor(
    db,
    clientId,
    facts,
    { amount, term, withPackageFee: current.packageFeeConsent, promoCode: current.promoCode },
    now,
    { amount: 'amount.amount', term: 'term.value' },
    current.offeredAmount,
  )
  const change = await journeyTransaction(ctx, clientId, { type: 'OFFER_ANSWERED' }, by, now, async (tx) => {
    const row = await lockApplication(tx, clientId, current.id)
    if (!offerStatus[answer].includes(row.status) || row.version !== current.version)
      throw new DomainError(
        'conflict',
        'noPendingOffer',
        'The offer changed meanwhile; reload the application.',
      )
    const [updated] = await tx
      .update(application)
      .set({
        status: AppStatus.signing,
        principalAmount: amount,
        term,
        acceptedOffer: null,
        version: row.version + 1,
        updatedAt: now,
      })
      .where(eq(application.id, row.id))
      .returning()
    return updated!
  })
  return change.result
}

/** A loan document's metadata, as the document lists answer it (never the file). */
const documentColumns = {
  id: loanDocument.id,
  applicationId: loanDocument.applicationId,
  type: loanDocument.type,
  sha256: loanDocument.sha256,
  size: loanDocument.size,
  applicationVersion: loanDocument.applicationVersion,
  renderedAt: loanDocument.renderedAt,
  signedAt: loanDocument.signedAt,
}

/** Documents of one application (metadata only). */
export async function documentsOf(db: DbOrTx, clientId: number, applicationIds: number[]) {
  if (!applicationIds.length) return []
  return db
    .select(documentColumns)
    .from(loanDocument)
    .where(and(eq(loanDocument.clientId, clientId), inArray(loanDocument.applicationId, applicationIds)))
    .orderBy(desc(loanDocument.renderedAt))
}

/** GET /private/client/document/list: the client's loan documents, newest first, one page at a time. */
export async function documentsPage(db: DbOrTx, clientId: number, q: { page: number; perPage: number }) {
  const [total] = await db
    .select({ n: count() })
    .from(loanDocument)
    .where(eq(loanDocument.clientId, clientId))
  const items = await db
    .select(documentColumns)
    .from(loanDocument)
    .where(eq(loanDocument.clientId, clientId))
    .orderBy(desc(loanDocument.renderedAt), desc(loanDocument.id))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
  return { items, total: total?.n ?? 0 }
}

export async function clientStatusOf(db: DbOrTx, clientId: number) {
  const [row] = await db.select({ status: client.status }).from(client).where(eq(client.id, clientId))
  return row?.status ?? null
}
