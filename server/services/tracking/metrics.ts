/**
 * The browser's behavioural tracking events (spec section 4; docs/decisions/0042): appended, never changed, only
 * with the device-data consent, at most METRICS_MAX_BATCHES batches per client in METRICS_WINDOW_MINUTES, and
 * purged after RETENTION_DAYS with the fraud tools' sessions.
 */
import { lt } from 'drizzle-orm'
import { METRICS_MAX_BATCHES, METRICS_WINDOW_MINUTES, type MetricsBatch } from '../../../domain/tracking'
import type { DbOrTx } from '../../db/client'
import { behaviourEvent, fraudToolSession } from '../../db/schema-tracking'
import { bucketFor, limitRequests } from '../identity/throttle'
import { assertDeviceDataConsent } from './consent'

/** Device and usage data are kept 12 months (the privacy policy, section 6), then deleted. */
export const RETENTION_DAYS = 365

export async function recordMetrics(db: DbOrTx, clientId: number, batch: MetricsBatch, now: Date) {
  await assertDeviceDataConsent(db, clientId)
  await limitRequests(
    db,
    [{ bucket: bucketFor('metrics:client', String(clientId)), max: METRICS_MAX_BATCHES }],
    METRICS_WINDOW_MINUTES,
    now,
  )
  await db.insert(behaviourEvent).values(
    batch.events.map((event) => ({
      clientId,
      sessionId: batch.sessionId,
      type: event.type,
      pageState: event.state ?? null,
      path: event.path,
      seq: event.seq,
      occurredAt: new Date(event.at),
      receivedAt: now,
    })),
  )
  return { accepted: batch.events.length }
}

/** Deletes behavioural events and fraud-tool sessions older than the retention period; answers how many. */
export async function purgeBehaviouralData(db: DbOrTx, now: Date) {
  const before = new Date(now.getTime() - RETENTION_DAYS * 86_400_000)
  const events = await db
    .delete(behaviourEvent)
    .where(lt(behaviourEvent.receivedAt, before))
    .returning({ id: behaviourEvent.id })
  const sessions = await db
    .delete(fraudToolSession)
    .where(lt(fraudToolSession.createdAt, before))
    .returning({ id: fraudToolSession.id })
  return { events: events.length, sessions: sessions.length }
}
