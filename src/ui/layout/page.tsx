/** Building blocks shared by content pages: the page heading, numbered steps, breadcrumbs and callouts. */
import { Link, type LinkProps } from '@tanstack/react-router'
import type { ReactNode } from 'react'

export function PageHeader({ title, lead, meta }: { title: string; lead?: string; meta?: string }) {
  return (
    <div className="page-header">
      <h1 className="page-header__title">{title}</h1>
      {meta ? <p className="page-header__meta">{meta}</p> : null}
      {lead ? <p className="lead">{lead}</p> : null}
    </div>
  )
}

export type Step = string | { title: string; body: string }

/** An ordered list drawn as numbered steps; a step is a sentence or a title with a body. */
export function NumberedSteps({ steps, className }: { steps: readonly Step[]; className?: string }) {
  return (
    <ol className={`steps ${className ?? ''}`}>
      {steps.map((step) =>
        typeof step === 'string' ? (
          <li key={step} className="steps__item">
            {step}
          </li>
        ) : (
          <li key={step.title} className="steps__item">
            <h3 className="steps__title">{step.title}</h3>
            <p className="steps__body">{step.body}</p>
          </li>
        ),
      )}
    </ol>
  )
}

export interface Crumb {
  label: string
  to: LinkProps['to']
}

/** Where this page sits; the last crumb is the current page and is not a link. */
export function Breadcrumbs({ label, trail, current }: { label: string; trail: Crumb[]; current: string }) {
  return (
    <nav className="breadcrumbs" aria-label={label}>
      <ol>
        {trail.map((crumb) => (
          <li key={crumb.label}>
            <Link to={crumb.to} activeOptions={{ exact: true }}>
              {crumb.label}
            </Link>
          </li>
        ))}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  )
}

export function Callout({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'success'
  title?: string
  children: ReactNode
}) {
  return (
    <div className={`callout callout--${tone}`}>
      {title ? <p className="callout__title">{title}</p> : null}
      <div className="callout__body">{children}</div>
    </div>
  )
}
