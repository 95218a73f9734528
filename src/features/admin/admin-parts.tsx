/**
 * What the back-office screens share: a list's loading, failure-with-retry and empty states, a table that scrolls
 * inside a named region on a phone, a pager, a two-column table.
 */
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { Violation } from '../../../domain/contract/wire'
import { useMessages } from '../../i18n/messages'

/**
 * Renders `children` with the loaded items, or the loading, failed (with a retry) or `empty` state. A query of a
 * page (or anything holding the list) says where its items are with `select`, so one query serves the list and
 * its pager.
 */
export function AdminList<D, T = D extends readonly (infer I)[] ? I : never>({
  query,
  select,
  empty,
  children,
}: {
  query: UseQueryResult<D>
  select?: (data: D) => readonly T[]
  empty: string
  children: (items: readonly T[]) => ReactNode
}) {
  const m = useMessages().admin
  if (query.isPending) return <p role="status">{m.loading}</p>
  if (query.isError) {
    return (
      <div role="alert">
        <p>{m.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => query.refetch()}>
          {m.retry}
        </button>
      </div>
    )
  }
  const items = select ? select(query.data) : (query.data as readonly T[])
  if (items.length === 0) return <p>{empty}</p>
  return <>{children(items)}</>
}

/**
 * A table wider than a phone scrolls inside its box; focusable and named, so a keyboard can scroll it and a
 * screen reader says what it is (WCAG 2.1.1, axe scrollable-region-focusable).
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  )
}

/**
 * Previous and next page of a list, with where the list stands, in each screen's own words. Shown while there is
 * more than one page, or while the page shown is past the first (so a list that shrank can be walked back).
 */
export function AdminPager({
  label,
  position,
  previous,
  next,
  page,
  pages,
  onPage,
}: {
  /** The navigation's name ("Pages of clients"). */
  label: string
  /** Where the list stands ("Page 2 of 5 (93 in all)"). */
  position: string
  previous: string
  next: string
  page: number
  pages: number
  onPage: (page: number) => void
}) {
  if (pages <= 1 && page <= 1) return null
  return (
    <nav className="admin-paging" aria-label={label}>
      <p>{position}</p>
      <p className="button-row">
        <button
          type="button"
          className="button button--secondary button--sm"
          disabled={page <= 1}
          onClick={() => onPage(Math.max(1, page - 1))}
        >
          {previous}
        </button>
        <button
          type="button"
          className="button button--secondary button--sm"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          {next}
        </button>
      </p>
    </nav>
  )
}

/** A titled section holding a two-column table of [key, first cell, second cell] rows. */
export function TableSection({
  id,
  title,
  columns,
  rows,
}: {
  id: string
  title: string
  columns: [string, string]
  rows: readonly [key: string, first: string, second: string][]
}) {
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {title}
      </h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([key, first, second]) => (
            <tr key={key}>
              <td>{first}</td>
              <td>{second}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** Why values would be (or were) refused, field by field: one alert named by `label`; nothing when all is well. */
export function ViolationList({ violations, label }: { violations: readonly Violation[]; label: string }) {
  if (!violations.length) return null
  return (
    <div role="alert" aria-label={label}>
      <p>{label}</p>
      <ul>
        {violations.map((v) => (
          <li key={`${v.propertyPath}:${v.message}`}>
            <code>{v.propertyPath || '–'}</code>: {v.message}
          </li>
        ))}
      </ul>
    </div>
  )
}
