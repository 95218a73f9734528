/**
 * The back office's client desk (issue 19, item 3): search, one client's file in bounded parts, a document's
 * PDF, an uploaded file (each view audited), and the support and collections actions. Logs carry ids only.
 */

import type { Context } from 'hono'
import * as desk from '../../../domain/contract/clients'
import { notFound } from '../../../domain/errors'
import { recordRead } from '../../services/audit/audit'
import {
  clientContacts,
  clientDesk,
  clientDocument,
  clientLoans,
  clientMessages,
  clientRow,
  clientTimeline,
  clientUpload,
  searchClients,
} from '../../services/back-office/clients'
import {
  pendingCode,
  recordCodeResent,
  recordPromise,
  setBlacklisted,
} from '../../services/back-office/clients-actions'
import { extensionOf } from '../../services/journey/uploads'
import { deliverCode } from '../code-delivery'
import type { AppEnv } from '../context'
import { binary, ok, okPage } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, auditActorOf, implement } from '../route'

async function existing(c: Context<AppEnv>, id: number) {
  const row = await clientRow(db(c), id)
  if (!row) throw notFound('Client')
  return row
}

export const clientDeskRoutes: AnyRoute[] = [
  implement(desk.searchClients, async (c, { query }) => {
    const { page, perPage } = query
    const { items, total } = await searchClients(db(c), query.search ?? '', { page, perPage })
    return okPage(c, items, { page, perPage, total })
  }),

  implement(desk.getClientDesk, async (c, { params }) =>
    ok(c, await clientDesk(db(c), await existing(c, params.id))),
  ),

  implement(desk.getClientTimeline, async (c, { params, query }) => {
    await existing(c, params.id)
    const { items, total } = await clientTimeline(db(c), params.id, query)
    return okPage(c, items, { ...query, total })
  }),

  implement(desk.getClientLoans, async (c, { params }) => {
    await existing(c, params.id)
    return ok(c, await clientLoans(db(c), params.id))
  }),

  implement(desk.getClientMessages, async (c, { params, query }) => {
    const row = await existing(c, params.id)
    const { items, total } = await clientMessages(db(c), row, query)
    return okPage(c, items, { ...query, total })
  }),

  implement(desk.getClientContacts, async (c, { params, query }) => {
    await existing(c, params.id)
    const { items, total } = await clientContacts(db(c), params.id, query)
    return okPage(c, items, { ...query, total })
  }),

  implement(desk.downloadClientDocument, async (c, { params }) => {
    const doc = await clientDocument(db(c), params.id, params.kind, params.documentId)
    if (!doc) throw notFound('Document')
    return binary(c, doc.content as Uint8Array<ArrayBuffer>, {
      'content-type': 'application/pdf',
      // inline: the desk previews it in the browser's own viewer.
      'content-disposition': `inline; filename="${doc.type}-${params.documentId}.pdf"`,
      'x-content-sha256': doc.sha256,
    })
  }),

  implement(desk.viewClientUpload, async (c, { params }) => {
    const { uploadsDir, logger } = deps(c)
    const file = await clientUpload(db(c), uploadsDir, params.id, params.fileId)
    if (!file) throw notFound('File')
    const principal = c.get('principal')
    // Recorded before the bytes go out: a view the trail could not record is not served. An ID image is
    // sensitive personal information (RA 10173 sec. 3(l)); the trail's outcomes are done, failed and refused,
    // so a view is a `done` entry of its GET whose `after` says `viewed`.
    await recordRead(db(c), auditActorOf(c, desk.viewClientUpload, { params }), {
      entity: 'uploaded_file',
      entityId: file.id,
      clientId: params.id,
      after: { viewed: { category: file.category, kind: file.kind, mime: file.mime, size: file.size } },
    })
    logger.info(
      { clientId: params.id, userId: principal.id, fileId: file.id, event: 'client.upload_viewed' },
      'uploaded file viewed by the back office',
    )
    return binary(c, file.bytes as Uint8Array<ArrayBuffer>, {
      'content-type': file.mime,
      'content-disposition': `inline; filename="${file.category}-${file.id}.${extensionOf(file.mime)}"`,
      // Personal data: never kept by a shared cache, nor by the browser's own.
      'cache-control': 'private, no-store',
    })
  }),

  implement(desk.setClientBlacklisted, async (c, { params, body }) => {
    const { logger, now } = deps(c)
    const result = await setBlacklisted(db(c), params.id, body.blacklisted, now())
    logger.info(
      {
        clientId: params.id,
        userId: c.get('principal').id,
        status: result.status,
        event: 'client.blacklist',
      },
      'client blacklist changed by the back office',
    )
    return ok(c, result)
  }),

  implement(desk.resendClientCode, async (c, { params }) => {
    const { logger, now } = deps(c)
    const row = await existing(c, params.id)
    const pending = await pendingCode(db(c), row, now())
    // The code service's own limits apply (a minute between codes, a day's budget): a 429 when reached.
    const sent = await deliverCode(c, pending)
    await recordCodeResent(db(c), row.id, { purpose: pending.purpose, channel: pending.channel })
    logger.info(
      {
        clientId: row.id,
        userId: c.get('principal').id,
        purpose: pending.purpose,
        event: 'client.code_resent',
      },
      'code sent again by the back office',
    )
    return ok(c, {
      purpose: pending.purpose,
      channel: pending.channel,
      nextCodeAt: sent.nextCodeAt.toISOString(),
    })
  }),

  implement(desk.recordPromiseToPay, async (c, { params, body }) => {
    const { logger, now } = deps(c)
    const userId = c.get('principal').id
    const promise = await recordPromise(db(c), params.id, body, userId, now())
    logger.info(
      { clientId: params.id, userId, promiseId: promise.id, event: 'client.promise_to_pay' },
      'promise to pay recorded',
    )
    return ok(c, promise, 201)
  }),
]
