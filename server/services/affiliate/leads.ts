/**
 * Affiliate leads (docs/decisions/0014): created by the back office (or seeded in the sandbox), read by the
 * lead link's visitor while open, used up by the sign-up that follows. The id is a random UUID; an unknown, used
 * or expired lead all answer the same 404, so the endpoint tells nothing about which ids exist.
 */
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { LeadCreate } from '../../../domain/affiliate'
import type { LeadPrefill } from '../../../domain/contract/affiliate'
import { notFound } from '../../../domain/errors'
import type { DbOrTx } from '../../db/client'
import { affiliateLead } from '../../db/schema-affiliate'
import { limitPerAddress } from '../identity/throttle'

export type LeadRow = typeof affiliateLead.$inferSelect

export const leadNotFound = () => notFound('Lead')

/** Lead lookups per address in 10 minutes: a visitor needs a handful; walking ids needs billions. */
export const LEAD_LOOKUPS_PER_ADDRESS = 30

export async function createLead(db: DbOrTx, input: LeadCreate, createdBy: number | null, now: Date) {
  const [row] = await db
    .insert(affiliateLead)
    .values({
      firstName: input.firstName ?? null,
      middleName: input.middleName ?? null,
      lastName: input.lastName ?? null,
      documentType: input.documentType ?? null,
      clientIdentificator: input.clientIdentificator ?? null,
      dateOfBirth: input.dateOfBirth ?? null,
      gender: input.gender ?? null,
      civilStatus: input.civilStatus ?? null,
      email: input.email ?? null,
      phone: input.phone,
      partner: input.affiliate.partner,
      code: input.affiliate.code ?? null,
      campaign: input.affiliate.campaign ?? null,
      source: input.affiliate.source ?? null,
      optionalParam: input.affiliate.optionalParam ?? null,
      createdBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + input.ttlHours * 3600_000),
    })
    .returning()
  return row!
}

const open = (now: Date) => and(isNull(affiliateLead.usedAt), gt(affiliateLead.expiresAt, now))

/** An open (unused, unexpired) lead, or null. `id` must already be a validated UUID. */
export async function findOpenLead(db: DbOrTx, id: string, now: Date) {
  const [row] = await db
    .select()
    .from(affiliateLead)
    .where(and(eq(affiliateLead.id, id), open(now)))
  return row ?? null
}

/**
 * The prefill of an open lead for a visitor at `address`, under the per-address limit; an unknown, used or
 * expired lead is the same notFound.
 */
export async function lookUpLead(db: DbOrTx, id: string, address: string, now: Date): Promise<LeadPrefill> {
  await limitPerAddress(db, 'lead', address, LEAD_LOOKUPS_PER_ADDRESS, 10, now)
  const row = await findOpenLead(db, id, now)
  if (!row) throw leadNotFound()
  return leadPrefill(row)
}

/** The lead a sign-up used, for the client it now belongs to. */
export async function findClientLead(db: DbOrTx, clientId: number) {
  const [row] = await db.select().from(affiliateLead).where(eq(affiliateLead.clientId, clientId))
  return row ?? null
}

/**
 * Links an open lead to the client a sign-up just created and closes it, in the sign-up's transaction. Only
 * one sign-up can win a lead (the update's condition); a lead that is gone, used or expired is ignored (the
 * sign-up itself must not fail because a 72-hour cookie outlived its lead). Answers whether it was linked.
 */
export async function takeLead(db: DbOrTx, id: string, clientId: number, now: Date) {
  const used = await db
    .update(affiliateLead)
    .set({ usedAt: now, clientId })
    .where(and(eq(affiliateLead.id, id), open(now)))
    .returning({ id: affiliateLead.id })
  return used.length > 0
}

export function leadPrefill(row: LeadRow): LeadPrefill {
  return {
    leadId: row.id,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    documentType: row.documentType,
    clientIdentificator: row.clientIdentificator,
    dateOfBirth: row.dateOfBirth,
    gender: row.gender,
    civilStatus: row.civilStatus,
    email: row.email,
    phone: row.phone,
  }
}

export const affiliateOf = (row: LeadRow) => ({
  partner: row.partner,
  code: row.code,
  campaign: row.campaign,
  source: row.source,
  optionalParam: row.optionalParam,
})
