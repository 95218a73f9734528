/**
 * One side of the identity document: a camera capture on phones (`capture="environment"` where the browser can
 * capture, from the kept capability detection of src/app/browser-capabilities.ts), a file picker elsewhere. The
 * photo is checked here with the shared rules (JPEG or PNG, size, image age from the moment the file was made)
 * and uploaded at once with its side and capture time; the server checks all of it again.
 */
import { useId, useState } from 'react'
import { deleteIdPhoto, uploadIdPhoto } from '../../../domain/contract/uploads'
import type { IdDocumentSide } from '../../../domain/journey/fields'
import { type DocumentUploadConfig, imageAgeProblem } from '../../../domain/journey/uploads'
import { useApi } from '../../app/app-context'
import { useBrowserCapability } from '../../app/browser-capabilities'
import { useMessages } from '../../i18n/messages'
import { FieldError, type FieldErrorView } from '../../ui/forms/fields'
import { isServerFailure } from '../../ui/forms/violations'
import { useJourneyErrorText } from './form-support'

export interface PhotoState {
  uploaded: boolean
  preview: string | null
}

/** The client-side check of a chosen photo; null when it may be sent. */
export function photoProblem(file: File, config: DocumentUploadConfig, now: Date): string | null {
  if (!['image/jpeg', 'image/png'].includes(file.type)) return 'error-wrong-format'
  if (file.size > config.maxFileSize) return 'error-file-size'
  return imageAgeProblem(new Date(file.lastModified), now, config.maxImageAge)
}

export function PhotoUpload({
  side,
  config,
  state,
  onChange,
  error,
  onError,
  disabled,
}: {
  side: Extract<IdDocumentSide, 'front' | 'back'>
  config: DocumentUploadConfig
  state: PhotoState
  onChange(state: PhotoState): void
  /** An error placed from outside (the finish call answering that the front is missing). */
  error: FieldErrorView | null
  onError(error: FieldErrorView | null): void
  disabled?: boolean
}) {
  const t = useMessages().journey.documents
  const api = useApi()
  const text = useJourneyErrorText()
  const id = useId()
  const [busy, setBusy] = useState(false)
  // The rear camera where the browser offers one: known once the page runs in the browser (ADR 0052).
  const capture = useBrowserCapability('cameraCapture') ? ('environment' as const) : undefined
  const errorId = error ? `${id}-error` : undefined

  async function upload(file: File) {
    const problem = photoProblem(file, config, new Date())
    if (problem) return onError(text(problem))
    onError(null)
    const body = new FormData()
    body.append('type', side)
    body.append('capturedAt', new Date(file.lastModified).toISOString())
    body.append('file', file)
    setBusy(true)
    try {
      await api.call(uploadIdPhoto, { body })
      onChange({ uploaded: true, preview: URL.createObjectURL(file) })
    } catch (failure) {
      onError(text(isServerFailure(failure) ? (failure.violations[0]?.message ?? failure.code) : 'generic'))
    } finally {
      setBusy(false)
    }
  }

  async function remove() {
    setBusy(true)
    try {
      await api.call(deleteIdPhoto, { params: { type: side } })
      onChange({ uploaded: false, preview: null })
    } catch (failure) {
      onError(text(isServerFailure(failure) ? (failure.violations[0]?.message ?? failure.code) : 'generic'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className={`field reg-card reg-photo${error ? ' field--invalid' : ''}`}>
      <div className="reg-card__body">
        <label className="field__label" htmlFor={id}>
          {t.sides[side]}
        </label>
        {state.preview ? (
          <img className="reg-photo__preview" src={state.preview} alt={t.sides[side]} />
        ) : null}
        <p className="reg-card__meta" aria-live="polite">
          {busy ? t.uploading : state.uploaded ? t.uploaded : t.take}
        </p>
        <input
          id={id}
          type="file"
          accept="image/*"
          capture={capture}
          disabled={disabled || busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          onChange={(event) => {
            const file = event.target.files?.[0]
            event.target.value = ''
            if (file) void upload(file)
          }}
        />
        <FieldError id={errorId} error={error} />
      </div>
      {state.uploaded ? (
        <button type="button" className="button button--ghost" disabled={busy} onClick={() => void remove()}>
          {t.remove}
        </button>
      ) : null}
    </div>
  )
}
