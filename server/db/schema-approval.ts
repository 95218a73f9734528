/**
 * Maker-checker (issue 19 items 5 and 6, docs/decisions/0035-maker-checker-and-config-versions.md).
 *
 * `approval`: one row per proposed action (a configuration change, a payment reversal, a write-off, a debt sale).
 * One user proposes, a different user holding the same permission approves or rejects it; approving executes the
 * action in the same transaction as the decision, so it happens exactly once (a reversal, a write-off, a debt sale:
 * in two phases, `executing` then `approved` or `failed`, docs/decisions/0035).
 *
 * `config_version`: every approved version of a configuration document, with who proposed and who approved it and
 * when it takes effect. The document in force for a key is the newest version whose effective time has passed.
 */
import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns'

export const approval = pgTable(
  'approval',
  {
    id: id(),
    /** The permission the action needs (domain/back-office/approvals.ts `approvalKinds`): the kind of proposal. */
    kind: text('kind').notNull(),
    /** What it is about: a configuration key, a payment id, a loan id. */
    subject: text('subject').notNull(),
    /** The action's input as validated when proposed. */
    payload: jsonb('payload').notNull(),
    note: text('note').notNull().default(sql`''`),
    /** pending | approved | rejected | executing | failed (the last two: kinds run in two phases) */
    status: text('status').notNull().default('pending'),
    proposedBy: ref('proposed_by').notNull(),
    proposedAt: ts('proposed_at').notNull().defaultNow(),
    decidedBy: ref('decided_by'),
    decidedAt: ts('decided_at'),
    /** A rejection's reason (required), or an approval's optional remark. */
    reason: text('reason'),
    /** What the executed action answered (the configuration version, the reversal). */
    result: jsonb('result'),
  },
  (t) => [
    index('approval_status_idx').on(t.status, t.id),
    check(
      'approval_status_ck',
      sql`${t.status} in ('pending', 'approved', 'rejected', 'executing', 'failed')`,
    ),
    uniqueIndex('approval_open_subject_uq')
      .on(t.kind, t.subject)
      .where(
        sql`${t.status} in ('pending', 'executing') and ${t.kind} in ('payments.reverse', 'loans.write-off')`,
      ),
    check('approval_four_eyes_ck', sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.proposedBy}`),
  ],
)

export const configVersion = pgTable(
  'config_version',
  {
    id: id(),
    key: text('key').notNull(),
    version: integer('version').notNull(),
    value: jsonb('value').notNull(),
    note: text('note').notNull().default(sql`''`),
    /** Null for the seed and for changes made by the system (a migration, a test's direct write). */
    proposedBy: ref('proposed_by'),
    approvedBy: ref('approved_by'),
    approvalId: ref('approval_id'),
    effectiveAt: ts('effective_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('config_version_key_version_uq').on(t.key, t.version),
    index('config_version_key_effective_idx').on(t.key, t.effectiveAt),
  ],
)
