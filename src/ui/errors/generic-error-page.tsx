import type { ErrorComponentProps } from '@tanstack/react-router'
import { useEffect } from 'react'
import { isChunkLoadError, reloadForChunkError } from '../../app/chunk-reload'
import { useMessages } from '../../i18n/messages'
import { CareEmail } from './care-email'

/** Any error that is neither a 404 nor a server failure: a generic headline and the care e-mail. */
export function GenericErrorPage({ error }: Partial<ErrorComponentProps>) {
  const m = useMessages()
  useEffect(() => {
    if (isChunkLoadError(error)) reloadForChunkError()
  }, [error])
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{m.errors.genericTitle}</h1>
      <p>
        {m.errors.genericBody} <CareEmail />.
      </p>
    </section>
  )
}
