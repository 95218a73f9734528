/**
 * The affiliate lead's data for the registration forms (docs/decisions/0014).
 *
 * - Before sign-up the lead comes from the `leadId` cookie a lead link wrote:
 *   GET /public/affiliates/leads/{id}, query key ['public', 'affiliate-lead', id].
 * - After sign-up the server has closed the lead and linked it to the client, so a logged-in client reads it as
 *   its own: GET /private/client/affiliate-lead, query key ['client', 'affiliate-lead'] (dropped on logout).
 *
 * A failed fetch (no lead, a used or expired one, a rate limit, a server error) is ignored silently: the form
 * simply starts empty. Nothing here ever shows an error or a full-page failure.
 */
import { useQuery } from '@tanstack/react-query'
import { useSelector } from '@xstate/react'
import { toDisplayDate } from '../../../domain/affiliate'
import { getClientLead, getLead, type LeadPrefill } from '../../../domain/contract/affiliate'
import { isLoggedIn } from '../../../machines/auth.machine'
import { useApi, useAuthActor } from '../../app/app-context'
import { rememberedLeadId } from './lead-link'

export const publicLeadQueryKey = (leadId: string) => ['public', 'affiliate-lead', leadId] as const
export const clientLeadQueryKey = ['client', 'affiliate-lead'] as const

/** The lead as the app reads it: the raw prefill data (dates YYYY-MM-DD), or null. */
export function useLead(): { lead: LeadPrefill | null; leadId: string | null; isLoading: boolean } {
  const api = useApi()
  const client = useSelector(
    useAuthActor(),
    (s) => isLoggedIn(s) && s.context.claims?.type === 'client' && !s.context.claims.sl,
  )
  const leadId = client ? null : rememberedLeadId()
  const own = useQuery({
    queryKey: clientLeadQueryKey,
    queryFn: ({ signal }) => api.call(getClientLead, {}, { signal, quiet: true }),
    enabled: client,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const visitor = useQuery({
    queryKey: publicLeadQueryKey(leadId ?? ''),
    queryFn: ({ signal }) => api.call(getLead, { params: { id: leadId ?? '' } }, { signal, quiet: true }),
    enabled: leadId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const query = client ? own : visitor
  return {
    lead: query.isSuccess ? (query.data ?? null) : null,
    leadId: client ? (own.data?.leadId ?? null) : leadId,
    isLoading: (client || leadId !== null) && query.isPending,
  }
}

/**
 * What the registration details form (and the documents step) may prefill: every value is a string or
 * undefined, so it can go straight into react-hook-form's `reset`/`setValue` for the fields the user has not
 * touched. The birth date comes twice: as the form shows it (MM/DD/YYYY) and as the API stores it.
 */
export interface LeadDetailsPrefill {
  firstName?: string
  middleName?: string
  lastName?: string
  /** MM/DD/YYYY, as shown. */
  birthDate?: string
  /** YYYY-MM-DD, as stored and sent (detailsSchema.birthDate). */
  birthDateIso?: string
  /** 'male' | 'female' when the lead's value is one of the form's options. */
  gender?: string
  /** One of the form's civil statuses ('single', 'married', ...). */
  civilStatus?: string
  email?: string
  phone?: string
  /** Identity document type code: SSS, UMID, PP, DL, POSTAL_ID, NATIONAL_ID. */
  documentType?: string
  /** The document number, normalised (no spaces or dashes). */
  documentNumber?: string
}

const present = (value: string | null | undefined) => (value ? value : undefined)

export function toDetailsPrefill(lead: LeadPrefill): LeadDetailsPrefill {
  return {
    firstName: present(lead.firstName),
    middleName: present(lead.middleName),
    lastName: present(lead.lastName),
    birthDate: present(toDisplayDate(lead.dateOfBirth)),
    birthDateIso: toDisplayDate(lead.dateOfBirth) ? (lead.dateOfBirth ?? undefined) : undefined,
    gender: present(lead.gender),
    civilStatus: present(lead.civilStatus),
    email: present(lead.email),
    phone: present(lead.phone),
    documentType: present(lead.documentType),
    documentNumber: present(lead.clientIdentificator),
  }
}

/**
 * The hook the registration details form uses: `{ prefill, isLoading }`. `prefill` is null while loading,
 * without a lead, or after any failure.
 */
export function useLeadPrefill(): { prefill: LeadDetailsPrefill | null; isLoading: boolean } {
  const { lead, isLoading } = useLead()
  return { prefill: lead ? toDetailsPrefill(lead) : null, isLoading }
}
