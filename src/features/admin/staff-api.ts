/** The back office's users-and-roles and audit-trail calls (domain/contract/staff.ts). */

import type { Role } from '../../../domain/back-office/roles'
import type { Page } from '../../../domain/contract/define'
import {
  type AuditEntry,
  inviteUser,
  listAudit,
  listUsers,
  resendInvitation,
  type StaffUser,
  updateUser,
} from '../../../domain/contract/staff'
import type { ApiClient } from '../../api/client'

export type { AuditEntry, StaffUser }

export const staffQueryKeys = {
  users: (page: number) => ['admin', 'users', page] as const,
  audit: (filters: AuditFilters) => ['admin', 'audit', filters] as const,
}

export const fetchUsers = (api: ApiClient, page: number, signal?: AbortSignal) =>
  api.call(listUsers, { query: { page, perPage: 50 } }, { signal }) as Promise<Page<StaffUser>>

export const invite = (api: ApiClient, body: { email: string; name: string; roles: Role[] }) =>
  api.call(inviteUser, { body })

export const changeUser = (api: ApiClient, id: number, body: { roles?: Role[]; active?: boolean }) =>
  api.call(updateUser, { params: { id }, body })

export const reinvite = (api: ApiClient, id: number) => api.call(resendInvitation, { params: { id } })

export interface AuditFilters {
  clientId?: string
  userId?: string
  from?: string
  to?: string
  page: number
}

export const fetchAudit = (api: ApiClient, filters: AuditFilters, signal?: AbortSignal) =>
  api.call(
    listAudit,
    {
      query: {
        clientId: filters.clientId || undefined,
        userId: filters.userId || undefined,
        from: filters.from || undefined,
        to: filters.to || undefined,
        page: filters.page,
        perPage: 50,
      },
    },
    { signal },
  ) as Promise<Page<AuditEntry>>
