/**
 * Who is who: clients, back-office users, their consents, sessions, one-time codes, rate-limit counters and
 * the outbox of messages sent through the SMS and e-mail providers.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

const ts = (name: string) => timestamp(name, { withTimezone: true })
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()

export const client = pgTable(
  'client',
  {
    id: id(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    /** 11 digits, 09XXXXXXXXX. */
    phone: text('phone').notNull(),
    /** Lower-cased. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    language: text('language').notNull().default('en'),
    /** Client status codes of spec section 4: 1 active, 2 blocked, 3 blacklisted, 4 verification, 5 bank account select. */
    status: smallint('status').notNull().default(1),
    firstName: text('first_name'),
    phoneVerifiedAt: ts('phone_verified_at'),
    emailVerifiedAt: ts('email_verified_at'),
    /** Campaign parameters (affiliate cookie) captured at sign-up. */
    campaign: jsonb('campaign'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('client_phone_uq').on(t.phone),
    uniqueIndex('client_email_uq').on(t.email),
    uniqueIndex('client_uuid_uq').on(t.uuid),
  ],
)

/** Each consent a Philippine lender must record (RA 10173): what, which text version, granted or not, when. */
export const consent = pgTable(
  'consent',
  {
    id: id(),
    clientId: bigint('client_id', { mode: 'number' })
      .notNull()
      .references(() => client.id),
    kind: text('kind').notNull(),
    version: text('version').notNull(),
    granted: boolean('granted').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('consent_client_idx').on(t.clientId, t.kind)],
)

export const backOfficeUser = pgTable(
  'back_office_user',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** Null until an invited user accepts the invitation and chooses one. */
    passwordHash: text('password_hash'),
    /** domain/back-office/roles.ts; the permissions are the union of the roles'. */
    roles: text('roles').array().notNull().default(sql`ARRAY[]::text[]`),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** sha256 of the one-time invitation token, until it is used or expires. */
    inviteTokenHash: text('invite_token_hash'),
    inviteExpiresAt: ts('invite_expires_at'),
    invitedBy: bigint('invited_by', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('back_office_user_email_uq').on(t.email),
    uniqueIndex('back_office_user_invite_uq').on(t.inviteTokenHash),
  ],
)

/** A server-side session behind every token: logout, password change and blocking revoke it. */
export const session = pgTable(
  'session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectType: text('subject_type').notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    /** The session still needs a second factor; its tokens count as not logged in. */
    mfaPending: boolean('mfa_pending').notNull().default(false),
    /** Opened by a single-link (one-time token) login: my-loan only. */
    singleLink: boolean('single_link').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    /** sha256 of the device id the login came from: completing the second factor trusts this device. */
    deviceHash: text('device_hash'),
  },
  (t) => [index('session_subject_idx').on(t.subjectType, t.subjectId)],
)

/** One-time codes: only a hash is stored; bound to a purpose and a target (phone or e-mail). */
export const verificationCode = pgTable(
  'verification_code',
  {
    id: id(),
    purpose: text('purpose').notNull(),
    target: text('target').notNull(),
    codeHash: text('code_hash').notNull(),
    /** Who may use the code (`client:12`), so a code sent for one account never serves another. */
    owner: text('owner'),
    /**
     * Asked for from a device the owner has trusted before. Such codes have their own per-target budget, so a
     * stranger's requests never use up the owner's (docs/decisions/0006, "Abuse of other people's accounts").
     */
    requesterKnown: boolean('requester_known').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    invalidatedAt: ts('invalidated_at'),
  },
  (t) => [index('verification_code_target_idx').on(t.target, t.purpose, t.createdAt)],
)

/** Failed logins and other throttled actions, counted in the database so every server process shares them. */
export const throttleEvent = pgTable(
  'throttle_event',
  {
    id: id(),
    bucket: text('bucket').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('throttle_event_bucket_idx').on(t.bucket, t.at)],
)

/** Every SMS and e-mail the product sends, whichever provider delivers it. */
export const outboxMessage = pgTable(
  'outbox_message',
  {
    id: id(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    purpose: text('purpose').notNull(),
    provider: text('provider').notNull(),
    status: text('status').notNull().default('sent'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('outbox_recipient_idx').on(t.recipient, t.createdAt)],
)

/** Devices a subject completed a second factor on (or, for a client, logged in from first): sha256 of the id. */
export const trustedDevice = pgTable(
  'trusted_device',
  {
    id: id(),
    subjectType: text('subject_type').notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    deviceHash: text('device_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('trusted_device_uq').on(t.subjectType, t.subjectId, t.deviceHash)],
)

/**
 * One-time link tokens for the single-link (my-loan only) login. Only a sha256 of the token is stored; a token
 * is single use and expires.
 */
export const singleLinkToken = pgTable(
  'single_link_token',
  {
    id: id(),
    clientId: bigint('client_id', { mode: 'number' })
      .notNull()
      .references(() => client.id),
    tokenHash: text('token_hash').notNull(),
    /** The back-office user who issued it; null when issued by a system integration. */
    issuedBy: bigint('issued_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
  },
  (t) => [
    uniqueIndex('single_link_token_hash_uq').on(t.tokenHash),
    index('single_link_token_client_idx').on(t.clientId),
  ],
)
