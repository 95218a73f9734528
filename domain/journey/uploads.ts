/**
 * Upload rules shared by the forms and the API: the accepted formats (recognised from the file's first bytes,
 * never from its name or the browser's content type), the size limit and the image-age rule of spec section 9.
 */
import * as v from 'valibot'

export const uploadMimeTypes = ['image/jpeg', 'image/png', 'application/pdf'] as const
export type UploadMime = (typeof uploadMimeTypes)[number]
export const imageMimeTypes: readonly UploadMime[] = ['image/jpeg', 'image/png']

/** The format by magic bytes: JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A, PDF "%PDF-". */
export function sniffMime(bytes: Uint8Array): UploadMime | null {
  const starts = (...sig: number[]) => sig.every((byte, i) => bytes[i] === byte)
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf'
  return null
}

/**
 * The upload configuration (config key `document-upload`), answered by GET /flow/document-upload-config with
 * the client's attempt counter. `maxImageAge` is in seconds, 0 = unlimited; `maxAttempts` 0 = unlimited.
 */
export const documentUploadConfigSchema = v.object({
  maxImageAge: v.pipe(v.number(), v.integer(), v.minValue(0)),
  maxAttempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  maxFileSize: v.pipe(v.number(), v.integer(), v.minValue(1)),
})
export type DocumentUploadConfig = v.InferOutput<typeof documentUploadConfigSchema>

export const defaultDocumentUploadConfig: DocumentUploadConfig = {
  maxImageAge: 30,
  maxAttempts: 0,
  maxFileSize: 10 * 1024 * 1024,
}

/** Clocks disagree a little: a capture time this far in the future still counts as now. */
export const CAPTURE_CLOCK_SKEW_MS = 5_000

/**
 * The image-age rule: with a limit, the photo must say when it was taken (`capturedAt`, set by the app's
 * camera capture) and that must be within the limit. Null when the photo passes.
 */
export function imageAgeProblem(
  capturedAt: Date | null,
  now: Date,
  maxImageAgeSeconds: number,
): 'error-file-age' | null {
  if (maxImageAgeSeconds === 0) return null
  if (!capturedAt) return 'error-file-age'
  const age = now.getTime() - capturedAt.getTime()
  if (age < -CAPTURE_CLOCK_SKEW_MS || age > maxImageAgeSeconds * 1000) return 'error-file-age'
  return null
}
