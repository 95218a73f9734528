/**
 * The decision engine (docs/decisions/0012). A `decide` job reads everything it needs, runs the lender's own
 * rules (pure, `evaluateRules`), asks the scoring provider only when the rules leave the decision open, and then
 * writes the result in one journey transaction, but only if the application is still the one it scored (status
 * new, same version): a change or a cancel in between makes the result stale and the job runs again or stops.
 * Nothing is awaited from a provider inside a transaction. Every decision stores its rules, inputs and reasons.
 */
import { and, countDistinct, desc, eq, gte, ne } from 'drizzle-orm'
import { approvalStep, needsFourEyes, type ReviewConfig } from '../../../domain/back-office/review'
import { DomainError, notFound } from '../../../domain/errors'
import { AGE_LIMITS, type AgeLimits, ageOn } from '../../../domain/journey/fields'
import { manilaDate } from '../../../domain/pricing/manila-date'
import type { Db, Tx } from '../../db/client'
import { client } from '../../db/schema-identity'
import { clientProfile, verificationSession } from '../../db/schema-journey'
import { application, applicationDecision, applicationReview, lendingJob } from '../../db/schema-lending'
import type { ScoringAnswer, ScoringProvider } from '../../providers/scoring'
import { recordChange } from '../audit/audit'
import { currentAgeLimits } from '../content/age-limits'
import { type Actor, jobActor, journeyTransaction, lockJourney } from '../journey/journey'
import { lendingConfig } from '../pricing'
import {
  type ApplicationRow,
  AppStatus,
  applicationOffer,
  awaitsDecision,
  type LendingCtx,
  type LendingFacts,
  lendingFacts,
  returnToLoan,
} from './applications'
import { lockReview, type ReviewRow, reviewSnapshot } from './review-queue'

/** The whole repayment must fit in this share of one month's disposable income (income minus expenses). */
export const AFFORDABILITY_BPS = 10_000

export interface DecisionInputs {
  applicationId: number
  applicationVersion: number
  amount: number
  term: number
  total: number
  clientStatus: number
  age: number | null
  /** The limits the content system set (ADR 0048); absent, the defaults (AGE_LIMITS). */
  ageLimits?: AgeLimits
  monthlyIncome: number | null
  monthlyExpenses: number | null
  identityVerification: string | null
  closedLoans: number
  activeLoans: number
  availableAmount: number
  minAmount: number
  interval: number
  /** Issue 18: the application is for an additional loan (another loan runs). */
  additionalLoan?: boolean
  /** Why an additional loan is refused (domain/loan/additional-loan.ts); empty when allowed or not one. */
  additionalLoanRefusals?: readonly string[]
  /** The principal still owed on open loans, centavos (the affordability rule counts it). */
  openPrincipal?: number
  /** The limit from the repayment history and how it was reached (domain/loan/limits.ts). */
  limit?: number
  limitFrozen?: boolean
  limitExplanation?: string[]
  /**
   * Issue 22 (ADR 0042): the device blackbox the application carries (only with the client's device-data
   * consent) and on how many other clients' applications it was seen within DEVICE_WINDOW_DAYS.
   */
  device?: { blackbox: boolean; otherClients: number }
}

/** A blackbox seen on this many other clients' applications within the window sends the application to a person. */
export const DEVICE_SHARED_MAX_OTHERS = 2
export const DEVICE_WINDOW_DAYS = 30

export interface RuleResult {
  rule: string
  passed: boolean
  detail: string
}

export type Outcome = 'approve' | 'reject' | 'manual' | 'decrease' | 'special_offer' | 'increase' | 'error'

export interface RulesVerdict {
  rules: RuleResult[]
  /**
   * A decision the rules alone take (reject), a person's review (manual: a fraud signal, ADR 0042), or null: the
   * scoring provider decides.
   */
  outcome: 'reject' | 'manual' | null
  reasons: string[]
}

/**
 * The shared-device rule (ADR 0042), only for an application that carries a device blackbox (the client consented
 * to device data): a decision says it used the device exactly when it did.
 */
function deviceRule(i: DecisionInputs): RuleResult | null {
  if (!i.device?.blackbox) return null
  const others = i.device.otherClients
  return {
    rule: 'device_blackbox',
    passed: others < DEVICE_SHARED_MAX_OTHERS,
    detail: `the device blackbox was seen on ${others} other client(s)' applications in ${DEVICE_WINDOW_DAYS} days (a person reviews from ${DEVICE_SHARED_MAX_OTHERS})`,
  }
}

/** The lender's own rules, before any provider. Pure: the same inputs always give the same verdict. */
export function evaluateRules(i: DecisionInputs): RulesVerdict {
  const disposable = i.monthlyIncome === null ? null : Math.max(0, i.monthlyIncome - (i.monthlyExpenses ?? 0))
  // What the client would owe in all: this loan's repayment and the principal still owed on the running one.
  const owed = i.total + (i.openPrincipal ?? 0)
  const refusals = i.additionalLoanRefusals ?? []
  const ages = i.ageLimits ?? AGE_LIMITS
  const rules: RuleResult[] = [
    {
      rule: 'client_status',
      passed: i.clientStatus !== 2 && i.clientStatus !== 3,
      detail: `client status ${i.clientStatus} (2 blocked and 3 blacklisted are refused)`,
    },
    {
      rule: 'age',
      passed: i.age !== null && i.age >= ages.min && i.age <= ages.max,
      detail: i.age === null ? 'no birth date' : `age ${i.age}, allowed ${ages.min} to ${ages.max}`,
    },
    {
      rule: 'identity_verified',
      passed: i.identityVerification === 'approved',
      detail: `identity verification ${i.identityVerification ?? 'missing'}`,
    },
    {
      rule: 'additional_loan',
      passed: i.activeLoans === 0 || (i.additionalLoan === true && refusals.length === 0),
      detail:
        i.activeLoans === 0
          ? 'no open loan'
          : refusals.length
            ? `${i.activeLoans} open loan(s); ${refusals.join(' ')}`
            : `${i.activeLoans} open loan(s); the additional-loan rule allows one more`,
    },
    {
      rule: 'repayment_history',
      passed: i.limitFrozen !== true && i.amount <= i.availableAmount,
      detail:
        `${(i.limitExplanation ?? []).join(' ')} Available now ${i.availableAmount} centavos, asked ${i.amount}.`.trim(),
    },
    {
      rule: 'affordability',
      passed: disposable !== null && owed * 10_000 <= disposable * AFFORDABILITY_BPS,
      detail:
        disposable === null
          ? 'no income declared'
          : `repayment ${i.total} centavos${i.openPrincipal ? ` plus ${i.openPrincipal} owed on the open loan` : ''} against monthly disposable income ${disposable} centavos`,
    },
  ]
  const device = deviceRule(i)
  if (device) rules.push(device)
  const failed = rules.filter((r) => !r.passed)
  // Affordability alone is not a refusal: the engine offers a lower amount instead (decrease, see decide()).
  // A shared device is no refusal either: a person looks at it (manual verification).
  const hard = failed.filter(
    (r) => r.rule !== 'device_blackbox' && (r.rule !== 'affordability' || disposable === null),
  )
  if (hard.length) return { rules, outcome: 'reject', reasons: hard.map((r) => `${r.rule}: ${r.detail}`) }
  const reasons = failed.map((r) => `${r.rule}: ${r.detail}`)
  if (device && !device.passed) return { rules, outcome: 'manual', reasons }
  return { rules, outcome: null, reasons }
}

/** The limit's explanation as decision reasons (`limit: ...`). */
export const limitReasons = (i: DecisionInputs) => (i.limitExplanation ?? []).map((line) => `limit: ${line}`)

async function gatherInputs(
  db: Db,
  row: ApplicationRow,
  now: Date,
): Promise<{ inputs: DecisionInputs; facts: LendingFacts; firstName: string | null }> {
  const [who] = await db.select({ status: client.status }).from(client).where(eq(client.id, row.clientId))
  const [profile] = await db.select().from(clientProfile).where(eq(clientProfile.clientId, row.clientId))
  const [verification] = await db
    .select({ status: verificationSession.status })
    .from(verificationSession)
    .where(eq(verificationSession.clientId, row.clientId))
    .orderBy(desc(verificationSession.createdAt))
    .limit(1)
  const facts = await lendingFacts(db, row.clientId, now)
  const device = await deviceSharing(db, row, now)
  const { calculator } = await lendingConfig(db)
  const offer = await applicationOffer(db, row, now)
  const ageLimits = await currentAgeLimits(db)
  const additionalLoan = facts.additionalLoan
  return {
    facts,
    firstName: profile?.firstName ?? null,
    inputs: {
      applicationId: row.id,
      applicationVersion: row.version,
      amount: row.principalAmount,
      term: row.term,
      total: offer.total.amount,
      clientStatus: who?.status ?? 0,
      age: profile ? ageOn(profile.birthDate, manilaDate(now)) : null,
      ageLimits,
      monthlyIncome: profile?.monthlyIncome ?? null,
      monthlyExpenses: profile?.monthlyExpenses ?? null,
      identityVerification: verification?.status ?? null,
      closedLoans: facts.closedLoans,
      activeLoans: facts.activeLoans,
      availableAmount: Math.max(facts.availableAmount, 0),
      minAmount: additionalLoan
        ? calculator.amountLimits.minAdditionLoan
        : calculator.amountLimits.minMainLoan,
      interval: calculator.amountLimits.interval,
      additionalLoan,
      additionalLoanRefusals: facts.additionalVerdict?.reasons.map((r) => r.message) ?? [],
      openPrincipal: facts.openPrincipal,
      limit: facts.limit.limit,
      limitFrozen: facts.limit.frozen,
      limitExplanation: facts.limit.explanation,
      device,
    },
  }
}

/** How many other clients' applications carried this application's blackbox within the window. */
async function deviceSharing(db: Db, row: ApplicationRow, now: Date) {
  if (!row.iovationBlackbox) return { blackbox: false, otherClients: 0 }
  const since = new Date(now.getTime() - DEVICE_WINDOW_DAYS * 86_400_000)
  const [found] = await db
    .select({ n: countDistinct(application.clientId) })
    .from(application)
    .where(
      and(
        eq(application.iovationBlackbox, row.iovationBlackbox),
        gte(application.createdAt, since),
        ne(application.clientId, row.clientId),
      ),
    )
  return { blackbox: true, otherClients: found?.n ?? 0 }
}

/** The largest amount on the grid, below the asked one, whose repayment fits the income; null if none. */
async function affordableAmount(db: Db, row: ApplicationRow, i: DecisionInputs, now: Date) {
  const disposable = Math.max(0, (i.monthlyIncome ?? 0) - (i.monthlyExpenses ?? 0))
  for (let amount = i.amount - i.interval; amount >= i.minAmount; amount -= i.interval) {
    const offer = await applicationOffer(db, { ...row, principalAmount: amount }, now)
    if ((offer.total.amount + (i.openPrincipal ?? 0)) * 10_000 <= disposable * AFFORDABILITY_BPS)
      return amount
  }
  return null
}

export interface Decision {
  outcome: Outcome
  offeredAmount: number | null
  rules: RuleResult[]
  inputs: DecisionInputs
  reasons: string[]
  scoring: (ScoringAnswer & { provider: string }) | null
}

/** Everything up to the decision, outside any transaction. Throws when the provider fails. */
export async function decide(
  db: Db,
  scoring: ScoringProvider,
  row: ApplicationRow,
  now: Date,
): Promise<Decision> {
  const decision = await decideOnRules(db, scoring, row, now)
  // Every decision says, last, how the client's limit was reached (issue 18): the repayment history, step by step.
  return { ...decision, reasons: [...decision.reasons, ...limitReasons(decision.inputs)] }
}

async function decideOnRules(
  db: Db,
  scoring: ScoringProvider,
  row: ApplicationRow,
  now: Date,
): Promise<Decision> {
  const { inputs, firstName } = await gatherInputs(db, row, now)
  const verdict = evaluateRules(inputs)
  const base = { rules: verdict.rules, inputs, scoring: null }
  if (verdict.outcome === 'reject')
    return { ...base, outcome: 'reject', offeredAmount: null, reasons: verdict.reasons }
  if (verdict.outcome === 'manual')
    return { ...base, outcome: 'manual', offeredAmount: null, reasons: verdict.reasons }
  const affordable = verdict.rules.find((r) => r.rule === 'affordability')?.passed
  if (!affordable) {
    const lower = await affordableAmount(db, row, inputs, now)
    if (lower === null)
      return {
        ...base,
        outcome: 'reject',
        offeredAmount: null,
        reasons: [...verdict.reasons, 'no lower amount is affordable'],
      }
    return { ...base, outcome: 'decrease', offeredAmount: lower, reasons: verdict.reasons }
  }
  const answer = await scoring.score({
    applicationId: row.id,
    clientId: row.clientId,
    firstName,
    amount: inputs.amount,
    term: inputs.term,
    availableAmount: inputs.availableAmount,
    minAmount: inputs.minAmount,
    interval: inputs.interval,
    monthlyIncome: inputs.monthlyIncome,
    closedLoans: inputs.closedLoans,
  })
  let offeredAmount = answer.offeredAmount ?? null
  let outcome: Outcome = answer.outcome
  if (outcome === 'increase' && offeredAmount !== null) {
    // Never above what the client may borrow, nor the provider's word alone: the income rule applies to it too.
    offeredAmount = Math.min(offeredAmount, inputs.availableAmount)
    const atLimit = await applicationOffer(db, { ...row, principalAmount: offeredAmount }, now)
    const disposable = Math.max(0, (inputs.monthlyIncome ?? 0) - (inputs.monthlyExpenses ?? 0))
    const owedAtLimit = atLimit.total.amount + (inputs.openPrincipal ?? 0)
    if (owedAtLimit * 10_000 > disposable * AFFORDABILITY_BPS || offeredAmount <= inputs.amount) {
      outcome = 'approve'
      offeredAmount = null
    }
  }
  if (
    (outcome === 'decrease' || outcome === 'special_offer') &&
    (offeredAmount === null || offeredAmount >= inputs.amount)
  ) {
    outcome = 'approve'
    offeredAmount = null
  }
  return {
    ...base,
    outcome,
    offeredAmount,
    reasons: [...verdict.reasons, ...answer.reasons],
    scoring: { ...answer, provider: scoring.name },
  }
}

const outcomeStatus: Record<Outcome, number> = {
  approve: AppStatus.signing,
  reject: AppStatus.rejected,
  manual: AppStatus.manualVerification,
  decrease: AppStatus.yhatDecrease,
  special_offer: AppStatus.specialOffer,
  increase: AppStatus.yhatIncrease,
  error: AppStatus.decisionError,
}

const outcomeEvent = {
  approve: 'DECISION_APPROVED',
  reject: 'DECISION_REJECTED',
  manual: 'DECISION_MANUAL',
  decrease: 'DECISION_DECREASE',
  special_offer: 'DECISION_DECREASE',
  increase: 'DECISION_INCREASE',
  // A decision nobody could take goes to a person: the manual-verification page.
  error: 'DECISION_MANUAL',
} as const

export class StaleDecision extends Error {
  constructor() {
    super('the application changed while it was being decided')
    this.name = 'StaleDecision'
  }
}

/**
 * Writes a decision: status, counter-offer, the decision record and the journey step, atomically, only if the
 * application is still at the version that was decided on. Returns false when it was stale.
 */
export async function recordDecision(
  ctx: LendingCtx,
  row: ApplicationRow,
  decision: Decision,
  now: Date,
  jobId: number | null,
): Promise<boolean> {
  try {
    await journeyTransaction(
      ctx,
      row.clientId,
      { type: outcomeEvent[decision.outcome] },
      jobActor('decision', jobId),
      now,
      async (tx) => {
        const [current] = await tx.select().from(application).where(eq(application.id, row.id)).for('update')
        if (!current || !awaitsDecision(current.status) || current.version !== row.version)
          throw new StaleDecision()
        await tx
          .update(application)
          .set({
            status: outcomeStatus[decision.outcome],
            offeredAmount: decision.offeredAmount,
            version: current.version + 1,
            updatedAt: now,
          })
          .where(eq(application.id, row.id))
        await insertDecision(tx, row.id, current.version, 'engine', decision, now, null)
        if (jobId !== null) await finishJob(tx, jobId, now)
      },
    )
    if (decision.outcome === 'reject') await returnToLoan(ctx, row.clientId, row.id, now)
    return true
  } catch (error) {
    if (error instanceof StaleDecision) return false
    throw error
  }
}

async function insertDecision(
  tx: Tx,
  applicationId: number,
  version: number,
  source: 'engine' | 'back_office',
  decision: Pick<Decision, 'outcome' | 'offeredAmount' | 'rules' | 'inputs' | 'reasons' | 'scoring'>,
  now: Date,
  decidedBy: number | null,
) {
  await tx.insert(applicationDecision).values({
    applicationId,
    source,
    outcome: decision.outcome,
    applicationVersion: version,
    rules: decision.rules,
    inputs: { ...decision.inputs, scoring: decision.scoring },
    reasons: decision.reasons,
    offeredAmount: decision.offeredAmount,
    decidedBy,
    createdAt: now,
  })
}

export const finishJob = (tx: Tx, jobId: number, now: Date) =>
  tx.update(lendingJob).set({ doneAt: now, lockedUntil: null }).where(eq(lendingJob.id, jobId))

/** After the provider failed for the last time: decision error (401), and a person looks at it. */
export async function recordDecisionError(
  ctx: LendingCtx,
  row: ApplicationRow,
  message: string,
  now: Date,
  jobId: number,
) {
  return recordDecision(
    ctx,
    row,
    {
      outcome: 'error',
      offeredAmount: null,
      rules: [],
      inputs: { applicationId: row.id } as DecisionInputs,
      reasons: [`scoring failed: ${message}`],
      scoring: null,
    },
    now,
    jobId,
  )
}

/** The application changed between the read and the locked re-read: decide again on what is there now. */
class DecideAgain extends Error {}

const isWaiting = (status: number) =>
  status === AppStatus.manualVerification || status === AppStatus.decisionError

const notWaiting = () =>
  new DomainError(
    'conflict',
    'applicationStatus',
    'Only an application waiting for manual verification can be decided here.',
  )

const approvalOf = (
  row: ApplicationRow,
  review: ReviewRow | null | undefined,
  userId: number,
  config: ReviewConfig,
) =>
  approvalStep(
    {
      amount: row.principalAmount,
      version: row.version,
      firstApproval:
        review?.firstApprovedBy != null && review.firstApprovedVersion != null
          ? { by: review.firstApprovedBy, version: review.firstApprovedVersion }
          : null,
    },
    userId,
    config,
  )

const decisionSnapshot = (row: ApplicationRow, review: ReviewRow | null) => ({
  status: row.status,
  version: row.version,
  review: reviewSnapshot(review),
})

export interface BackOfficeDecisionResult {
  row: ApplicationRow
  /** complete: approved or rejected; first: the first signature of a four-eyes approval, still in the queue. */
  step: 'complete' | 'first'
}

/**
 * PUT /private/back-office/application/{id}/decision: a person approves or rejects an application waiting for
 * manual verification (14) or left in decision error (401), with a reason that is stored with the decision.
 *
 * The four-eyes rule (domain/back-office/review.ts, docs/decisions/0036-review-queue.md): an approval above the
 * configured amount is first recorded as a first signature (the application stays in the queue), and completed
 * by a second, different user. Every path re-reads the application and its review row under lock (journey row,
 * then application, then review row, the order every writer takes) and re-runs the rule on what it finds, so
 * two people approving at once take turns: one signature each, or one completion and one 409, never two.
 */
export async function backOfficeDecision(
  ctx: LendingCtx,
  applicationId: number,
  userId: number,
  input: { decision: 'approve' | 'reject'; reason: string },
  now: Date,
  by: Actor,
  config: ReviewConfig,
): Promise<BackOfficeDecisionResult> {
  const db = ctx.database.db
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await db.select().from(application).where(eq(application.id, applicationId))
    if (!row) throw notFound('Application')
    if (!isWaiting(row.status)) throw notWaiting()
    const [review] = await db
      .select()
      .from(applicationReview)
      .where(eq(applicationReview.applicationId, applicationId))
    const step = input.decision === 'reject' ? 'complete' : approvalOf(row, review, userId, config)
    if (step === 'sameUser') throw sameApprover()
    try {
      if (step === 'first')
        return { row: await firstSignature(ctx, row, userId, input.reason, now, config), step }
      return { row: await completeDecision(ctx, row, userId, input, now, by, config), step }
    } catch (error) {
      if (error instanceof DecideAgain) continue
      throw error
    }
  }
  throw new DomainError(
    'conflict',
    'applicationChanged',
    'The application changed meanwhile. Please try again.',
  )
}

const sameApprover = () =>
  new DomainError(
    'conflict',
    'secondApprovalSameUser',
    'You gave the first approval: a second, different underwriter must approve this application.',
  )

/** The first signature of a four-eyes approval: recorded, and the application stays in the queue. */
async function firstSignature(
  ctx: LendingCtx,
  row: ApplicationRow,
  userId: number,
  reason: string,
  now: Date,
  config: ReviewConfig,
): Promise<ApplicationRow> {
  return ctx.database.db.transaction(async (tx) => {
    await lockJourney(tx, row.clientId, now)
    const [current] = await tx.select().from(application).where(eq(application.id, row.id)).for('update')
    if (!current || !isWaiting(current.status)) throw notWaiting()
    const before = await lockReview(tx, row.id, now)
    const step = approvalOf(current, before, userId, config)
    if (step === 'sameUser') throw sameApprover()
    if (step !== 'first') throw new DecideAgain()
    const [after] = await tx
      .update(applicationReview)
      .set({
        firstApprovedBy: userId,
        firstApprovedAt: now,
        firstApprovedVersion: current.version,
        firstApprovalReason: reason,
        updatedAt: now,
      })
      .where(eq(applicationReview.applicationId, row.id))
      .returning()
    await recordChange(tx, {
      entity: 'application',
      entityId: row.id,
      clientId: row.clientId,
      before: decisionSnapshot(current, before),
      after: decisionSnapshot(current, after ?? null),
    })
    return current
  })
}

/** An approval that needs no further signature, or a rejection: the application leaves the queue. */
async function completeDecision(
  ctx: LendingCtx,
  row: ApplicationRow,
  userId: number,
  input: { decision: 'approve' | 'reject'; reason: string },
  now: Date,
  by: Actor,
  config: ReviewConfig,
): Promise<ApplicationRow> {
  const approve = input.decision === 'approve'
  const event = approve ? 'DECISION_APPROVED' : 'DECISION_REJECTED'
  const change = await journeyTransaction(ctx, row.clientId, { type: event }, by, now, async (tx) => {
    const [current] = await tx.select().from(application).where(eq(application.id, row.id)).for('update')
    if (!current || !isWaiting(current.status)) throw notWaiting()
    const review = await lockReview(tx, row.id, now)
    const step = approve ? approvalOf(current, review, userId, config) : 'complete'
    if (step === 'sameUser') throw sameApprover()
    if (step !== 'complete') throw new DecideAgain()
    const fourEyes = approve && needsFourEyes(current.principalAmount, config)
    const [updated] = await tx
      .update(application)
      .set({
        status: approve ? AppStatus.signing : AppStatus.rejected,
        version: current.version + 1,
        updatedAt: now,
      })
      .where(and(eq(application.id, row.id), eq(application.version, current.version)))
      .returning()
    if (!updated) throw new DecideAgain()
    const rules: { rule: string; passed: boolean; detail: string }[] = [
      { rule: 'manual_review', passed: approve, detail: input.reason },
    ]
    if (fourEyes)
      rules.push({
        rule: 'four_eyes',
        passed: true,
        detail: `first approval by user ${review.firstApprovedBy}, second by user ${userId}`,
      })
    await insertDecision(
      tx,
      row.id,
      current.version,
      'back_office',
      {
        outcome: input.decision,
        offeredAmount: null,
        rules,
        inputs: { applicationId: row.id, applicationVersion: current.version } as DecisionInputs,
        reasons:
          fourEyes && review.firstApprovalReason
            ? [review.firstApprovalReason, input.reason]
            : [input.reason],
        scoring: null,
      },
      now,
      userId,
    )
    await recordChange(tx, {
      entity: 'application',
      entityId: row.id,
      clientId: row.clientId,
      before: decisionSnapshot(current, review),
      after: { ...decisionSnapshot(updated, review), decision: input.decision, decidedBy: userId },
    })
    return updated
  })
  if (!approve) await returnToLoan(ctx, row.clientId, row.id, now)
  return change.result
}
