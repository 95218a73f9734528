/**
 * Uploads (spec section 7, Documents): identity-document photos during document_upload, and supporting
 * documents (payslips, bank statements, certificates) at any time. Bodies are multipart/form-data with a `file`
 * field; the format is recognised from the bytes (JPEG, PNG, PDF), never from the name or content type. Files are
 * served back only to their owner; for anyone else they do not exist (404).
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import {
  clientDocumentTypes,
  idDocumentSides,
  identityDocumentSchema,
  journeyMessageKeys as k,
  makeIdentityDocumentSchema,
} from '../../../domain/journey/fields'
import { imageMimeTypes, uploadMimeTypes } from '../../../domain/journey/uploads'
import { journeyTransaction } from '../../services/journey/journey'
import {
  assertContentLength,
  type CheckedFile,
  checkFile,
  checkImageAge,
  extensionOf,
  idPhotoUploads,
  liveIdPhoto,
  readStored,
  readUploadConfig,
  recordFile,
  removeStored,
  replaceSupportingDocument,
  retireIdPhoto,
  storeBytes,
  type UploadCategory,
  writeIdentityDocument,
} from '../../services/journey/uploads'
import type { AppEnv } from '../context'
import { binary, ok } from '../envelope'
import { callerOf, clientIdOf, db, deps } from '../request'
import { type AnyRoute, defineRoute, toViolations } from '../route'

const sideParams = v.object({ type: v.picklist(idDocumentSides, k.wrongFormat) })

/**
 * Upload routes take multipart bodies up to the default 10 MB file plus room for the multipart envelope; the
 * configured maxFileSize (assertContentLength) may only lower it.
 */
const multipartBody = { bodyType: 'multipart', bodyLimit: 10 * 1024 * 1024 + 64 * 1024 } as const

async function multipart(c: Context<AppEnv>) {
  const config = await readUploadConfig(db(c))
  assertContentLength(c.req.header('content-length'), config)
  const form = await c.req.parseBody().catch(() => {
    throw invalid([{ propertyPath: 'file', message: k.required }])
  })
  return { config, form }
}

const uploadConfigSchema = v.object({
  maxImageAge: v.number(),
  maxAttempts: v.number(),
  maxFileSize: v.number(),
  attempt: v.number(),
})

/** A supporting document: any accepted format, no age rule (they are scans of paper), no journey step. */
const documentUpload = (path: string, summary: string, category: UploadCategory, kinds?: readonly string[]) =>
  defineRoute({
    method: 'post',
    path,
    summary,
    tags: ['documents'],
    access: 'client',
    ...multipartBody,
    handler: async (c) => {
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
      const id = clientIdOf(c)
      const { uploadsDir, now } = deps(c)
      const storageName = await storeBytes(uploadsDir, checked.bytes)
      let saved: Awaited<ReturnType<typeof replaceSupportingDocument>>
      try {
        saved = await db(c).transaction((tx) =>
          replaceSupportingDocument(tx, {
            clientId: id,
            category,
            kind,
            checked,
            storageName,
            capturedAt: null,
            now: now(),
          }),
        )
      } catch (error) {
        await removeStored(uploadsDir, storageName)
        throw error
      }
      // The replaced file goes once the new one is committed: a failed upload leaves the old one in place.
      await removeStored(uploadsDir, saved.previous)
      const { row } = saved
      return ok(
        c,
        { id: row.id, type: row.kind, mime: row.mime, size: row.size, replaced: saved.previous !== null },
        201,
      )
    },
  })

export const uploadRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/private/client/flow/document-upload-config',
    summary:
      'Upload limits: image age in seconds (0 unlimited), attempts (0 unlimited), size; the next attempt',
    tags: ['documents'],
    access: 'client',
    response: uploadConfigSchema,
    handler: async (c) => {
      const config = await readUploadConfig(db(c))
      return ok(c, { ...config, attempt: (await idPhotoUploads(db(c), clientIdOf(c))) + 1 })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/id-document/upload',
    summary:
      'During document_upload: a photo of the identity document (type front | back | selfie; JPEG or PNG; capturedAt)',
    tags: ['documents'],
    access: 'client',
    ...multipartBody,
    handler: async (c) => {
      const { config, form } = await multipart(c)
      const side = v.safeParse(sideParams, { type: form.type })
      if (!side.success) throw invalid([{ propertyPath: 'type', message: k.wrongFormat }])
      const { uploadsDir, now } = deps(c)
      const at = now()
      const checked: CheckedFile = await checkFile(form.file, config, imageMimeTypes)
      const capturedAt = checkImageAge(form.capturedAt, config, at)
      const id = clientIdOf(c)
      const storageName = await storeBytes(uploadsDir, checked.bytes)
      let change: Awaited<ReturnType<typeof journeyTransaction<{ previous: string | null; attempt: number }>>>
      try {
        change = await journeyTransaction(
          deps(c),
          id,
          { type: 'CHANGE_ID_PHOTO' },
          callerOf(c),
          at,
          async (tx) => {
            // Counted under the journey lock, so two parallel uploads cannot both take the last attempt.
            const used = await idPhotoUploads(tx, id)
            if (config.maxAttempts > 0 && used >= config.maxAttempts)
              throw new DomainError('refused', 'uploadMetric', 'No upload attempts are left.', [
                { propertyPath: 'file', message: 'uploadMetric' },
              ])
            const previous = await retireIdPhoto(tx, id, side.output.type, at)
            await recordFile(tx, {
              clientId: id,
              category: 'id_document',
              kind: side.output.type,
              checked,
              storageName,
              capturedAt,
              now: at,
            })
            return { previous, attempt: used + 1 }
          },
        )
      } catch (error) {
        await removeStored(uploadsDir, storageName)
        throw error
      }
      await removeStored(uploadsDir, change.result.previous)
      return ok(
        c,
        {
          type: side.output.type,
          mime: checked.mime,
          size: checked.bytes.byteLength,
          attempt: change.result.attempt,
          flow: change.flow,
        },
        201,
      )
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/id-document/download/:type',
    summary: "The client's own identity-document photo of one side (binary)",
    tags: ['documents'],
    access: 'client',
    params: sideParams,
    handler: async (c, { params }) => {
      const row = await liveIdPhoto(db(c), clientIdOf(c), params.type)
      if (!row) throw notFound('Document')
      const bytes = await readStored(deps(c).uploadsDir, row.storageName)
      return binary(c, new Uint8Array(bytes), {
        'content-type': row.mime,
        'content-disposition': `attachment; filename="${params.type}.${extensionOf(row.mime)}"`,
        'cache-control': 'private, no-store',
      })
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/private/client/id-document/delete/:type',
    summary: 'During document_upload: delete the photo of one side',
    tags: ['documents'],
    access: 'client',
    params: sideParams,
    handler: async (c, { params }) => {
      const id = clientIdOf(c)
      const at = deps(c).now()
      const change = await journeyTransaction(
        deps(c),
        id,
        { type: 'CHANGE_ID_PHOTO' },
        callerOf(c),
        at,
        async (tx) => {
          const name = await retireIdPhoto(tx, id, params.type, at)
          if (!name) throw notFound('Document')
          return name
        },
      )
      await removeStored(deps(c).uploadsDir, change.result)
      return ok(c, { deleted: true, flow: change.flow })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/id-document/finish',
    summary: 'Completes document_upload: the document type, number and expiry, with the front photo uploaded',
    tags: ['documents'],
    access: 'client',
    body: identityDocumentSchema,
    handler: async (c, { body }) => {
      const id = clientIdOf(c)
      const at = deps(c).now()
      // The expiry window is counted on the server's clock.
      const dated = v.safeParse(makeIdentityDocumentSchema({ now: deps(c).now }), body)
      if (!dated.success) throw invalid(toViolations(dated.issues))
      const change = await journeyTransaction(
        deps(c),
        id,
        { type: 'FINISH_ID_DOCUMENT' },
        callerOf(c),
        at,
        async (tx) => {
          if (!(await liveIdPhoto(tx, id, 'front')))
            throw new DomainError(
              'refused',
              'idPhotoMissing',
              'Upload a photo of the front of the document first.',
              [{ propertyPath: 'front', message: k.required }],
            )
          await writeIdentityDocument(tx, id, body, at)
        },
      )
      return ok(c, { flow: change.flow })
    },
  }),

  documentUpload(
    '/private/client/document/upload',
    'A supporting document (type: lower-case word, e.g. payslip); JPEG, PNG or PDF',
    'document',
  ),
  documentUpload(
    '/private/client/bank-statement/upload',
    'A bank statement (an alternative to linking a bank); JPEG, PNG or PDF',
    'bank_statement',
  ),
  documentUpload(
    '/private/client/client-document',
    'A client document: type employment_certificate or comprehensive_check_up_result; JPEG, PNG or PDF',
    'client_document',
    clientDocumentTypes,
  ),
]
