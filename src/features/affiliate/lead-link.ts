/**
 * Lead links (`/registration?lead_id=<uuid>&redirected-from-affiliates=true`, docs/decisions/0014): the route's
 * search validation, which turns a bad lead link into the 404 page, and the `leadId` cookie that remembers the
 * lead for 259200 seconds.
 */
import { notFound, SearchParamError } from '@tanstack/react-router'
import * as v from 'valibot'
import {
  LEAD_COOKIE,
  LEAD_COOKIE_MAX_AGE_S,
  type LeadLinkSearch,
  leadIdSchema,
  leadLinkSearchSchema,
} from '../../../domain/affiliate-link'
import { readCookie, removeCookie, writeCookie } from '../../app/cookies'

/** `validateSearch` of /registration: the lead link's two parameters, or none. Throws on anything else. */
export function validateLeadLinkSearch(search: Record<string, unknown>): LeadLinkSearch {
  return v.parse(leadLinkSearchSchema, search)
}

/**
 * `onError` of /registration: a search that failed validation is a link to nothing, so the 404 page shows
 * (TanStack hands validation errors to `onError`; what it throws replaces them). Other errors pass through.
 */
export function leadLinkNotFound(error: unknown): void {
  if (error instanceof SearchParamError) throw notFound()
}

/** Remembers the lead of a validated lead link: path '/', max age 259200 seconds (spec section 9). */
export function rememberLead(leadId: string) {
  writeCookie(LEAD_COOKIE, leadId, LEAD_COOKIE_MAX_AGE_S)
}

/** The remembered lead id, or null when there is none or the cookie holds something else. */
export function rememberedLeadId(): string | null {
  const parsed = v.safeParse(leadIdSchema, readCookie(LEAD_COOKIE) ?? '')
  return parsed.success ? parsed.output : null
}

/** After a sign-up the lead is used up (the server closed it), so the cookie has nothing left to say. */
export const forgetLead = () => removeCookie(LEAD_COOKIE)
