import { useId } from 'react'
import type { Contact } from '../../../domain/reference'
import { useMessages } from '../../i18n/messages'
import { useContacts } from '../errors/care-email'

type Group = 'care' | 'collection'

const groupKeys: Record<Group, readonly Contact['key'][]> = {
  care: ['cc', 'cc1'],
  collection: ['dc', 'dc1'],
}

/** One group's contact entries (tel: and mailto: links) and its hours, as a definition list. */
export function ContactList({
  entries,
  hours,
  labels,
}: {
  entries: readonly Contact[]
  hours: string | null | undefined
  labels: { phone: string; email: string; hours: string }
}) {
  return (
    <dl className="contact-block__list">
      {entries.map((entry) => (
        <div key={entry.key} className="contact-block__row">
          <dt className="contact-block__label">{entry.kind === 'tel' ? labels.phone : labels.email}</dt>
          <dd>
            <a href={entry.link} className="contact-block__link">
              {entry.display}
            </a>
          </dd>
        </div>
      ))}
      {hours ? (
        <div className="contact-block__row">
          <dt className="contact-block__label">{labels.hours}</dt>
          <dd>{hours}</dd>
        </div>
      ) : null}
    </dl>
  )
}

export interface ContactBlocksProps {
  /** h2 in the footer, h2 or h3 on a page, to keep the outline right. */
  headingLevel?: 2 | 3
  /** A line under each title saying what the team helps with. */
  descriptions?: Partial<Record<Group, string>>
  className?: string
  /**
   * Each team a named region (the contact page). The footer's copy stays plain headed groups: it is already
   * inside the contentinfo landmark, and on /contact two regions named "Customer care" would be ambiguous
   * (axe landmark-unique).
   */
  landmarks?: boolean
}

/**
 * Customer care (cc phone, cc1 e-mail) and debt collection (dc, dc1) with their hours, from
 * GET /web/public/contact. While they load, placeholder lines of the same height keep the layout still;
 * if the call fails with 500+, the shell replaces the page with the full-page error anyway.
 */
export function ContactBlocks({
  headingLevel = 2,
  descriptions,
  className,
  landmarks = false,
}: ContactBlocksProps) {
  const m = useMessages()
  // Two copies on one page (the contact page and its footer) must not share ids.
  const baseId = useId()
  const { data, isPending } = useContacts()
  const f = m.layout.footer
  const groups: { id: Group; title: string }[] = [
    { id: 'care', title: f.careTitle },
    { id: 'collection', title: f.collectionTitle },
  ]
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <div className={`contact-blocks ${className ?? ''}`} aria-busy={isPending}>
      {isPending ? (
        <p className="visually-hidden" role="status">
          {f.contactsLoading}
        </p>
      ) : null}
      {groups.map((group) => {
        const entries = groupKeys[group.id]
          .map((key) => data?.find((c) => c.key === key))
          .filter((c): c is Contact => Boolean(c))
        const hours = entries.find((c) => c.hours)?.hours
        return (
          <section
            key={group.id}
            className="contact-block"
            aria-labelledby={landmarks ? `${baseId}-${group.id}` : undefined}
          >
            <Heading id={`${baseId}-${group.id}`} className="contact-block__title">
              {group.title}
            </Heading>
            {descriptions?.[group.id] ? (
              <p className="contact-block__description">{descriptions[group.id]}</p>
            ) : null}
            {isPending ? (
              <div className="contact-block__list" aria-hidden="true">
                <span className="skeleton" />
                <span className="skeleton" />
                <span className="skeleton skeleton--short" />
              </div>
            ) : (
              <ContactList entries={entries} hours={hours} labels={f} />
            )}
          </section>
        )
      })}
    </div>
  )
}
