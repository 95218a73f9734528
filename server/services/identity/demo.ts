/**
 * A demo client for local use and QA (never in production): `npm start` prints its login. It is created with a
 * complete registration and its journey at the ready-to-apply step (`no_loan_page`), so it can apply from
 * /application/apply straight away and, with the sandbox scoring (first name "Juan": approved) and payout
 * (account not ending in 0000 or 9999: paid), walk the whole approved path.
 *
 * Every registration step runs as the journey transaction of the event the matching API call sends
 * (server/services/journey/journey.ts), so the data and the journey snapshot are written together and agree.
 * Idempotent: a step the journey has passed is not written again, so a restart leaves the client where it is
 * (a client who applied, or changed its password, keeps that). Only the identity-document photo is left out:
 * the seed has no camera, and the photo is checked by the upload route, not by the journey.
 */

import { and, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { DomainError } from '../../../domain/errors'
import { eventsAcceptedAt, type JourneyEventType } from '../../../domain/journey/client-journey.machine'
import {
  addressSchema,
  detailsSchema,
  employmentSchema,
  identityDocumentSchema,
  payoutSchema,
  referenceSchema,
} from '../../../domain/journey/fields'
import type { Db, Tx } from '../../db/client'
import { bankDataAttempt, verificationSession } from '../../db/schema-journey'
import type { AppDeps } from '../../deps'
import { jobActor, journeyTransaction, readJourney } from '../journey/journey'
import { addDisbursement, assertPayoutSelected } from '../journey/payout'
import {
  addContact,
  addressViolations,
  writeAddress,
  writeDetails,
  writeEmployment,
} from '../journey/registration'
import { writeIdentityDocument } from '../journey/uploads'
import { findClientByLogin, markPhoneVerified, signUp } from './clients'

export const DEMO_CLIENT = { phone: '09170000001', email: 'demo@hiram.local', password: 'demo1234' } as const

/** What the demo client "typed" in each step, parsed by the same schemas as the API bodies. */
export const DEMO_REGISTRATION = {
  details: {
    firstName: 'Juan',
    middleName: 'Santos',
    lastName: 'Dela Cruz',
    birthDate: '1990-05-17',
    gender: 'male',
    civilStatus: 'married',
  },
  employment: {
    employmentType: 'employed_private',
    companyName: 'Ayala Land Inc.',
    monthlyIncome: '28000',
    monthlyExpenses: '12000',
  },
  reference: { fullName: 'Maria Dela Cruz', relation: 'spouse', phone: '09998887766' },
  // PSGC: National Capital Region, Quezon City (a city without districts is its own district), barangay Alicia.
  address: {
    regionId: '1300000000',
    cityId: '1381300000',
    districtId: '1381300000',
    wardId: '1381300001',
    street: '12 Kalayaan Ave.',
  },
  identityDocument: { documentType: 'SSS', documentNumber: '34-1234567-8' },
  // BDO Unibank (institution 1); the sandbox payout pays any account not ending in 0000 or 9999.
  payout: { type: 'bank_transfer', bankId: 1, accountNumber: '001234567890' },
} as const

type SeedDeps = Pick<AppDeps, 'database' | 'logger'>

/**
 * The events of the registration path, each with the write its API call performs. Keyed by event: the step
 * comes from the journey model (the one event of this table the current step accepts).
 */
function demoWrites(
  clientId: number,
  email: string,
  now: Date,
): Partial<Record<JourneyEventType, (tx: Tx) => Promise<unknown>>> {
  const r = DEMO_REGISTRATION
  return {
    SUBMIT_DETAILS: (tx) =>
      writeDetails(tx, clientId, v.parse(detailsSchema, { ...r.details, email }), email, now),
    SUBMIT_EMPLOYMENT: (tx) => writeEmployment(tx, clientId, v.parse(employmentSchema, r.employment), now),
    SUBMIT_REFERENCE: (tx) =>
      addContact(tx, clientId, 'reference', v.parse(referenceSchema, r.reference), now),
    SUBMIT_ADDRESS: (tx) => writeAddress(tx, clientId, v.parse(addressSchema, r.address), now),
    FINISH_ID_DOCUMENT: (tx) =>
      writeIdentityDocument(tx, clientId, v.parse(identityDocumentSchema, r.identityDocument), now),
    // Opening the session and its decision, as the sandbox provider would answer for "Dela Cruz": approved.
    START_VERIFICATION: (tx) =>
      tx.insert(verificationSession).values({
        clientId,
        provider: 'sandbox',
        providerRef: `demo-${clientId}`,
        url: 'about:blank',
        status: 'created',
        createdAt: now,
      }),
    SKIP_BANK_DATA: (tx) =>
      tx.insert(bankDataAttempt).values({ clientId, bank: '', outcome: 'skipped', createdAt: now }),
    SAVE_PAYOUT: (tx) => addDisbursement(tx, clientId, v.parse(payoutSchema, r.payout), now),
  }
}

/** The demo client's registration is walked by the seed (at start-up), not by a call: a job in the history. */
const demoSeed = jobActor('demo-seed')

async function approveVerification(deps: SeedDeps, clientId: number, now: Date) {
  await journeyTransaction(deps, clientId, { type: 'VERIFICATION_APPROVED' }, demoSeed, now, (tx) =>
    tx
      .update(verificationSession)
      .set({ status: 'approved', decidedAt: now })
      .where(and(eq(verificationSession.clientId, clientId), eq(verificationSession.status, 'created'))),
  )
}

/**
 * Walks the demo client's journey from wherever it stands to `no_loan_page`, one journey transaction per step.
 * A step the journey does not offer (the client applied, or was sent elsewhere) ends the walk.
 */
async function completeDemoRegistration(deps: SeedDeps, clientId: number, email: string, now: Date) {
  const db = deps.database.db
  const violations = await addressViolations(db, v.parse(addressSchema, DEMO_REGISTRATION.address))
  // Without the PSGC tree (a test database seeded without it) the address cannot be valid: stop before it.
  const addressValid = violations.length === 0
  const writes = demoWrites(clientId, email, now)
  for (let guard = 0; guard < 12; guard++) {
    const step = (await readJourney(db, clientId)).value
    if (step === 'no_loan_page') return step
    if (step === 'address' && !addressValid) return step
    if (step === 'veriff') {
      const [open] = await db
        .select({ id: verificationSession.id })
        .from(verificationSession)
        .where(eq(verificationSession.clientId, clientId))
      if (open) {
        await approveVerification(deps, clientId, now)
        continue
      }
    }
    if (step === 'disbursement_type') {
      const selected = await db.transaction((tx) =>
        assertPayoutSelected(tx, clientId).then(
          () => true,
          () => false,
        ),
      )
      if (selected) {
        await journeyTransaction(deps, clientId, { type: 'FINISH' }, demoSeed, now, (tx) =>
          assertPayoutSelected(tx, clientId),
        )
        continue
      }
    }
    const event = eventsAcceptedAt(step).find((type) => writes[type])
    if (!event) return step
    await journeyTransaction(deps, clientId, { type: event }, demoSeed, now, writes[event]!)
  }
  throw new Error('the demo registration did not reach no_loan_page')
}

export async function seedDemoClient(deps: SeedDeps, now = new Date()) {
  const db: Db = deps.database.db
  let row = await findClientByLogin(db, DEMO_CLIENT.phone)
  if (!row) {
    try {
      const created = await signUp(
        db,
        {
          mobilePhone: { number: DEMO_CLIENT.phone },
          email: DEMO_CLIENT.email,
          password: DEMO_CLIENT.password,
          passwordRepeat: DEMO_CLIENT.password,
          language: 'en',
          consents: { terms: true, privacy: true, marketing: false },
        },
        now,
      )
      await markPhoneVerified(db, created.id, now)
    } catch (error) {
      // Another process seeded it first, or someone signed up with the demo e-mail: either way, nothing to do.
      if (!(error instanceof DomainError)) throw error
    }
    row = await findClientByLogin(db, DEMO_CLIENT.phone)
  }
  if (row?.phoneVerifiedAt) {
    try {
      await completeDemoRegistration(deps, row.id, row.email, now)
    } catch (error) {
      // A second process walking the same steps is refused with journeyStepMismatch: it finishes the walk.
      if (!(error instanceof DomainError)) throw error
      await completeDemoRegistration(deps, row.id, row.email, now)
    }
  }
  return DEMO_CLIENT
}
