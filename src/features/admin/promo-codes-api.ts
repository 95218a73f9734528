/**
 * The promo-code screen's calls (issue 19 item 6; domain/contract/promo-codes.ts): the codes with their uses, a
 * proposal for a new code or a change, and the decided promo proposals (the codes' history). The pending ones and
 * their decision go through the generic approvals section (pending-approvals.tsx).
 */
import type { Approval } from '../../../domain/contract/approvals'
import { listApprovals } from '../../../domain/contract/approvals'
import type { Page } from '../../../domain/contract/define'
import {
  listPromoCodes,
  type PromoCodeView,
  proposePromoCode,
  proposePromoCodeChange,
} from '../../../domain/contract/promo-codes'
import type { PromoChange } from '../../../domain/pricing/promo-admin'
import type { ApiClient } from '../../api/client'

export const promoQueryKeys = {
  all: ['admin', 'promo-codes'] as const,
  list: ['admin', 'promo-codes', 'list'] as const,
  history: ['admin', 'promo-codes', 'history'] as const,
}

export const fetchPromoCodes = async (api: ApiClient, signal?: AbortSignal) =>
  (
    (await api.call(
      listPromoCodes,
      { query: { perPage: 200 } },
      { signal },
    )) as unknown as Page<PromoCodeView>
  ).items

export const fetchPromoHistory = async (api: ApiClient, signal?: AbortSignal) =>
  (
    (await api.call(
      listApprovals,
      { query: { status: 'decided', kind: 'promo_code', perPage: 50 } },
      { signal },
    )) as unknown as Page<Approval>
  ).items

export const proposePromo = (api: ApiClient, code: string, terms: PromoChange, change: boolean) =>
  change
    ? api.call(proposePromoCodeChange, { params: { code }, body: terms })
    : api.call(proposePromoCode, { body: { code, ...terms } })
