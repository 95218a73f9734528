/**
 * The sandbox outbox on /admin: the SMS and e-mails the sandbox providers sent, newest first, filtered by
 * recipient, so a person testing in a browser reads the codes the product sent them.
 */
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { formatPhone } from '../../../domain/format'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { adminQueryKeys, fetchOutbox, manilaDateTime } from './admin-api'
import { AdminList } from './admin-parts'

export function Outbox() {
  const m = useMessages().admin
  const api = useApi()
  const [draft, setDraft] = useState('')
  const [recipient, setRecipient] = useState('')
  const messages = useQuery({
    queryKey: adminQueryKeys.outbox(recipient),
    queryFn: ({ signal }) => fetchOutbox(api, recipient, signal),
    select: (page) => page.items,
  })
  const search = (event: FormEvent) => {
    event.preventDefault()
    const next = draft.trim()
    if (next === recipient) void messages.refetch()
    else setRecipient(next)
  }
  return (
    <section className="section" aria-labelledby="outbox-title">
      <h2 id="outbox-title" className="section__title">
        {m.outbox.title}
      </h2>
      <p>{m.outbox.lead}</p>
      <search>
        <form aria-label={m.outbox.title} onSubmit={search}>
          <TextField
            label={m.outbox.recipient}
            type="search"
            autoComplete="off"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <p className="button-row">
            <button type="submit" className="button button--secondary">
              {m.outbox.search}
            </button>
          </p>
        </form>
      </search>
      <AdminList query={messages} empty={m.outbox.empty}>
        {(items) => (
          // A table wider than a phone scrolls inside its box; focusable and named, so a keyboard can scroll it
          // and a screen reader says what it is (WCAG 2.1.1, axe scrollable-region-focusable).
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
          <section className="table-scroll" aria-label={m.outbox.tableLabel} tabIndex={0}>
            <table className="table--stack">
              <caption className="visually-hidden">{m.outbox.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{m.outbox.sentAt}</th>
                  <th scope="col">{m.outbox.to}</th>
                  <th scope="col">{m.outbox.channel}</th>
                  <th scope="col">{m.outbox.message}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((message) => (
                  <tr key={message.id}>
                    <td data-label={m.outbox.sentAt}>{manilaDateTime(message.createdAt)}</td>
                    <td data-label={m.outbox.to}>{formatPhone(message.recipient)}</td>
                    <td data-label={m.outbox.channel}>{message.channel}</td>
                    <td data-label={m.outbox.message}>
                      {message.subject ? <strong>{message.subject}: </strong> : null}
                      {message.body}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </AdminList>
    </section>
  )
}
