/**
 * The back office's audit trail (issue 19 item 2, docs/decisions/0032-audit-trail.md): one append-only row per
 * back-office write (and per refused attempt), saying who, when, from which device, which call, what it touched
 * and the values before and after. Rows are never updated or deleted: a trigger refuses both, for every
 * database user, so not even a bug in our own code can rewrite history.
 */
import { sql } from 'drizzle-orm'
import { check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns'

export const auditEntry = pgTable(
  'audit_entry',
  {
    id: id(),
    at: ts('at').notNull().defaultNow(),
    /** The back-office user; null only for the system (a scheduled job acting on an approved proposal). */
    userId: ref('user_id'),
    sessionId: uuid('session_id'),
    /** sha256 of the device id the session was opened from (never the id itself). */
    deviceHash: text('device_hash'),
    /** The call, in the spec's notation: `POST /web/private/back-office/loan/{id}/write-off`. */
    call: text('call').notNull(),
    /** The permission the call needed (domain/back-office/roles.ts). */
    permission: text('permission').notNull(),
    /** `done`; `failed` (the call answered an error, its change rolled back); `refused` (the role may not). */
    outcome: text('outcome').notNull(),
    /** What was touched: `loan`, `client`, `config`, `banner`, ... and its id. */
    entity: text('entity'),
    entityId: text('entity_id'),
    /** The client the change concerns, so the client page and a search per client find it. */
    clientId: ref('client_id'),
    /** The request as validated: path parameters, query and body, secrets removed. */
    request: jsonb('request').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    /** A failed attempt's error, `kind:code` (`conflict:loanNotOverdue`). */
    error: text('error'),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_entry_at_idx').on(t.at),
    index('audit_entry_user_idx').on(t.userId, t.at),
    index('audit_entry_client_idx').on(t.clientId, t.at),
    check('audit_entry_outcome_ck', sql`${t.outcome} in ('done', 'failed', 'refused')`),
  ],
)
