/** Small pieces every application screen uses: the page frame, a figures list, an error notice, a query gate. */
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useMessages } from '../../i18n/messages'

export function ScreenFrame({
  title,
  lead,
  children,
}: {
  title: string
  lead?: string
  children: ReactNode
}) {
  return (
    <section className="page page--narrow application-screen" aria-labelledby="application-screen-title">
      <div className="page-header">
        <h1 id="application-screen-title" className="page-header__title">
          {title}
        </h1>
        {lead ? <p className="lead">{lead}</p> : null}
      </div>
      {children}
    </section>
  )
}

export interface Figure {
  /** A stable name for tests and analytics: `data-figure`. */
  name: string
  label: string
  value: string
}

/** A definition list of labelled figures; `label` names it for screen readers. */
export function Figures({ label, figures }: { label: string; figures: Figure[] }) {
  return (
    <dl className="details-list card" aria-label={label}>
      {figures.map((f) => (
        <div key={f.name} className="details-list__row" data-figure={f.name}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** An error the client must see: role alert, the spec message key on `data-error-key`. */
export function ErrorNotice({ errorKey, children }: { errorKey: string; children?: ReactNode }) {
  const m = useMessages().application
  const text = (m.errors as Record<string, string>)[errorKey] ?? m.errors.error
  return (
    <div className="callout callout--warning" role="alert" data-error-key={errorKey}>
      <p className="callout__body">{text}</p>
      {children}
    </div>
  )
}

/** The error code of a failed call (ApiError.code), or 'error'. */
export function errorKeyOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code ? code : 'error'
}

/** Renders `children(data)` once every query answered; a spinner while loading, an error with retry. */
export function QueryGate<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>
  children: (data: T) => ReactNode
}) {
  const m = useMessages().application
  if (query.isPending) {
    return (
      <p role="status" aria-live="polite">
        {m.loadingData}
      </p>
    )
  }
  if (query.isError) {
    return (
      <ErrorNotice errorKey={errorKeyOf(query.error)}>
        <p>{m.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          {m.retry}
        </button>
      </ErrorNotice>
    )
  }
  return <>{children(query.data)}</>
}
