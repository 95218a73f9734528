/**
 * Behavioural and device data for scoring and fraud (issue 22 item 1, docs/decisions/0042): the browser's tracking
 * events, appended and never changed, and the fraud tools' session tokens issued to a browser. Migration
 * 0023_behavioural_device_data. Written only after the client consented to device data (consent kind
 * `device_data`); purged after 12 months (server/services/tracking/retention.ts).
 */
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns'
import { client } from './schema-identity'

/** One event of the spec's behavioural tracking: start, stop, or a page state (hidden, visible, before unload). */
export const behaviourEvent = pgTable(
  'behaviour_event',
  {
    id: id(),
    clientId: ref('client_id')
      .notNull()
      .references(() => client.id),
    /** The browser tab's tracking session (random, made by the browser). */
    sessionId: text('session_id').notNull(),
    type: text('type').notNull(),
    pageState: text('page_state'),
    /** The page's path, without its query (which may carry personal data). */
    path: text('path').notNull(),
    /** The event's order within its session, as the browser numbered it. */
    seq: integer('seq').notNull(),
    occurredAt: ts('occurred_at').notNull(),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [
    index('behaviour_event_client_idx').on(t.clientId, t.receivedAt),
    index('behaviour_event_received_idx').on(t.receivedAt),
  ],
)

/** A fraud tool's session tokens issued to a browser (hello-soda, or the device-fingerprint tools). */
export const fraudToolSession = pgTable(
  'fraud_tool_session',
  {
    id: id(),
    /** hello_soda | fraud_tools */
    kind: text('kind').notNull(),
    /** Null for hello-soda before sign-up (a public call). */
    clientId: ref('client_id').references(() => client.id),
    /** A hash of the browser's device id, never the id itself. */
    deviceHash: text('device_hash').notNull(),
    provider: text('provider').notNull(),
    tokens: jsonb('tokens').notNull(),
    /** The version of the device-data consent text the person agreed to. */
    consentVersion: text('consent_version').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('fraud_tool_session_client_idx').on(t.clientId, t.createdAt),
    index('fraud_tool_session_created_idx').on(t.createdAt),
  ],
)
