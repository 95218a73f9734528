/**
 * /admin/clients (issue 19, item 3): one search box for every key a caller gives (mobile number, e-mail, name,
 * payment reference, loan or application number), the results a page at a time from the x-* headers, each
 * client a link to their file. The table scrolls sideways inside a named region on a 360 px screen.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, useEffect, useState } from 'react'
import { formatPhone } from '../../../domain/format'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { manilaDateTime } from './admin-api'
import { AdminPager, ScrollTable } from './admin-parts'
import { CLIENTS_PER_PAGE, clientQueryKeys, fetchClients } from './clients-api'

export interface ClientSearchState {
  search?: string
  page?: number
}

/**
 * The search and its page live in the address (`?search=…&page=2`), so the browser's Back from a client's file
 * returns to the same results.
 */
export function ClientSearch({
  state,
  go,
}: {
  state: ClientSearchState
  go: (next: ClientSearchState) => void
}) {
  const m = useMessages().admin
  const c = m.clients
  const api = useApi()
  const term = state.search ?? ''
  const page = state.page ?? 1
  const [draft, setDraft] = useState(term)
  useEffect(() => setDraft(term), [term])
  const list = useQuery({
    queryKey: clientQueryKeys.search(term, page, CLIENTS_PER_PAGE),
    queryFn: ({ signal }) => fetchClients(api, term, page, CLIENTS_PER_PAGE, signal),
    placeholderData: (previous) => previous,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const next = draft.trim()
    if (next === term && page === 1) void list.refetch()
    else go(next ? { search: next } : {})
  }
  const clear = () => {
    setDraft('')
    go({})
  }
  const setPage = (next: number) =>
    go({ ...(term ? { search: term } : {}), ...(next > 1 ? { page: next } : {}) })
  const statuses = c.statuses as Record<string, string>
  const data = list.data
  return (
    <>
      <search>
        <form aria-label={c.search.label} onSubmit={submit}>
          <TextField
            label={c.search.label}
            hint={c.search.hint}
            type="search"
            name="search"
            autoComplete="off"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <p className="button-row">
            <button type="submit" className="button">
              {c.search.submit}
            </button>
            <button type="button" className="button button--secondary" onClick={clear}>
              {c.search.clear}
            </button>
          </p>
        </form>
      </search>
      <section className="section" aria-labelledby="clients-results-title">
        <h2 id="clients-results-title" className="section__title">
          {c.results.title}
        </h2>
        {list.isPending ? <p role="status">{m.loading}</p> : null}
        {list.isError ? (
          <div role="alert">
            <p>{m.loadFailed}</p>
            <button type="button" className="button button--secondary" onClick={() => list.refetch()}>
              {m.retry}
            </button>
          </div>
        ) : null}
        {data && data.items.length === 0 ? <p>{c.results.empty}</p> : null}
        {data && data.items.length > 0 ? (
          <ScrollTable label={c.results.region}>
            <table>
              <caption className="visually-hidden">{c.results.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{c.results.name}</th>
                  <th scope="col">{c.results.phone}</th>
                  <th scope="col">{c.results.email}</th>
                  <th scope="col">{c.results.reference}</th>
                  <th scope="col">{c.results.status}</th>
                  <th scope="col">{c.results.step}</th>
                  <th scope="col">{c.results.since}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((client) => {
                  const name = client.name ?? fmt(c.results.noName, { id: client.id })
                  return (
                    <tr key={client.id}>
                      <td>
                        <Link to="/admin/clients/$id" params={{ id: String(client.id) }}>
                          {name}
                        </Link>
                      </td>
                      <td>{formatPhone(client.phone)}</td>
                      <td>{client.email}</td>
                      <td>{client.paymentReference}</td>
                      <td>{statuses[String(client.status)] ?? client.status}</td>
                      <td>{client.step ?? c.desk.none}</td>
                      <td>{manilaDateTime(client.createdAt)}</td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </ScrollTable>
        ) : null}
        {data ? (
          <AdminPager
            label={fmt(c.paging.label, { what: c.title.toLowerCase() })}
            position={fmt(c.paging.position, {
              page,
              pages: Math.max(1, data.totalPages),
              total: data.total,
            })}
            previous={c.paging.previous}
            next={c.paging.next}
            page={page}
            pages={Math.max(1, data.totalPages)}
            onPage={setPage}
          />
        ) : null}
      </section>
    </>
  )
}

/** Moved to admin-parts.tsx with the other shared pieces; still importable from here. */
export { ScrollTable }
