/**
 * The back office's debt calls (issue 18, items 3 and 4; domain/contract/debt.ts): the collection agencies, the
 * loans that may be sold or written off, selling, the sales, the payments to forward, writing a loan off.
 */
import {
  createCollectionAgency,
  listCollectionAgencies,
  listDebtForwards,
  listDebtSales,
  listDefaultCandidates,
  markDebtForwarded,
  sellDebt,
  writeOffLoan,
} from '../../../domain/contract/debt'
import type {
  CollectionAgency,
  DebtForward,
  DebtSale,
  DefaultCandidate,
} from '../../../domain/contract/debt-answers'
import type { Page } from '../../../domain/contract/define'
import type { ApiClient } from '../../api/client'

export const debtQueryKeys = {
  all: ['admin', 'debt'] as const,
  agencies: ['admin', 'debt', 'agencies'] as const,
  candidates: ['admin', 'debt', 'candidates'] as const,
  sales: ['admin', 'debt', 'sales'] as const,
  forwards: ['admin', 'debt', 'forwards'] as const,
}

export const fetchAgencies = async (api: ApiClient, signal?: AbortSignal) =>
  items<CollectionAgency>(await api.call(listCollectionAgencies, { query: { perPage: 200 } }, { signal }))

export const addAgency = (
  api: ApiClient,
  body: { name: string; phone: string; email: string; paymentInstructions: string },
) => api.call(createCollectionAgency, { body })

const items = <T>(page: unknown) => (page as Page<T>).items

export const fetchCandidates = async (api: ApiClient, signal?: AbortSignal) =>
  items<DefaultCandidate>(await api.call(listDefaultCandidates, { query: { perPage: 500 } }, { signal }))

export const fetchSales = async (api: ApiClient, signal?: AbortSignal) =>
  items<DebtSale>(await api.call(listDebtSales, { query: { perPage: 20 } }, { signal }))

export const fetchForwards = async (api: ApiClient, signal?: AbortSignal) =>
  items<DebtForward>(await api.call(listDebtForwards, { query: { status: 'pending' } }, { signal }))

export const sell = (api: ApiClient, body: { agencyId: number; loanIds: number[]; reason?: string }) =>
  api.call(sellDebt, { body })

export const writeOff = (api: ApiClient, loanId: number, reason: string) =>
  api.call(writeOffLoan, { params: { id: loanId }, body: { reason } })

export const markForwarded = (api: ApiClient, id: number) => api.call(markDebtForwarded, { params: { id } })
