/**
 * Who in the back office may do what (docs/decisions/0031-back-office-roles.md). Every back-office contract names
 * the one permission it needs (`permission` in domain/contract/define.ts); the server checks it on every call
 * (server/auth/authenticate.ts) against this one table, the admin screens hide what a role cannot do by the same
 * table, and tests/api/back-office-roles.test.ts walks every back-office route with every role against it.
 *
 * A permission names an action, not a screen. Maker-checker actions (a reversal, a write-off, a debt sale, a
 * configuration change) are proposed and approved under the same permission, by two different users.
 */
import * as v from 'valibot'

export const roles = ['administrator', 'underwriter', 'collections', 'support', 'auditor'] as const
export type Role = (typeof roles)[number]
export const roleSchema = v.picklist(roles)

export const permissions = [
  /** Refresh, log out, read one's own account: every logged-in back-office user. */
  'session',
  'users.read',
  'users.manage',
  'audit.read',
  'clients.read',
  /** Block, unblock, blacklist a client. */
  'clients.status',
  'clients.single-link',
  'clients.resend-code',
  'collections.promise',
  'outbox.read',
  'affiliates.leads',
  'offers.read',
  'applications.read',
  'applications.assign',
  'applications.decide',
  'config.read',
  /** Propose a configuration change and approve another administrator's proposal. */
  'config.change',
  'content.read',
  /** Banners, promo menu items and the installable-app entry. */
  'content.manage',
  'payments.read',
  /** Record a payment by hand, assign an unmatched one, reconcile with the gateway. */
  'payments.post',
  'payments.reverse',
  /** Refund a loan's credit to the client's payout account (or retry a failed refund). */
  'payments.refund',
  'loans.read',
  'loans.hold',
  'loans.cancel',
  'loans.extend',
  'loans.write-off',
  'debt.read',
  'debt.sell',
  'debt.forward',
  'agencies.manage',
  /** The live statecharts: clients and loans per state now, and the transitions over a date range. */
  'statecharts.read',
  /** The sandbox clock, sandbox payments and scenarios (never in production without the sandbox switch). */
  'sandbox',
] as const
export type Permission = (typeof permissions)[number]

const readOnly = permissions.filter((permission) => permission.endsWith('.read'))

/** The table. An auditor reads everything and changes nothing; an administrator may do everything. */
export const rolePermissions: Record<Role, readonly Permission[]> = {
  administrator: permissions,
  underwriter: [
    'session',
    'clients.read',
    'offers.read',
    'applications.read',
    'applications.assign',
    'applications.decide',
    'config.read',
    'content.read',
    'loans.read',
    'payments.read',
    'statecharts.read',
  ],
  collections: [
    'session',
    'clients.read',
    'clients.single-link',
    'collections.promise',
    'outbox.read',
    'config.read',
    'content.read',
    'loans.read',
    'loans.hold',
    'loans.extend',
    'loans.write-off',
    'payments.read',
    'payments.post',
    'payments.reverse',
    'payments.refund',
    'debt.read',
    'debt.sell',
    'debt.forward',
    'statecharts.read',
  ],
  support: [
    'session',
    'clients.read',
    'clients.status',
    'clients.single-link',
    'clients.resend-code',
    'outbox.read',
    'affiliates.leads',
    'offers.read',
    'applications.read',
    'config.read',
    'content.read',
    'loans.read',
    'loans.hold',
    'loans.cancel',
    'loans.extend',
    'payments.read',
    'statecharts.read',
  ],
  auditor: ['session', 'audit.read', ...readOnly, 'outbox.read'],
}

const granted = new Map<string, ReadonlySet<Permission>>(
  Object.entries(rolePermissions).map(([role, list]) => [role, new Set(list)]),
)

/** Whether a user holding `userRoles` may do `permission`. Unknown role names grant nothing. */
export function mayDo(userRoles: readonly string[], permission: Permission): boolean {
  return userRoles.some((role) => granted.get(role)?.has(permission) ?? false)
}

/** The roles that hold a permission, for the error a refused user reads and for the admin screens. */
export const rolesWith = (permission: Permission): Role[] =>
  roles.filter((role) => rolePermissions[role].includes(permission))
