/**
 * Documents outside the signed pair (spec section 7, issue 22 item 5): domain/contract/documents.ts over
 * server/services/lending/extra-documents.ts.
 */
import { downloadTemporaryDocument, getAnonymousDocument } from '../../../domain/contract/documents'
import { anonymousTerms, temporaryDocument } from '../../services/lending/extra-documents'
import { binary } from '../envelope'
import { clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const documentRoutes: AnyRoute[] = [
  implement(getAnonymousDocument, async (c, { body }) => {
    const bytes = await anonymousTerms(db(c), deps(c).now())
    return binary(c, bytes as Uint8Array<ArrayBuffer>, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${body.id}.pdf"`,
    })
  }),

  implement(downloadTemporaryDocument, async (c, { params }) => {
    const doc = await temporaryDocument(db(c), clientIdOf(c), params.id)
    return binary(c, doc.content as Uint8Array<ArrayBuffer>, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${doc.type}-${doc.applicationId}-draft.pdf"`,
      'cache-control': 'no-store',
      'x-content-sha256': doc.sha256,
    })
  }),
]
