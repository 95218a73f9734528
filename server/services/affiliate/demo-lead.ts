/**
 * The sandbox's demo lead (README, "Demo accounts and sandbox data"): a fixed, documented id so QA can open
 * `/registration?lead_id=<id>&redirected-from-affiliates=true` on a fresh `npm start`. Never in production.
 * Created once; a sign-up uses it up like any lead (make more with POST /web/private/back-office/affiliates/leads).
 */
import { leadLinkPath } from '../../../domain/affiliate'
import type { Db } from '../../db/client'
import { affiliateLead } from '../../db/schema-affiliate'

export const DEMO_LEAD = {
  id: 'de300000-1ead-4000-8000-000000000001',
  firstName: 'Juan',
  middleName: 'Santos',
  lastName: 'Dela Cruz',
  documentType: 'SSS',
  clientIdentificator: '3412345678',
  dateOfBirth: '1990-05-17',
  gender: 'male',
  civilStatus: 'single',
  email: 'lead@hiram.local',
  phone: '09170000002',
  partner: 'sandbox-partner',
  code: 'DEMO',
  campaign: 'demo-campaign',
  source: 'sandbox',
} as const

export const demoLeadPath = leadLinkPath(DEMO_LEAD.id)

/** Inserts the demo lead unless it exists (open or used); it stays open for a year. */
export async function seedDemoLead(db: Db, now = new Date()) {
  await db
    .insert(affiliateLead)
    .values({ ...DEMO_LEAD, createdAt: now, expiresAt: new Date(now.getTime() + 365 * 86_400_000) })
    .onConflictDoNothing()
  return { id: DEMO_LEAD.id, path: demoLeadPath }
}
