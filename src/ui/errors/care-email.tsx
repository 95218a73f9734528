import { useQuery } from '@tanstack/react-query'
import type { Page } from '../../../domain/contract/define'
import { listContacts } from '../../../domain/contract/reference'
import type { Contact } from '../../../domain/reference'
import { useApi } from '../../app/app-context'

export const contactsQueryKey = ['public', 'contact'] as const

/** The contact entries of the footer, fetched once per visit. */
export function useContacts() {
  const api = useApi()
  return useQuery({
    queryKey: contactsQueryKey,
    // Four entries: the first page holds them all. (The cast: defineContract widens `paginated: true` to
    // boolean, so the answer is typed as the list, not the page call gives.)
    queryFn: async () => ((await api.call(listContacts)) as unknown as Page<Contact>).items,
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/** The customer-care e-mail (contact entry cc1) as a mailto link; a fixed fallback while it loads. */
export function CareEmail() {
  const { data } = useContacts()
  const email = data?.find((c) => c.kind === 'email' && c.key.startsWith('cc'))
  const display = email?.display ?? 'care@hiram.ph'
  return <a href={email?.link ?? `mailto:${display}`}>{display}</a>
}
