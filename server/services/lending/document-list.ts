/** GET /private/client/document/list: the client's loan documents, newest first, one page at a time. */
import { count, desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { loanDocument } from '../../db/schema-lending'

export async function documentsPage(db: DbOrTx, clientId: number, q: { page: number; perPage: number }) {
  const [total] = await db
    .select({ n: count() })
    .from(loanDocument)
    .where(eq(loanDocument.clientId, clientId))
  const items = await db
    .select({
      id: loanDocument.id,
      applicationId: loanDocument.applicationId,
      type: loanDocument.type,
      sha256: loanDocument.sha256,
      size: loanDocument.size,
      applicationVersion: loanDocument.applicationVersion,
      renderedAt: loanDocument.renderedAt,
      signedAt: loanDocument.signedAt,
    })
    .from(loanDocument)
    .where(eq(loanDocument.clientId, clientId))
    .orderBy(desc(loanDocument.renderedAt), desc(loanDocument.id))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
  return { items, total: total?.n ?? 0 }
}
