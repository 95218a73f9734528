/** The outbox as back-office users and QA read it: newest first, optionally for one recipient. */
import { count, desc, eq } from 'drizzle-orm'
import type { OutboxMessage } from '../../../domain/contract/back-office'
import type { DbOrTx } from '../../db/client'
import { outboxMessage } from '../../db/schema-identity'

export interface OutboxQuery {
  recipient?: string
  page: number
  perPage: number
}

export async function listOutbox(
  db: DbOrTx,
  query: OutboxQuery,
): Promise<{ items: OutboxMessage[]; total: number }> {
  const where = query.recipient ? eq(outboxMessage.recipient, query.recipient) : undefined
  const [total] = await db.select({ n: count() }).from(outboxMessage).where(where)
  const rows = await db
    .select()
    .from(outboxMessage)
    .where(where)
    .orderBy(desc(outboxMessage.createdAt), desc(outboxMessage.id))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
  const items = rows.map((m) => ({
    id: m.id,
    channel: m.channel,
    recipient: m.recipient,
    subject: m.subject,
    body: m.body,
    purpose: m.purpose,
    provider: m.provider,
    status: m.status,
    createdAt: m.createdAt.toISOString(),
  }))
  return { items, total: total?.n ?? 0 }
}
