/**
 * The back office's review queue: applications waiting for a person, manual verification (14) and decision
 * error (401), oldest first, each with who is asking, for what, and the latest decision's reasons and rules
 * (why the engine sent it to a person). The decision itself is backOfficeDecision (decision.ts).
 */
import { asc, count, desc, eq, inArray } from 'drizzle-orm'
import type { ReviewItem } from '../../../domain/back-office-decision'
import type { DbOrTx } from '../../db/client'
import { client } from '../../db/schema-identity'
import { clientProfile } from '../../db/schema-journey'
import { application, applicationDecision } from '../../db/schema-lending'
import { AppStatus } from './applications'

export const REVIEW_STATUSES = [AppStatus.manualVerification, AppStatus.decisionError] as const

const waiting = inArray(application.status, [...REVIEW_STATUSES])

/** One page of the applications waiting for review, oldest first (the queue is worked in order), and how many wait. */
export async function reviewQueuePage(
  db: DbOrTx,
  page: { page: number; perPage: number },
): Promise<{ items: ReviewItem[]; total: number }> {
  const [total] = await db.select({ n: count() }).from(application).where(waiting)
  return { items: await reviewItems(db, page), total: total?.n ?? 0 }
}

/** At most `limit` applications waiting for review, oldest first. */
export const reviewQueue = (db: DbOrTx, limit = 100) => reviewItems(db, { page: 1, perPage: limit })

async function reviewItems(db: DbOrTx, page: { page: number; perPage: number }): Promise<ReviewItem[]> {
  const rows = await db
    .select({
      id: application.id,
      status: application.status,
      clientId: application.clientId,
      amount: application.principalAmount,
      term: application.term,
      createdAt: application.createdAt,
      phone: client.phone,
      firstName: clientProfile.firstName,
      middleName: clientProfile.middleName,
      lastName: clientProfile.lastName,
    })
    .from(application)
    .innerJoin(client, eq(client.id, application.clientId))
    .leftJoin(clientProfile, eq(clientProfile.clientId, application.clientId))
    .where(waiting)
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
    }
  })
}
