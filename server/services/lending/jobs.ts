/**
 * The lending jobs (decide, payout) and the in-process worker that runs them (docs/decisions/0012).
 *
 * Claiming is one short transaction: SELECT ... FOR UPDATE SKIP LOCKED the due jobs, set a lease
 * (`locked_until`) and count the attempt, COMMIT. The provider is called after that commit, and the result is
 * written in its own journey transaction. So several server processes share the queue without taking the same
 * job twice, a crashed worker's job is taken again when its lease ends, and no transaction is ever open while a
 * provider is called (PGlite has a single connection: GUIDE section 4). Tests call `runDueJobs` directly.
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { errorForLog, errorSummary } from '../../db/errors'
import { institution } from '../../db/schema'
import { disbursementEntry } from '../../db/schema-journey'
import { application, disbursement, lendingJob } from '../../db/schema-lending'
import type { AppDeps } from '../../deps'
import { ScoringPendingError, ScoringRefusedError } from '../../providers/scoring'
import { JourneyStepMismatch } from '../journey/journey'
import { AppStatus, awaitsDecision } from './applications'
import { decide, finishJob, recordDecision, recordDecisionError } from './decision'
import { recordPayout } from './payout'
import { PAYOUT_NOTICE_JOB, runPayoutNotice, sendPayoutNoticeNow } from './payout-notice'

export const JOB_LEASE_MS = 60_000
export const JOB_MAX_ATTEMPTS = 3
export const JOB_RETRY_MS = 30_000
/**
 * A scoring provider still evaluating (ScoringPendingError) is asked again every minute, for a day from the last
 * change to the application's figures; then the decision ends in error (401) and a person decides.
 */
export const SCORING_RECHECK_MS = 60_000
export const SCORING_PENDING_MAX_MS = 24 * 60 * 60_000

type Job = typeof lendingJob.$inferSelect
type WorkerDeps = Pick<AppDeps, 'database' | 'logger' | 'now' | 'scoring' | 'payout' | 'messaging'>

/** Takes up to `limit` due jobs for this worker (a lease of JOB_LEASE_MS). */
export async function claimJobs(db: Db, now: Date, limit: number): Promise<Job[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(lendingJob)
      .where(
        and(
          isNull(lendingJob.doneAt),
          lte(lendingJob.runAt, now),
          or(isNull(lendingJob.lockedUntil), lt(lendingJob.lockedUntil, now)),
        ),
      )
      .orderBy(asc(lendingJob.runAt), asc(lendingJob.id))
      .limit(limit)
      .for('update', { skipLocked: true })
    if (!due.length) return []
    const ids = due.map((j) => j.id)
    return tx
      .update(lendingJob)
      .set({ lockedUntil: new Date(now.getTime() + JOB_LEASE_MS), attempts: sql`${lendingJob.attempts} + 1` })
      .where(inArray(lendingJob.id, ids))
      .returning()
  })
}

async function retryLater(db: Db, job: Job, error: unknown, now: Date) {
  await db
    .update(lendingJob)
    .set({
      lockedUntil: null,
      runAt: new Date(now.getTime() + JOB_RETRY_MS * job.attempts),
      // Class and code only: a failed query's message holds its SQL and bound (personal) values.
      lastError: errorSummary(error).slice(0, 500),
    })
    .where(eq(lendingJob.id, job.id))
}

/** The provider answered "not decided yet": asked again later; the answer is not a failed attempt. */
async function recheckLater(db: Db, job: Job, now: Date) {
  await db
    .update(lendingJob)
    .set({
      lockedUntil: null,
      runAt: new Date(now.getTime() + SCORING_RECHECK_MS),
      attempts: Math.max(0, job.attempts - 1),
    })
    .where(eq(lendingJob.id, job.id))
}

/**
 * The provider is still checking the client (a credit bureau asked for time): the application is in
 * verification (7) until it answers, so the client, the back office and the sandbox see that the lender is
 * waiting on a check rather than on its own engine (docs/decisions/0048). Only from new, and only while the
 * figures are the ones being checked (same version); the figures and `updatedAt` stay, so the day the job
 * waits for an answer still counts from the application's last change.
 */
async function markVerifying(db: Db, row: { id: number; version: number }) {
  await db
    .update(application)
    .set({ status: AppStatus.verification })
    .where(
      and(
        eq(application.id, row.id),
        eq(application.status, AppStatus.new),
        eq(application.version, row.version),
      ),
    )
}

const markDone = (db: Db, job: Job, now: Date) => db.transaction((tx) => finishJob(tx, job.id, now))

async function loadApplication(db: Db, id: number) {
  const [row] = await db.select().from(application).where(eq(application.id, id))
  return row ?? null
}

async function runDecide(deps: WorkerDeps, job: Job) {
  const db = deps.database.db
  const now = deps.now()
  const row = await loadApplication(db, job.applicationId)
  if (!row || !awaitsDecision(row.status)) return markDone(db, job, now)
  let decision: Awaited<ReturnType<typeof decide>>
  try {
    decision = await decide(db, deps.scoring, row, now)
  } catch (error) {
    const waited = now.getTime() - row.updatedAt.getTime()
    if (error instanceof ScoringPendingError && waited < SCORING_PENDING_MAX_MS) {
      deps.logger.debug({ applicationId: row.id, jobId: job.id }, 'scoring pending')
      await markVerifying(db, row)
      return recheckLater(db, job, now)
    }
    deps.logger.warn(
      { applicationId: row.id, attempt: job.attempts, err: errorForLog(error) },
      'scoring failed',
    )
    // A refused request fails the same way every time, and a pending one has had its day: a person decides.
    const final = error instanceof ScoringRefusedError || error instanceof ScoringPendingError
    if (!final && job.attempts < JOB_MAX_ATTEMPTS) return retryLater(db, job, error, now)
    return settle(db, job, now, () => recordDecisionError(deps, row, errorSummary(error), now, job.id))
  }
  return settle(db, job, now, () => recordDecision(deps, row, decision, now, job.id))
}

/** Writes a result; a stale one (the application changed meanwhile) leaves the job due again at once. */
async function settle(db: Db, job: Job, now: Date, write: () => Promise<boolean>) {
  try {
    const written = await write()
    if (written) return
    const row = await loadApplication(db, job.applicationId)
    if (row && awaitsDecision(row.status))
      await db.update(lendingJob).set({ lockedUntil: null, runAt: now }).where(eq(lendingJob.id, job.id))
    else await markDone(db, job, now)
  } catch (error) {
    // Canceled meanwhile: the journey no longer waits for this result.
    if (error instanceof JourneyStepMismatch) return markDone(db, job, now)
    throw error
  }
}

async function runPayout(deps: WorkerDeps, job: Job) {
  const db = deps.database.db
  const now = deps.now()
  const [row] = await db
    .select({
      disbursement,
      accountNumber: disbursementEntry.accountNumber,
      provider: disbursementEntry.provider,
      institution: institution.name,
    })
    .from(disbursement)
    .innerJoin(disbursementEntry, eq(disbursementEntry.id, disbursement.entryId))
    .leftJoin(institution, eq(institution.id, disbursementEntry.institutionId))
    .where(eq(disbursement.applicationId, job.applicationId))
  if (row?.disbursement.status !== 'queued') return markDone(db, job, now)
  let answer: Awaited<ReturnType<AppDeps['payout']['send']>>
  try {
    answer = await deps.payout.send({
      disbursementId: row.disbursement.id,
      type: row.disbursement.type,
      accountNumber: row.accountNumber,
      institution: row.institution,
      provider: row.provider,
      amount: row.disbursement.amount,
    })
  } catch (error) {
    deps.logger.warn(
      { applicationId: job.applicationId, attempt: job.attempts, err: errorForLog(error) },
      'payout failed',
    )
    if (job.attempts < JOB_MAX_ATTEMPTS) return retryLater(db, job, error, now)
    answer = { status: 'failed', reference: '', reason: 'The payout provider is unavailable.' }
  }
  await recordPayout(deps, row.disbursement, answer, now, job.id)
  // Committed: tell the client now; a notice that fails here stays due for the worker.
  if (answer.status !== 'failed')
    await sendPayoutNoticeNow(deps, job.applicationId).catch((error) =>
      deps.logger.warn(
        { applicationId: job.applicationId, errorClass: error instanceof Error ? error.name : typeof error },
        'payout notice deferred',
      ),
    )
}

/** Runs every due job once (decide, then payout for the same application on a later call). Returns how many ran. */
export async function runDueJobs(deps: WorkerDeps, limit = 20): Promise<number> {
  const jobs = await claimJobs(deps.database.db, deps.now(), limit)
  for (const job of jobs) {
    try {
      if (job.kind === 'decide') await runDecide(deps, job)
      else if (job.kind === 'payout') await runPayout(deps, job)
      else if (job.kind === PAYOUT_NOTICE_JOB) await runPayoutNotice(deps, job)
    } catch (error) {
      deps.logger.error({ jobId: job.id, kind: job.kind, err: errorForLog(error) }, 'lending job failed')
      await retryLater(deps.database.db, job, error, deps.now())
    }
  }
  return jobs.length
}

/** Runs due jobs until none is left (tests and the worker's catch-up). */
export async function drainJobs(deps: WorkerDeps, rounds = 10): Promise<number> {
  let total = 0
  for (let i = 0; i < rounds; i++) {
    const ran = await runDueJobs(deps)
    total += ran
    if (!ran) break
  }
  return total
}

/** Polls the job table every `intervalMs`; the returned function stops it and waits for the current round. */
export function startLendingWorker(deps: WorkerDeps, intervalMs = 1000): () => Promise<void> {
  let current: Promise<unknown> = Promise.resolve()
  let stopped = false
  const timer = setInterval(() => {
    if (stopped) return
    current = current.then(() =>
      stopped
        ? 0
        : drainJobs(deps).catch((error) => deps.logger.error({ err: errorForLog(error) }, 'lending worker')),
    )
  }, intervalMs)
  timer.unref()
  return async () => {
    stopped = true
    clearInterval(timer)
    await current
  }
}
