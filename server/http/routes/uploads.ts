/**
 * Uploads (spec section 7, Documents): domain/contract/uploads.ts over server/services/journey/uploads.ts. This
 * file reads the multipart body (its declared length against the configured limit first) and the fields the
 * contract cannot describe; the files are checked and kept by the service.
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import type { AnyContract } from '../../../domain/contract/define'
import { getDocumentUploadConfig } from '../../../domain/contract/journey'
import {
  deleteIdPhoto,
  downloadIdPhoto,
  finishIdDocument,
  uploadBankStatement,
  uploadClientDocument,
  uploadDocument,
  uploadIdPhoto,
} from '../../../domain/contract/uploads'
import { invalid } from '../../../domain/errors'
import {
  clientDocumentTypes,
  idDocumentSides,
  journeyMessageKeys as k,
  makeIdentityDocumentSchema,
} from '../../../domain/journey/fields'
import { imageMimeTypes, uploadMimeTypes } from '../../../domain/journey/uploads'
import {
  assertContentLength,
  checkFile,
  checkImageAge,
  deleteIdPhoto as deletePhoto,
  extensionOf,
  finishIdDocument as finishDocument,
  readIdPhoto,
  readUploadConfig,
  saveIdPhoto,
  saveSupportingDocument,
  type UploadCategory,
  uploadConfigFor,
} from '../../services/journey/uploads'
import type { AppEnv } from '../context'
import { binary, ok } from '../envelope'
import { callerOf, clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement, toViolations } from '../route'

const sideSchema = v.picklist(idDocumentSides, k.wrongFormat)

async function multipart(c: Context<AppEnv>) {
  const config = await readUploadConfig(db(c))
  assertContentLength(c.req.header('content-length'), config)
  const form = await c.req.parseBody().catch(() => {
    throw invalid([{ propertyPath: 'file', message: k.required }])
  })
  return { config, form }
}

/**
 * A supporting document: any accepted format, no age rule (they are scans of paper), no journey step. The type
 * is one of `kinds`, or any lower-case word when the category has no list.
 */
const documentUpload = (contract: AnyContract, category: UploadCategory, kinds?: readonly string[]) =>
  implement(contract, async (c) => {
    const { config, form } = await multipart(c)
    const rawType = typeof form.type === 'string' ? form.type : category
    const kind = kinds
      ? kinds.includes(rawType)
        ? rawType
        : null
      : /^[a-z_]{1,50}$/.test(rawType)
        ? rawType
        : null
    if (!kind) throw invalid([{ propertyPath: 'type', message: k.wrongFormat }])
    const checked = await checkFile(form.file, config, uploadMimeTypes)
    const saved = await saveSupportingDocument(deps(c), { clientId: clientIdOf(c), category, kind, checked })
    return ok(c, saved, 201)
  })

export const uploadRoutes: AnyRoute[] = [
  implement(getDocumentUploadConfig, async (c) => ok(c, await uploadConfigFor(db(c), clientIdOf(c)))),

  implement(uploadIdPhoto, async (c) => {
    const { config, form } = await multipart(c)
    const side = v.safeParse(sideSchema, form.type)
    if (!side.success) throw invalid([{ propertyPath: 'type', message: k.wrongFormat }])
    const at = deps(c).now()
    const checked = await checkFile(form.file, config, imageMimeTypes)
    const capturedAt = checkImageAge(form.capturedAt, config, at)
    const saved = await saveIdPhoto(
      deps(c),
      { clientId: clientIdOf(c), side: side.output, checked, capturedAt, config, at },
      callerOf(c),
    )
    return ok(c, saved, 201)
  }),

  implement(downloadIdPhoto, async (c, { params }) => {
    const photo = await readIdPhoto(deps(c), clientIdOf(c), params.type)
    return binary(c, new Uint8Array(photo.bytes), {
      'content-type': photo.mime,
      'content-disposition': `attachment; filename="${params.type}.${extensionOf(photo.mime)}"`,
      'cache-control': 'private, no-store',
    })
  }),

  implement(deleteIdPhoto, async (c, { params }) =>
    ok(c, await deletePhoto(deps(c), clientIdOf(c), params.type, callerOf(c))),
  ),

  implement(finishIdDocument, async (c, { body }) => {
    // The expiry window is counted on the server's clock.
    const dated = v.safeParse(makeIdentityDocumentSchema({ now: deps(c).now }), body)
    if (!dated.success) throw invalid(toViolations(dated.issues))
    return ok(c, await finishDocument(deps(c), clientIdOf(c), body, callerOf(c)))
  }),

  documentUpload(uploadDocument, 'document'),
  documentUpload(uploadBankStatement, 'bank_statement'),
  documentUpload(uploadClientDocument, 'client_document', clientDocumentTypes),
]
