/**
 * "Talk to our collections team" on My loan (issue 18, item 2): an overdue client sees the debt-collection
 * contacts of the spec (entries dc and dc1 of GET /web/public/contact, as the footer shows them) right by the
 * overdue notice, with a polite word and how to reach them. Only the client is ever contacted about their loan
 * (SEC MC 18 s.2019, RA 11765; docs/decisions/0028-reminders-and-collection-contacts.md).
 */
import { useId } from 'react'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import type { Contact } from '../../../domain/reference'
import { useMessages } from '../../i18n/messages'
import { useContacts } from '../../ui/errors/care-email'
import { ContactList } from '../../ui/layout/contact-blocks'

const collectionKeys: readonly Contact['key'][] = ['dc', 'dc1']

/** Overdue per the server's standing when it says so; else the invoice's sign (spec section 4: dueDays < 0). */
export function isOverdue(loan: Pick<ActiveLoan, 'standing' | 'repaymentInvoice'>): boolean {
  return loan.standing ? loan.standing === 'overdue' : loan.repaymentInvoice.dueDays < 0
}

export function CollectionContacts({ loan }: { loan: ActiveLoan }) {
  // The contacts are fetched only for an overdue loan.
  return isOverdue(loan) ? <CollectionContactsBlock /> : null
}

function CollectionContactsBlock() {
  const t = useMessages().application.myLoan.collectionContacts
  const titleId = useId()
  const { data, isPending, isError } = useContacts()
  const entries = collectionKeys
    .map((key) => data?.find((c) => c.key === key))
    .filter((c): c is Contact => Boolean(c))
  const hours = entries.find((c) => c.hours)?.hours
  return (
    <section
      className="callout collection-contacts"
      aria-labelledby={titleId}
      aria-busy={isPending}
      data-testid="collection-contacts"
    >
      <h2 id={titleId} className="callout__title">
        {t.title}
      </h2>
      <p>{t.body}</p>
      {isPending ? (
        <p role="status">{t.loading}</p>
      ) : isError || !entries.length ? (
        <p>{t.unavailable}</p>
      ) : (
        <ContactList entries={entries} hours={hours} labels={t} />
      )}
      <p className="muted">{t.privacy}</p>
    </section>
  )
}
