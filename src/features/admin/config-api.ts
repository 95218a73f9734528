/**
 * The configuration screens' calls (issue 19 item 6; domain/contract/lending-config.ts and approvals.ts): the
 * documents in force, a proposal, the proposals waiting for a second administrator, the decision, the versions.
 */
import type { Approval } from '../../../domain/contract/approvals'
import { approveProposal, listApprovals, rejectProposal } from '../../../domain/contract/approvals'
import type { Page } from '../../../domain/contract/define'
import {
  type ConfigKey,
  type ConfigVersion,
  getLendingConfig,
  listConfigVersions,
  saveConfig,
} from '../../../domain/contract/lending-config'
import type { ApiClient } from '../../api/client'

export const configQueryKeys = {
  all: ['admin', 'config'] as const,
  lending: ['admin', 'config', 'lending'] as const,
  proposals: ['admin', 'config', 'proposals'] as const,
  versions: ['admin', 'config', 'versions'] as const,
}

export const fetchLending = (api: ApiClient, signal?: AbortSignal) =>
  api.call(getLendingConfig, {}, { signal })

export const fetchProposals = async (api: ApiClient, signal?: AbortSignal) =>
  (
    (await api.call(
      listApprovals,
      { query: { status: 'pending', kind: 'config.change', perPage: 50 } },
      { signal },
    )) as unknown as Page<Approval>
  ).items

export const fetchVersions = async (api: ApiClient, signal?: AbortSignal) =>
  (
    (await api.call(
      listConfigVersions,
      { query: { perPage: 50 } },
      { signal },
    )) as unknown as Page<ConfigVersion>
  ).items

export const proposeChange = (
  api: ApiClient,
  key: ConfigKey,
  body: { value: unknown; note: string; effectiveAt?: string },
) => api.call(saveConfig, { params: { key }, body })

export const approve = (api: ApiClient, id: number) => api.call(approveProposal, { params: { id }, body: {} })

export const reject = (api: ApiClient, id: number, reason: string) =>
  api.call(rejectProposal, { params: { id }, body: { reason } })
