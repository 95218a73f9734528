/**
 * Uploaded files: checked (format from the bytes, size, image age), written under DATA_DIR/uploads with a random
 * name, and recorded in `uploaded_file`. Files are written before the transaction that records them and removed
 * again if it fails: the transaction itself never waits on the disk.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { and, count, eq, isNull, ne, sql } from 'drizzle-orm'
import type { UploadConfigAnswer } from '../../../domain/contract/journey-answers'
import type { DocumentAnswer, IdPhotoAnswer } from '../../../domain/contract/uploads'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import {
  type IdDocumentSide,
  type IdentityDocument,
  journeyMessageKeys as k,
} from '../../../domain/journey/fields'
import {
  type DocumentUploadConfig,
  documentUploadConfigSchema,
  imageAgeProblem,
  sniffMime,
  type UploadMime,
} from '../../../domain/journey/uploads'
import type { DbOrTx, Tx } from '../../db/client'
import { identityDocument, uploadedFile } from '../../db/schema-journey'
import type { AppDeps } from '../../deps'
import { readConfig } from '../config'
import { type Actor, type JourneyChange, journeyTransaction } from './journey'

export type UploadCategory = 'id_document' | 'document' | 'bank_statement' | 'client_document'

export const readUploadConfig = (db: DbOrTx) => readConfig(db, 'document-upload', documentUploadConfigSchema)

/** Room for the multipart envelope and the text fields around the file. */
const MULTIPART_OVERHEAD = 64 * 1024

const fileViolation = (message: string) => invalid([{ propertyPath: 'file', message }])

/**
 * Refuses a request whose declared length is over the limit before its body is read. A length is required
 * (browsers always send one with FormData): a chunked body of unknown size would be read whole into memory.
 */
export function assertContentLength(header: string | undefined, config: DocumentUploadConfig) {
  const length = header && /^\d+$/.test(header) ? Number(header) : Number.NaN
  if (!Number.isFinite(length))
    throw new DomainError('lengthRequired', 'lengthRequired', 'An upload must declare its Content-Length.')
  if (length > config.maxFileSize + MULTIPART_OVERHEAD)
    throw new DomainError('tooLarge', 'fileTooLarge', 'The file is too large.', [
      { propertyPath: 'file', message: k.fileSize },
    ])
}

export interface CheckedFile {
  bytes: Uint8Array
  mime: UploadMime
}

/** The file field of a multipart body: present, within the size limit, of an accepted format by its bytes. */
export async function checkFile(
  value: unknown,
  config: DocumentUploadConfig,
  accepted: readonly UploadMime[],
): Promise<CheckedFile> {
  if (!(value instanceof File) || value.size === 0) throw fileViolation(k.required)
  if (value.size > config.maxFileSize) throw fileViolation(k.fileSize)
  const bytes = new Uint8Array(await value.arrayBuffer())
  const mime = sniffMime(bytes)
  if (!mime || !accepted.includes(mime)) throw fileViolation(k.wrongFormat)
  return { bytes, mime }
}

/** `capturedAt` (ISO 8601 with a zone) of a camera capture, checked against the image-age limit. */
export function checkImageAge(raw: unknown, config: DocumentUploadConfig, now: Date): Date | null {
  let capturedAt: Date | null = null
  if (typeof raw === 'string' && raw) {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw))
      throw invalid([{ propertyPath: 'capturedAt', message: k.wrongFormat }])
    capturedAt = new Date(raw)
    if (Number.isNaN(capturedAt.getTime()))
      throw invalid([{ propertyPath: 'capturedAt', message: k.wrongFormat }])
  }
  const problem = imageAgeProblem(capturedAt, now, config.maxImageAge)
  if (problem) throw fileViolation(problem)
  return capturedAt
}

export async function storeBytes(dir: string, bytes: Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const name = randomBytes(16).toString('hex')
  await writeFile(join(dir, name), bytes, { flag: 'wx', mode: 0o600 })
  return name
}

export async function removeStored(dir: string, name: string | null | undefined) {
  if (!name) return
  await unlink(join(dir, name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error
  })
}

export const readStored = (dir: string, name: string) => readFile(join(dir, name))

export interface NewFile {
  clientId: number
  category: UploadCategory
  kind: string
  checked: CheckedFile
  storageName: string
  capturedAt: Date | null
  now: Date
}

export async function recordFile(tx: Tx, file: NewFile) {
  const [row] = await tx
    .insert(uploadedFile)
    .values({
      clientId: file.clientId,
      category: file.category,
      kind: file.kind,
      mime: file.checked.mime,
      size: file.checked.bytes.byteLength,
      sha256: createHash('sha256').update(file.checked.bytes).digest('hex'),
      storageName: file.storageName,
      capturedAt: file.capturedAt,
      createdAt: file.now,
    })
    .returning()
  return row!
}

/**
 * Supporting-document types one client keeps at once, over every category (payslip, bank statement,
 * certificates...): each type is one file, replaced by the next upload of it, so a client's storage is bounded
 * by this many files.
 */
export const MAX_SUPPORTING_TYPES = 10

/**
 * In the upload's transaction: one client's uploads take turns (an advisory lock), the live file of the same
 * category and type is replaced (its row deleted; its stored name answered so its bytes are removed after the
 * commit), and a new type beyond MAX_SUPPORTING_TYPES is refused. The unique index
 * `uploaded_file_live_document_uq` is the last word.
 */
export async function replaceSupportingDocument(tx: Tx, file: NewFile) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`uploads:${file.clientId}`}))`)
  const live = await tx
    .select({
      id: uploadedFile.id,
      category: uploadedFile.category,
      kind: uploadedFile.kind,
      storageName: uploadedFile.storageName,
    })
    .from(uploadedFile)
    .where(
      and(
        eq(uploadedFile.clientId, file.clientId),
        ne(uploadedFile.category, 'id_document'),
        isNull(uploadedFile.deletedAt),
      ),
    )
  const same = live.find((r) => r.category === file.category && r.kind === file.kind)
  if (!same && live.length >= MAX_SUPPORTING_TYPES)
    throw new DomainError(
      'refused',
      'documentLimit',
      `At most ${MAX_SUPPORTING_TYPES} kinds of document can be kept; upload one of yours again to replace it.`,
      [{ propertyPath: 'type', message: 'documentLimit' }],
    )
  if (same) await tx.delete(uploadedFile).where(eq(uploadedFile.id, same.id))
  const row = await recordFile(tx, file)
  return { row, previous: same?.storageName ?? null }
}

/** Identity-photo uploads so far, replaced and deleted ones included: the attempt counter counts from here. */
export async function idPhotoUploads(db: DbOrTx, clientId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(uploadedFile)
    .where(and(eq(uploadedFile.clientId, clientId), eq(uploadedFile.category, 'id_document')))
  return row?.n ?? 0
}

export async function liveIdPhoto(db: DbOrTx, clientId: number, side: string) {
  const [row] = await db
    .select()
    .from(uploadedFile)
    .where(
      and(
        eq(uploadedFile.clientId, clientId),
        eq(uploadedFile.category, 'id_document'),
        eq(uploadedFile.kind, side),
        isNull(uploadedFile.deletedAt),
      ),
    )
  return row ?? null
}

/** Marks the live photo of a side deleted; answers its stored name so the bytes can go after the commit. */
export async function retireIdPhoto(tx: Tx, clientId: number, side: string, now: Date) {
  const live = await liveIdPhoto(tx, clientId, side)
  if (!live) return null
  await tx.update(uploadedFile).set({ deletedAt: now }).where(eq(uploadedFile.id, live.id))
  return live.storageName
}

export const extensionOf = (mime: string) =>
  mime === 'image/jpeg' ? 'jpg' : mime === 'image/png' ? 'png' : 'pdf'

/** The identity document's type, number and expiry (POST /id-document/finish): one row per client, replaced. */
export async function writeIdentityDocument(tx: Tx, clientId: number, document: IdentityDocument, at: Date) {
  const values = {
    documentType: document.documentType,
    documentNumber: document.documentNumber,
    expiryDate: document.expiryDate ?? null,
    finishedAt: at,
  }
  await tx
    .insert(identityDocument)
    .values({ clientId, ...values })
    .onConflictDoUpdate({ target: identityDocument.clientId, set: values })
}

type UploadDeps = Pick<AppDeps, 'database' | 'logger' | 'now' | 'uploadsDir'>

/** The upload limits and the number of the client's next identity-photo attempt. */
export async function uploadConfigFor(db: DbOrTx, clientId: number): Promise<UploadConfigAnswer> {
  const config = await readUploadConfig(db)
  return { ...config, attempt: (await idPhotoUploads(db, clientId)) + 1 }
}

/**
 * A supporting document, checked already: its bytes are stored, then recorded in place of the live file of the
 * same category and type. The replaced file goes once the new one is committed: a failed upload leaves the old
 * one in place, and a failed record removes the new bytes again.
 */
export async function saveSupportingDocument(
  deps: UploadDeps,
  file: { clientId: number; category: UploadCategory; kind: string; checked: CheckedFile },
): Promise<DocumentAnswer> {
  const { uploadsDir, now } = deps
  const storageName = await storeBytes(uploadsDir, file.checked.bytes)
  let saved: Awaited<ReturnType<typeof replaceSupportingDocument>>
  try {
    saved = await deps.database.db.transaction((tx) =>
      replaceSupportingDocument(tx, { ...file, storageName, capturedAt: null, now: now() }),
    )
  } catch (error) {
    await removeStored(uploadsDir, storageName)
    throw error
  }
  await removeStored(uploadsDir, saved.previous)
  const { row } = saved
  return {
    id: row.id,
    type: row.kind,
    mime: file.checked.mime,
    size: row.size,
    replaced: saved.previous !== null,
  }
}

/**
 * A photo of one side of the identity document (CHANGE_ID_PHOTO), checked already: it replaces the side's live
 * photo, within the attempts the configuration allows, counted under the journey lock so two parallel uploads
 * cannot both take the last one.
 */
export async function saveIdPhoto(
  deps: UploadDeps,
  photo: {
    clientId: number
    side: IdDocumentSide
    checked: CheckedFile
    capturedAt: Date | null
    config: DocumentUploadConfig
    at: Date
  },
  by: Actor,
): Promise<IdPhotoAnswer> {
  const { clientId, side, checked, capturedAt, config, at } = photo
  const storageName = await storeBytes(deps.uploadsDir, checked.bytes)
  let change: JourneyChange<{ previous: string | null; attempt: number }>
  try {
    change = await journeyTransaction(deps, clientId, { type: 'CHANGE_ID_PHOTO' }, by, at, async (tx) => {
      const used = await idPhotoUploads(tx, clientId)
      if (config.maxAttempts > 0 && used >= config.maxAttempts)
        throw new DomainError('refused', 'uploadMetric', 'No upload attempts are left.', [
          { propertyPath: 'file', message: 'uploadMetric' },
        ])
      const previous = await retireIdPhoto(tx, clientId, side, at)
      await recordFile(tx, {
        clientId,
        category: 'id_document',
        kind: side,
        checked,
        storageName,
        capturedAt,
        now: at,
      })
      return { previous, attempt: used + 1 }
    })
  } catch (error) {
    await removeStored(deps.uploadsDir, storageName)
    throw error
  }
  await removeStored(deps.uploadsDir, change.result.previous)
  return {
    type: side,
    mime: checked.mime,
    size: checked.bytes.byteLength,
    attempt: change.result.attempt,
    flow: change.flow,
  }
}

/** Deletes the live photo of one side (CHANGE_ID_PHOTO); 404 when there is none. */
export async function deleteIdPhoto(deps: UploadDeps, clientId: number, side: IdDocumentSide, by: Actor) {
  const at = deps.now()
  const change = await journeyTransaction(deps, clientId, { type: 'CHANGE_ID_PHOTO' }, by, at, async (tx) => {
    const name = await retireIdPhoto(tx, clientId, side, at)
    if (!name) throw notFound('Document')
    return name
  })
  await removeStored(deps.uploadsDir, change.result)
  return { deleted: true as const, flow: change.flow }
}

/** The live photo of one side, with its bytes; 404 when there is none. */
export async function readIdPhoto(
  deps: Pick<AppDeps, 'database' | 'uploadsDir'>,
  clientId: number,
  side: IdDocumentSide,
) {
  const row = await liveIdPhoto(deps.database.db, clientId, side)
  if (!row) throw notFound('Document')
  return { mime: row.mime, bytes: await readStored(deps.uploadsDir, row.storageName) }
}

/** Completes document_upload (FINISH_ID_DOCUMENT) with the document's details, once the front photo is in. */
export async function finishIdDocument(
  deps: UploadDeps,
  clientId: number,
  document: IdentityDocument,
  by: Actor,
) {
  const at = deps.now()
  const change = await journeyTransaction(
    deps,
    clientId,
    { type: 'FINISH_ID_DOCUMENT' },
    by,
    at,
    async (tx) => {
      if (!(await liveIdPhoto(tx, clientId, 'front')))
        throw new DomainError(
          'refused',
          'idPhotoMissing',
          'Upload a photo of the front of the document first.',
          [{ propertyPath: 'front', message: k.required }],
        )
      await writeIdentityDocument(tx, clientId, document, at)
    },
  )
  return { flow: change.flow }
}
