/**
 * From the signature to the loan: signing queues exactly one disbursement (unique index on application_id) and a
 * payout job; the payout job's result creates the loan (status 4, active) and moves the journey to loan_page, or
 * to tmc_page for a cash pickup waiting at the counter, or back to disbursement_type after a failure, where
 * PUT /finish retries the same disbursement with the payout account then selected.
 */
import { and, eq } from 'drizzle-orm'
import { documentTypes } from '../../../domain/contract/lending-answers'
import type { PricedOffer } from '../../../domain/contract/pricing-answers'
import { DomainError } from '../../../domain/errors'
import { loanStatusOf } from '../../../domain/loan/loan-lifecycle.machine'
import { addDays } from '../../../domain/pricing/manila-date'
import type { DbOrTx, Tx } from '../../db/client'
import { promoRedemption } from '../../db/schema'
import { disbursementEntry } from '../../db/schema-journey'
import { application, disbursement, lendingJob, loan, loanDocument } from '../../db/schema-lending'
import { referralRewardUse } from '../../db/schema-referrals'
import type { PayoutAnswer } from '../../providers/payout'
import { enterBankAccountSelect, leaveBankAccountSelect } from '../identity/client-status'
import { type Actor, jobActor, journeyTransaction } from '../journey/journey'
import { businessToday } from '../payments/clock'
import { bookEntries, lockLoan, moveLoan } from '../payments/loans'
import { unusedReferralReward } from '../referrals/reward-balance'
import { offerExtensionDrafts } from '../servicing/extensions'
import { offerSchedules } from '../servicing/schedules'
import { type ApplicationRow, AppStatus, type LendingCtx, lockApplication } from './applications'
import { finishJob } from './decision'
import { queuePayoutNotice } from './payout-notice'

/**
 * Before the signing code is sent: the journey must accept the signature's preparation, and the documents must
 * have been rendered for the application as it is now; otherwise no code is sent (a 409, nothing written).
 */
export async function prepareSignature(
  ctx: LendingCtx,
  clientId: number,
  row: ApplicationRow,
  now: Date,
  by: Actor,
) {
  await journeyTransaction(ctx, clientId, { type: 'PREPARE_SIGNATURE' }, by, now, async (tx) => {
    const [doc] = await tx
      .select({ version: loanDocument.applicationVersion })
      .from(loanDocument)
      .where(eq(loanDocument.applicationId, row.id))
    if (row.status !== AppStatus.signing || !doc || doc.version !== row.version)
      throw new DomainError(
        'conflict',
        'documentsOutdated',
        'Render the documents before asking for the code.',
      )
  })
}

/** The signature once its code was checked: one SIGN journey transaction (signInTransaction). */
export async function signApplication(
  ctx: LendingCtx,
  clientId: number,
  applicationId: number,
  now: Date,
  by: Actor,
) {
  return journeyTransaction(ctx, clientId, { type: 'SIGN' }, by, now, (tx) =>
    signInTransaction(tx, clientId, applicationId, now),
  )
}

/**
 * The signature, inside the SIGN journey transaction (the code was checked just before): the documents must be
 * those of the application as it is now; they are marked signed (their bytes and hashes are not touched), the
 * application becomes accepted (3), one disbursement and one payout job are queued.
 */
export async function signInTransaction(tx: Tx, clientId: number, applicationId: number, now: Date) {
  const row = await lockApplication(tx, clientId, applicationId)
  if (row.status !== AppStatus.signing)
    throw new DomainError('conflict', 'applicationStatus', `Signing is not possible in status ${row.status}.`)
  const docs = await tx
    .select({ type: loanDocument.type, version: loanDocument.applicationVersion })
    .from(loanDocument)
    .where(eq(loanDocument.applicationId, applicationId))
  const fresh = documentTypes.every((type) => docs.some((d) => d.type === type && d.version === row.version))
  if (!fresh || !row.acceptedOffer)
    throw new DomainError(
      'conflict',
      'documentsOutdated',
      'Render the documents again: the application changed.',
    )
  const [entry] = await tx
    .select()
    .from(disbursementEntry)
    .where(and(eq(disbursementEntry.clientId, clientId), eq(disbursementEntry.selected, true)))
  if (!entry) throw new DomainError('conflict', 'payoutMissing', 'Choose how to receive the money first.')
  await tx.update(loanDocument).set({ signedAt: now }).where(eq(loanDocument.applicationId, applicationId))
  const [updated] = await tx
    .update(application)
    .set({
      status: AppStatus.accepted,
      signedAt: now,
      disbursementEntryId: entry.id,
      version: row.version + 1,
      updatedAt: now,
    })
    .where(eq(application.id, applicationId))
    .returning()
  const offer = row.acceptedOffer as PricedOffer
  // A referral reward the offer took off its fee is spent now; one spent meanwhile (another loan signed since the
  // documents were rendered) makes them outdated: rendered again, they are priced on what is left.
  const reward = offer.referralReward?.amount ?? 0
  if (reward > 0 && (await unusedReferralReward(tx, clientId)) < reward)
    throw new DomainError(
      'conflict',
      'documentsOutdated',
      'Render the documents again: the referral reward they count was used meanwhile.',
    )
  // The loan exists from the signature, as a draft (status 1) waiting for the money to leave.
  await insertDraftLoan(tx, updated!, now)
  await tx.insert(disbursement).values({
    applicationId,
    clientId,
    entryId: entry.id,
    type: entry.type,
    amount: offer.principal.amount,
    status: 'queued',
    createdAt: now,
  })
  await tx.insert(lendingJob).values({ kind: 'payout', applicationId, runAt: now, createdAt: now })
  if (row.promoCode && offer.promo?.applied)
    await tx.insert(promoRedemption).values({ code: row.promoCode, clientId, applicationId, createdAt: now })
  if (reward > 0)
    await tx.insert(referralRewardUse).values({ clientId, applicationId, amount: reward, createdAt: now })
  return updated!
}

const payoutEvent = {
  succeeded: 'PAYOUT_SUCCEEDED',
  cash_pickup_ready: 'PAYOUT_CASH_PICKUP_READY',
  failed: 'PAYOUT_FAILED',
} as const

/** Writes a payout result: the disbursement, and on success the loan and the completed application. */
export async function recordPayout(
  ctx: LendingCtx,
  row: typeof disbursement.$inferSelect,
  answer: PayoutAnswer,
  now: Date,
  jobId: number,
) {
  await journeyTransaction(
    ctx,
    row.clientId,
    { type: payoutEvent[answer.status] },
    jobActor('payout', jobId),
    now,
    async (tx) => {
      const [current] = await tx.select().from(disbursement).where(eq(disbursement.id, row.id)).for('update')
      if (current?.status !== 'queued') throw new DomainError('conflict', 'payoutSettled', 'Already settled.')
      await tx
        .update(disbursement)
        .set({
          status: answer.status,
          providerRef: answer.reference || null,
          cashPickupNumber: answer.status === 'cash_pickup_ready' ? answer.cashPickupNumber : null,
          failureReason: answer.status === 'failed' ? answer.reason : null,
          attempts: current.attempts + 1,
          completedAt: now,
        })
        .where(eq(disbursement.id, row.id))
      await finishJob(tx, jobId, now)
      if (answer.status === 'failed') {
        // The client must choose another account (status 5, bank account select) until the payout is retried.
        await enterBankAccountSelect(tx, row.clientId, now)
        return
      }
      const [app] = await tx
        .select()
        .from(application)
        .where(eq(application.id, row.applicationId))
        .for('update')
      if (!app) throw new Error('disbursement without application')
      await tx
        .update(application)
        .set({
          status: AppStatus.completed,
          cashPickupNumber: answer.status === 'cash_pickup_ready' ? answer.cashPickupNumber : null,
          version: app.version + 1,
          updatedAt: now,
        })
        .where(eq(application.id, app.id))
      await activateLoan(tx, app, now, jobId)
      // The client is told after the commit (payout-notice.ts): never from inside this transaction.
      await queuePayoutNotice(tx, app.id, now)
    },
  )
}

function loanFigures(app: typeof application.$inferSelect) {
  const offer = app.acceptedOffer as PricedOffer
  const feeLines = {
    processingFee: offer.processingFee.amount,
    serviceFee: offer.serviceFee.amount,
    withdrawalFee: offer.withdrawalFee.amount,
    invoicingFee: offer.invoicingFee.amount,
    borrowersAdvantagePackageFee: offer.borrowers_advantage_package_fee.amount,
  }
  const fees = Object.values(feeLines).reduce((a, b) => a + b, 0)
  return { offer, feeLines, fees }
}

/** The draft loan of a signed application: the signed offer's figures; its dates are set again at payout. */
async function insertDraftLoan(tx: Tx, app: typeof application.$inferSelect, now: Date) {
  const { offer, feeLines, fees } = loanFigures(app)
  const today = await businessToday(tx, app.clientId, now)
  await tx
    .insert(loan)
    .values({
      clientId: app.clientId,
      applicationId: app.id,
      status: loanStatusOf('draft'),
      state: 'draft',
      principal: offer.principal.amount,
      interest: offer.interest.amount,
      fees,
      total: offer.total.amount,
      term: offer.term,
      feeLines,
      createdAt: now,
      dueDate: addDays(today, offer.term),
      finalClosingDate: addYear(today),
    })
    .onConflictDoNothing()
}

/**
 * The money left: the draft loan becomes active (DISBURSED), its term counted from the business day of the
 * payout on Manila's calendar, and the ledger books the principal and each fee (fees are booked at disbursement;
 * interest accrues day by day: domain/loan/ledger.ts).
 */
async function activateLoan(tx: Tx, app: typeof application.$inferSelect, now: Date, jobId: number) {
  await insertDraftLoan(tx, app, now)
  const [{ id }] = (await tx.select({ id: loan.id }).from(loan).where(eq(loan.applicationId, app.id))) as [
    { id: number },
  ]
  const row = await lockLoan(tx, id)
  if (row.state !== 'draft') return
  const { feeLines } = loanFigures(app)
  const today = await businessToday(tx, app.clientId, now)
  await bookEntries(
    tx,
    row,
    [
      { kind: 'disbursement', part: 'principal', amount: row.principal },
      ...Object.entries(feeLines).map(([name, amount]) => ({
        kind: 'fee' as const,
        part: 'fees' as const,
        amount,
        memo: name,
      })),
    ],
    today,
    now,
  )
  const active = await moveLoan(tx, row, { type: 'DISBURSED' }, jobActor('payout', jobId), now, {
    createdAt: now,
    startDate: today,
    disbursedAt: now,
    dueDate: addDays(today, row.term),
    finalClosingDate: addYear(today),
  })
  // What an active loan is offered (issue 17): an extension draft per type and a schedule offer per type;
  // whether each may be taken on a given day is decided when it is shown or chosen.
  await offerExtensionDrafts(tx, active, now)
  await offerSchedules(tx, active, now)
}

/** The same calendar day a year later (29 February becomes 28 February). */
export function addYear(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const last = new Date(Date.UTC(y + 1, m, 0)).getUTCDate()
  return `${y + 1}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`
}

/** A failed payout waiting for a new payout account (PUT /finish retries it). */
export async function failedDisbursement(db: DbOrTx, clientId: number) {
  const [row] = await db
    .select()
    .from(disbursement)
    .where(and(eq(disbursement.clientId, clientId), eq(disbursement.status, 'failed')))
  return row ?? null
}

/** RETRY_PAYOUT: the same disbursement row, queued again to the payout account selected now. */
export async function retryPayoutInTransaction(tx: Tx, clientId: number, now: Date) {
  const [row] = await tx
    .select()
    .from(disbursement)
    .where(and(eq(disbursement.clientId, clientId), eq(disbursement.status, 'failed')))
    .for('update')
  if (!row) throw new DomainError('conflict', 'noFailedPayout', 'There is no payout to retry.')
  const [entry] = await tx
    .select()
    .from(disbursementEntry)
    .where(and(eq(disbursementEntry.clientId, clientId), eq(disbursementEntry.selected, true)))
  if (!entry) throw new DomainError('conflict', 'payoutMissing', 'Choose how to receive the money first.')
  await leaveBankAccountSelect(tx, clientId, now)
  await tx
    .update(disbursement)
    .set({ status: 'queued', entryId: entry.id, type: entry.type, failureReason: null, completedAt: null })
    .where(eq(disbursement.id, row.id))
  await tx
    .update(application)
    .set({ disbursementEntryId: entry.id, updatedAt: now })
    .where(eq(application.id, row.applicationId))
  await tx
    .update(lendingJob)
    .set({ doneAt: null, runAt: now, attempts: 0, lockedUntil: null, lastError: null })
    .where(and(eq(lendingJob.kind, 'payout'), eq(lendingJob.applicationId, row.applicationId)))
}
