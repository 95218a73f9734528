/**
 * /admin/audit (issue 19 item 2): the audit trail for administrators and auditors, filtered per client, per user
 * and per Manila date range, newest first, a page at a time. Read only: nothing on this screen changes anything.
 */
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { manilaDateTime } from './admin-api'
import { AdminList, ScrollTable } from './admin-parts'
import { type AuditEntry, type AuditFilters, fetchAudit, staffQueryKeys } from './staff-api'
import { StaffPager } from './staff-users'

const brief = (value: unknown) => (value == null ? '–' : JSON.stringify(value).slice(0, 400))

export function AuditTrail() {
  const m = useMessages().admin.staff
  const api = useApi()
  const [draft, setDraft] = useState<Omit<AuditFilters, 'page'>>({})
  const [filters, setFilters] = useState<AuditFilters>({ page: 1 })
  // One query for the entries and the pager.
  const entries = useQuery({
    queryKey: staffQueryKeys.audit(filters),
    queryFn: ({ signal }) => fetchAudit(api, filters, signal),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setFilters({ ...draft, page: 1 })
  }
  const field = (key: keyof typeof draft, label: string, type = 'text') => (
    <TextField
      label={label}
      type={type}
      inputMode={type === 'text' ? 'numeric' : undefined}
      value={draft[key] ?? ''}
      onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
    />
  )
  return (
    <>
      <search>
        <form aria-label={m.auditTitle} onSubmit={submit} className="form-grid">
          {field('clientId', m.filterClient)}
          {field('userId', m.filterUser)}
          {field('from', m.filterFrom, 'date')}
          {field('to', m.filterTo, 'date')}
          <p className="button-row">
            <button type="submit" className="button button--secondary">
              {m.filter}
            </button>
          </p>
        </form>
      </search>
      <AdminList query={entries} select={(page) => page.items} empty={m.noEntries}>
        {(items) => (
          <ScrollTable label={m.auditCaption}>
            <table className="table--stack">
              <caption className="visually-hidden">{m.auditCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{m.at}</th>
                  <th scope="col">{m.user}</th>
                  <th scope="col">{m.call}</th>
                  <th scope="col">{m.outcome}</th>
                  <th scope="col">{m.what}</th>
                  <th scope="col">{m.change}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((entry: AuditEntry) => (
                  <tr key={entry.id}>
                    <td data-label={m.at}>{manilaDateTime(entry.at)}</td>
                    <td data-label={m.user}>
                      {entry.userId ?? '–'}
                      {entry.deviceHash ? (
                        <small>
                          {' '}
                          · {m.device} {entry.deviceHash.slice(0, 8)}
                        </small>
                      ) : null}
                    </td>
                    <td data-label={m.call}>
                      <code>{entry.call}</code>
                    </td>
                    <td data-label={m.outcome}>{m.outcomes[entry.outcome]}</td>
                    <td data-label={m.what}>
                      {entry.entity ?? '–'} {entry.entityId ?? ''}
                      {entry.clientId ? ` · client ${entry.clientId}` : ''}
                    </td>
                    <td data-label={m.change} className="cell--wrap">
                      <code>{brief(entry.before)}</code> → <code>{brief(entry.after)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </AdminList>
      <StaffPager
        page={filters.page}
        pages={entries.data?.totalPages ?? 1}
        onPage={(page) => setFilters({ ...filters, page })}
        m={m}
      />
    </>
  )
}
