/** What the back-office screens share: a list's loading, failure-with-retry and empty states, a two-column table. */
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useMessages } from '../../i18n/messages'

/** Renders `children` with the loaded items, or the loading, failed (with a retry) or `empty` state. */
export function AdminList<T>({
  query,
  empty,
  children,
}: {
  query: UseQueryResult<readonly T[]>
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
  if (query.data.length === 0) return <p>{empty}</p>
  return <>{children(query.data)}</>
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
