/**
 * Uploads (spec section 7, Documents): identity-document photos during document_upload, and supporting
 * documents (payslips, bank statements, certificates) at any time. An upload's body is multipart/form-data with
 * a `file` field (and `type`, and a photo's `capturedAt`); the format is recognised from the bytes (JPEG, PNG,
 * PDF), never from the name or content type. Files are served back only to their owner.
 */
import * as v from 'valibot'
import { idDocumentSides, identityDocumentSchema, journeyMessageKeys as k } from '../journey/fields'
import { uploadMimeTypes } from '../journey/uploads'
import { defineContract } from './define'
import { flowSchema, stepAnswerSchema } from './journey-answers'

/**
 * An upload takes up to the default 10 MB file plus room for the multipart envelope; the configured
 * maxFileSize (config `document-upload`) may only lower it.
 */
export const UPLOAD_BODY_LIMIT = 10 * 1024 * 1024 + 64 * 1024

const sideParams = v.object({ type: v.picklist(idDocumentSides, k.wrongFormat) })

export const idPhotoAnswerSchema = v.object({
  type: v.picklist(idDocumentSides),
  mime: v.picklist(uploadMimeTypes),
  size: v.number(),
  /** The attempt this upload used, counted from 1 (replaced and deleted photos count). */
  attempt: v.number(),
  flow: flowSchema,
})
export type IdPhotoAnswer = v.InferOutput<typeof idPhotoAnswerSchema>

export const documentAnswerSchema = v.object({
  id: v.string(),
  type: v.string(),
  mime: v.picklist(uploadMimeTypes),
  size: v.number(),
  /** True when a file of the same type was kept before and this one replaced it. */
  replaced: v.boolean(),
})
export type DocumentAnswer = v.InferOutput<typeof documentAnswerSchema>

export const uploadIdPhoto = defineContract({
  method: 'post',
  path: '/private/client/id-document/upload',
  summary:
    'During document_upload: a photo of the identity document (type front | back | selfie; JPEG or PNG; capturedAt)',
  tags: ['documents'],
  access: 'client',
  bodyType: 'multipart',
  bodyLimit: UPLOAD_BODY_LIMIT,
  response: idPhotoAnswerSchema,
})

export const downloadIdPhoto = defineContract({
  method: 'get',
  path: '/private/client/id-document/download/:type',
  summary: "The client's own identity-document photo of one side (binary)",
  tags: ['documents'],
  access: 'client',
  params: sideParams,
  answer: 'binary',
})

export const deleteIdPhoto = defineContract({
  method: 'delete',
  path: '/private/client/id-document/delete/:type',
  summary: 'During document_upload: delete the photo of one side',
  tags: ['documents'],
  access: 'client',
  params: sideParams,
  response: v.object({ deleted: v.literal(true), flow: flowSchema }),
})

export const finishIdDocument = defineContract({
  method: 'post',
  path: '/private/client/id-document/finish',
  summary: 'Completes document_upload: the document type, number and expiry, with the front photo uploaded',
  tags: ['documents'],
  access: 'client',
  body: identityDocumentSchema,
  response: stepAnswerSchema,
})

export const uploadDocument = defineContract({
  method: 'post',
  path: '/private/client/document/upload',
  summary: 'A supporting document (type: lower-case word, e.g. payslip); JPEG, PNG or PDF',
  tags: ['documents'],
  access: 'client',
  bodyType: 'multipart',
  bodyLimit: UPLOAD_BODY_LIMIT,
  response: documentAnswerSchema,
})

export const uploadBankStatement = defineContract({
  method: 'post',
  path: '/private/client/bank-statement/upload',
  summary: 'A bank statement (an alternative to linking a bank); JPEG, PNG or PDF',
  tags: ['documents'],
  access: 'client',
  bodyType: 'multipart',
  bodyLimit: UPLOAD_BODY_LIMIT,
  response: documentAnswerSchema,
})

export const uploadClientDocument = defineContract({
  method: 'post',
  path: '/private/client/client-document',
  summary:
    'A client document: type employment_certificate or comprehensive_check_up_result; JPEG, PNG or PDF',
  tags: ['documents'],
  access: 'client',
  bodyType: 'multipart',
  bodyLimit: UPLOAD_BODY_LIMIT,
  response: documentAnswerSchema,
})
