/**
 * The back office's review queue (issue 19 item 4, docs/decisions/0036-review-queue.md): applications waiting for
 * a person, manual verification (14) and decision error (401), oldest first (the queue is worked in order), a
 * page at a time and filtered, each with who is asking, for what, the latest decision's reasons and rules (why
 * the engine sent it to a person), who works on it and the first signature of a four-eyes approval.
 * Assignment is here; the decision itself is backOfficeDecision (decision.ts).
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  type SQL,
} from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  needsFourEyes,
  REVIEW_CONFIG_KEY,
  type ReviewConfig,
  type ReviewFilters,
  type ReviewQueueItem,
  reviewConfigSchema,
} from '../../../domain/back-office/review'
import { mayDo } from '../../../domain/back-office/roles'
import { conflict, DomainError, notFound } from '../../../domain/errors'
import { addDays, manilaDayStart } from '../../../domain/pricing/manila-date'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { backOfficeUser, client } from '../../db/schema-identity'
import { clientProfile } from '../../db/schema-journey'
import { application, applicationDecision, applicationReview } from '../../db/schema-lending'
import { recordChange } from '../audit/audit'
import { readConfig } from '../config'
import { AppStatus } from './applications'

export const REVIEW_STATUSES = [AppStatus.manualVerification, AppStatus.decisionError] as const

const waiting = inArray(application.status, [...REVIEW_STATUSES])

/** The four-eyes threshold, from configuration key 'review' (validated: a bad row refuses, never approves). */
export const reviewConfig = (db: DbOrTx): Promise<ReviewConfig> =>
  readConfig(db, REVIEW_CONFIG_KEY, reviewConfigSchema)

const assignee = alias(backOfficeUser, 'assignee')
const firstApprover = alias(backOfficeUser, 'first_approver')

/** A first signature counts only for the version of the application it was given on. */
const validFirstApproval = and(
  isNotNull(applicationReview.firstApprovedBy),
  eq(applicationReview.firstApprovedVersion, application.version),
)

function filterConditions(f: ReviewFilters, userId: number, config: ReviewConfig): SQL[] {
  const where: SQL[] = [waiting]
  if (f.kind === 'manual') where.push(eq(application.status, AppStatus.manualVerification))
  if (f.kind === 'error') where.push(eq(application.status, AppStatus.decisionError))
  if (f.kind === 'second')
    where.push(validFirstApproval!, gt(application.principalAmount, config.fourEyesAboveCentavos))
  if (f.assignee === 'me') where.push(eq(applicationReview.assignedTo, userId))
  if (f.assignee === 'unassigned') where.push(isNull(applicationReview.assignedTo))
  if (f.minAmount !== undefined) where.push(gte(application.principalAmount, f.minAmount))
  if (f.maxAmount !== undefined) where.push(lte(application.principalAmount, f.maxAmount))
  if (f.from) where.push(gte(application.createdAt, manilaDayStart(f.from)))
  if (f.to) where.push(lt(application.createdAt, manilaDayStart(addDays(f.to, 1))))
  return where
}

/** One page of the applications waiting for review that match `filters`, oldest first, and how many match. */
export async function reviewQueuePage(
  db: DbOrTx,
  query: ReviewFilters & { page: number; perPage: number },
  userId: number,
  config: ReviewConfig,
): Promise<{ items: ReviewQueueItem[]; total: number }> {
  const where = and(...filterConditions(query, userId, config))
  const [total] = await db
    .select({ n: count() })
    .from(application)
    .leftJoin(applicationReview, eq(applicationReview.applicationId, application.id))
    .where(where)
  const items = await reviewItems(db, where, config, query)
  return { items, total: total?.n ?? 0 }
}

/** One application of the queue as the queue shows it (null when it is not waiting any more). */
export async function reviewQueueItem(
  db: DbOrTx,
  applicationId: number,
  config: ReviewConfig,
): Promise<ReviewQueueItem | null> {
  const [item] = await reviewItems(db, and(waiting, eq(application.id, applicationId)), config, {
    page: 1,
    perPage: 1,
  })
  return item ?? null
}

async function reviewItems(
  db: DbOrTx,
  where: SQL | undefined,
  config: ReviewConfig,
  page: { page: number; perPage: number },
): Promise<ReviewQueueItem[]> {
  const rows = await db
    .select({
      id: application.id,
      status: application.status,
      clientId: application.clientId,
      amount: application.principalAmount,
      term: application.term,
      version: application.version,
      createdAt: application.createdAt,
      phone: client.phone,
      firstName: clientProfile.firstName,
      middleName: clientProfile.middleName,
      lastName: clientProfile.lastName,
      assignedTo: applicationReview.assignedTo,
      assignedAt: applicationReview.assignedAt,
      assigneeName: assignee.name,
      firstApprovedBy: applicationReview.firstApprovedBy,
      firstApprovedAt: applicationReview.firstApprovedAt,
      firstApprovedVersion: applicationReview.firstApprovedVersion,
      firstApproverName: firstApprover.name,
    })
    .from(application)
    .innerJoin(client, eq(client.id, application.clientId))
    .leftJoin(clientProfile, eq(clientProfile.clientId, application.clientId))
    .leftJoin(applicationReview, eq(applicationReview.applicationId, application.id))
    .leftJoin(assignee, eq(assignee.id, applicationReview.assignedTo))
    .leftJoin(firstApprover, eq(firstApprover.id, applicationReview.firstApprovedBy))
    .where(where)
    .orderBy(asc(application.createdAt), asc(application.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
  if (rows.length === 0) return []
  const decisions = await db
    .select()
    .from(applicationDecision)
    .where(
      inArray(
        applicationDecision.applicationId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(desc(applicationDecision.createdAt), desc(applicationDecision.id))
  const latest = new Map<number, (typeof decisions)[number]>()
  for (const d of decisions) if (!latest.has(d.applicationId)) latest.set(d.applicationId, d)
  return rows.map((r) => {
    const d = latest.get(r.id)
    const fourEyes = needsFourEyes(r.amount, config)
    const firstValid =
      fourEyes && r.firstApprovedBy !== null && r.firstApprovedAt && r.firstApprovedVersion === r.version
    return {
      id: r.id,
      status: r.status,
      clientId: r.clientId,
      clientName: [r.firstName, r.middleName, r.lastName].filter(Boolean).join(' '),
      phone: r.phone,
      amount: r.amount,
      term: r.term,
      createdAt: r.createdAt.toISOString(),
      decision: d
        ? {
            outcome: d.outcome,
            reasons: d.reasons as string[],
            rules: (d.rules as { rule: string; passed: boolean }[]).map(({ rule, passed }) => ({
              rule,
              passed,
            })),
            createdAt: d.createdAt.toISOString(),
          }
        : null,
      assignment:
        r.assignedTo !== null && r.assignedAt
          ? { to: { id: r.assignedTo, name: r.assigneeName ?? '' }, at: r.assignedAt.toISOString() }
          : null,
      fourEyes,
      firstApproval:
        firstValid && r.firstApprovedAt
          ? {
              by: { id: r.firstApprovedBy!, name: r.firstApproverName ?? '' },
              at: r.firstApprovedAt.toISOString(),
            }
          : null,
    }
  })
}

// ---------------------------------------------------------------------------------------------------------
// Assignment

export type ReviewRow = typeof applicationReview.$inferSelect

/** The review row of an application, locked for this transaction (created empty on first use). */
export async function lockReview(tx: Tx, applicationId: number, now: Date): Promise<ReviewRow> {
  await tx.insert(applicationReview).values({ applicationId, updatedAt: now }).onConflictDoNothing()
  const [row] = await tx
    .select()
    .from(applicationReview)
    .where(eq(applicationReview.applicationId, applicationId))
    .for('update')
  if (!row) throw new Error('review row vanished inside its transaction')
  return row
}

/** What the audit trail keeps of a review row: the assignment and the first signature, ids only. */
export const reviewSnapshot = (r: ReviewRow | null) =>
  r && {
    assignedTo: r.assignedTo,
    assignedAt: r.assignedAt,
    firstApprovedBy: r.firstApprovedBy,
    firstApprovedAt: r.firstApprovedAt,
    firstApprovedVersion: r.firstApprovedVersion,
  }

export interface AssignInput {
  applicationId: number
  /** Who asks, and with which roles. */
  actor: { id: number; roles: readonly string[] }
  /** undefined: oneself; null: nobody; a number: that user (an administrator only). */
  userId: number | null | undefined
}

/**
 * POST /private/back-office/application/{id}/assign. Anyone allowed to assign takes an application nobody works
 * on, or releases their own; only an administrator (who may manage users) gives it to someone else, or takes or
 * releases one someone else works on. The one who receives it must be an active user allowed to decide.
 */
export async function assignReview(db: Db, input: AssignInput, now: Date): Promise<void> {
  const target = input.userId === undefined ? input.actor.id : input.userId
  const administrator = mayDo(input.actor.roles, 'users.manage')
  if (target !== null && target !== input.actor.id && !administrator)
    throw new DomainError(
      'forbidden',
      'assignOthers',
      'Only an administrator may assign an application to someone else.',
    )
  if (target !== null && target !== input.actor.id) {
    const [user] = await db
      .select({ active: backOfficeUser.active, roles: backOfficeUser.roles })
      .from(backOfficeUser)
      .where(eq(backOfficeUser.id, target))
    if (!user?.active || !mayDo(user.roles, 'applications.decide'))
      throw conflict(
        'assigneeNotUnderwriter',
        'The application can be assigned only to an active user allowed to decide applications.',
        [{ propertyPath: 'userId', message: 'Not an active user allowed to decide applications.' }],
      )
  }
  await db.transaction(async (tx) => {
    const [app] = await tx
      .select({ id: application.id, status: application.status, clientId: application.clientId })
      .from(application)
      .where(eq(application.id, input.applicationId))
      .for('update')
    if (!app) throw notFound('Application')
    if (!(REVIEW_STATUSES as readonly number[]).includes(app.status))
      throw conflict('applicationStatus', 'Only an application waiting in the review queue can be assigned.')
    const before = await lockReview(tx, app.id, now)
    if (before.assignedTo !== null && before.assignedTo !== input.actor.id && !administrator)
      throw new DomainError(
        'forbidden',
        'assignOthers',
        'Someone else is working on this application: only an administrator may take it from them or release it.',
      )
    if (before.assignedTo === target) return
    const [after] = await tx
      .update(applicationReview)
      .set({ assignedTo: target, assignedAt: target === null ? null : now, updatedAt: now })
      .where(eq(applicationReview.applicationId, app.id))
      .returning()
    await recordChange(tx, {
      entity: 'application',
      entityId: app.id,
      clientId: app.clientId,
      before: { review: reviewSnapshot(before) },
      after: { review: reviewSnapshot(after ?? null) },
    })
  })
}
