/**
 * The client desk's calls (issue 19, item 3): the search, the parts of one client's file, a document's PDF and
 * the actions. Every call goes through its contract (domain/contract/clients.ts); the query keys keep each part
 * of the file apart, so an action refreshes only what it changed.
 */
import { issueSingleLink, setClientStatus } from '../../../domain/contract/back-office'
import {
  downloadClientDocument,
  getClientContacts,
  getClientDesk,
  getClientLoans,
  getClientMessages,
  getClientTimeline,
  type PromiseBody,
  recordPromiseToPay,
  resendClientCode,
  searchClients,
  setClientBlacklisted,
} from '../../../domain/contract/clients'
import type { ApiClient } from '../../api/client'

export const clientQueryKeys = {
  search: (term: string, page: number, perPage: number) =>
    ['admin', 'clients', 'search', term, page, perPage] as const,
  /** Everything about one client: what an action invalidates. */
  client: (id: number) => ['admin', 'clients', id] as const,
  desk: (id: number) => ['admin', 'clients', id, 'desk'] as const,
  timeline: (id: number, page: number) => ['admin', 'clients', id, 'timeline', page] as const,
  loans: (id: number) => ['admin', 'clients', id, 'loans'] as const,
  messages: (id: number, page: number) => ['admin', 'clients', id, 'messages', page] as const,
  contacts: (id: number, page: number) => ['admin', 'clients', id, 'contacts', page] as const,
}

export const CLIENTS_PER_PAGE = 20
export const TIMELINE_PER_PAGE = 200
export const MESSAGES_PER_PAGE = 20

export const fetchClients = (
  api: ApiClient,
  term: string,
  page: number,
  perPage: number,
  signal?: AbortSignal,
) => api.call(searchClients, { query: { search: term || undefined, page, perPage } }, { signal })

export const fetchDesk = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.call(getClientDesk, { params: { id } }, { signal })

export const fetchTimeline = (api: ApiClient, id: number, page: number, signal?: AbortSignal) =>
  api.call(getClientTimeline, { params: { id }, query: { page, perPage: TIMELINE_PER_PAGE } }, { signal })

export const fetchLoans = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.call(getClientLoans, { params: { id } }, { signal })

export const fetchMessages = (api: ApiClient, id: number, page: number, signal?: AbortSignal) =>
  api.call(getClientMessages, { params: { id }, query: { page, perPage: MESSAGES_PER_PAGE } }, { signal })

export const fetchContacts = (api: ApiClient, id: number, page: number, signal?: AbortSignal) =>
  api.call(getClientContacts, { params: { id }, query: { page, perPage: MESSAGES_PER_PAGE } }, { signal })

export const fetchDocument = (api: ApiClient, id: number, kind: 'loan' | 'amendment', documentId: string) =>
  api.call(downloadClientDocument, { params: { id, kind, documentId } })

export const blockClient = (api: ApiClient, id: number, blocked: boolean) =>
  api.call(setClientStatus, { params: { id }, body: { status: blocked ? 2 : 1 } })

export const blacklistClient = (api: ApiClient, id: number, blacklisted: boolean) =>
  api.call(setClientBlacklisted, { params: { id }, body: { blacklisted } })

export const resendCode = (api: ApiClient, id: number) => api.call(resendClientCode, { params: { id } })

export const singleLink = (api: ApiClient, id: number) => api.call(issueSingleLink, { params: { id } })

export const recordPromise = (api: ApiClient, id: number, body: PromiseBody) =>
  api.call(recordPromiseToPay, { params: { id }, body })
