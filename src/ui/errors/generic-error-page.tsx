import type { ErrorComponentProps } from '@tanstack/react-router'
import { useEffect } from 'react'
import { isChunkLoadError, reloadForChunkError } from '../../app/chunk-reload'
import { useMessages } from '../../i18n/messages'
import { CareEmail } from './care-email'

/**
 * The status and message of the app's own failures the spec's error catalogue names (section 8): an unknown
 * routing middleware (500 'Unknown middleware') and an unknown API call type. Other errors show no detail.
 */
export function errorDetail(error: unknown): string | null {
  if (!(error instanceof Error)) return null
  if (error.name !== 'UnknownMiddlewareError' && error.name !== 'UnknownCallTypeError') return null
  const status = (error as { status?: unknown }).status
  return typeof status === 'number' ? `${status} ${error.message}` : error.message
}

/** Any error that is neither a 404 nor a server failure: a generic headline and the care e-mail. */
export function GenericErrorPage({ error }: Partial<ErrorComponentProps>) {
  const m = useMessages()
  useEffect(() => {
    if (isChunkLoadError(error)) reloadForChunkError()
  }, [error])
  const detail = errorDetail(error)
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{m.errors.genericTitle}</h1>
      {detail ? <p className="error-detail">{detail}</p> : null}
      <p>
        {m.errors.genericBody} <CareEmail />.
      </p>
    </section>
  )
}
