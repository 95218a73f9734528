/**
 * Affiliate leads (docs/decisions/0014): what an affiliate knows about a visitor it sends to registration,
 * behind an unguessable id. A lead is open until it expires or a sign-up uses it; the sign-up links it to the
 * new client and closes it, so the personal data it holds is served to one visitor once.
 */
import { bigint, date, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { client } from './schema-identity'

const ts = (name: string) => timestamp(name, { withTimezone: true })

export const affiliateLead = pgTable(
  'affiliate_lead',
  {
    /** Random v4 UUID: the lead link's `lead_id`. */
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name'),
    middleName: text('middle_name'),
    lastName: text('last_name'),
    /** Identity document type code (SSS, UMID, PP, DL, POSTAL_ID, NATIONAL_ID) and its number. */
    documentType: text('document_type'),
    clientIdentificator: text('client_identificator'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    gender: text('gender'),
    civilStatus: text('civil_status'),
    email: text('email'),
    phone: text('phone').notNull(),
    /** The Affiliate model: partner, code, campaign, source, optionalParam. */
    partner: text('partner').notNull(),
    code: text('code'),
    campaign: text('campaign'),
    source: text('source'),
    optionalParam: text('optional_param'),
    /** The back-office user who created it; null for a seed or an integration. */
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    /** Set when a sign-up used the lead: closed from then on. */
    usedAt: ts('used_at'),
    clientId: bigint('client_id', { mode: 'number' }).references(() => client.id),
  },
  (t) => [
    index('affiliate_lead_client_idx').on(t.clientId),
    index('affiliate_lead_partner_idx').on(t.partner),
  ],
)
