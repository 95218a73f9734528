/**
 * What the registration steps write: details, employment, contacts, address and device location. Each function
 * runs inside a journey transaction (`tx`), after its input was validated.
 */
import { and, count, eq } from 'drizzle-orm'
import type { RegistrationData } from '../../../domain/contract/journey-answers'
import type { Violation } from '../../../domain/contract/wire'
import { DomainError, invalid } from '../../../domain/errors'
import type { Address, Details, Employment, Geo, Reference } from '../../../domain/journey/fields'
import { journeyMessageKeys } from '../../../domain/journey/fields'
import type { DbOrTx, Tx } from '../../db/client'
import { psgcArea } from '../../db/schema'
import { client } from '../../db/schema-identity'
import {
  clientAddress,
  clientContact,
  clientGeo,
  clientProfile,
  identityDocument,
} from '../../db/schema-journey'
import { listDistricts } from '../reference'

/** How many contacts besides the reference a client may name: enough for a family, not a phone book. */
export const MAX_ADDITIONAL_CONTACTS = 5

export async function findProfile(db: DbOrTx, clientId: number) {
  const [row] = await db.select().from(clientProfile).where(eq(clientProfile.clientId, clientId))
  return row ?? null
}

/** Step 1. A new e-mail replaces the sign-up one and is unverified until its code is entered. */
export async function writeDetails(
  tx: Tx,
  clientId: number,
  details: Details,
  currentEmail: string,
  now: Date,
) {
  const values = {
    firstName: details.firstName,
    middleName: details.middleName ?? null,
    lastName: details.lastName,
    birthDate: details.birthDate,
    gender: details.gender,
    civilStatus: details.civilStatus,
    detailsSource: 'client',
    detailsConfirmedAt: now,
    updatedAt: now,
  }
  await tx
    .insert(clientProfile)
    .values({ clientId, ...values })
    .onConflictDoUpdate({ target: clientProfile.clientId, set: values })
  await tx
    .update(client)
    .set({
      firstName: details.firstName,
      updatedAt: now,
      ...(details.email !== currentEmail ? { email: details.email, emailVerifiedAt: null } : {}),
    })
    .where(eq(client.id, clientId))
}

/** The client confirms details a back-office agent entered (a phone or branch registration). */
export async function confirmBackOfficeDetails(tx: Tx, clientId: number, now: Date) {
  const profile = await findProfile(tx, clientId)
  if (profile?.detailsSource !== 'back_office') {
    throw new DomainError(
      'conflict',
      'detailsMissing',
      'No details were entered for you by our staff: fill in your personal details instead.',
    )
  }
  await tx
    .update(clientProfile)
    .set({ detailsConfirmedAt: now, updatedAt: now })
    .where(eq(clientProfile.clientId, clientId))
  await tx.update(client).set({ firstName: profile.firstName, updatedAt: now }).where(eq(client.id, clientId))
}

/** Step 2. Amounts arrive in pesos and are kept in centavos like every amount. */
export async function writeEmployment(tx: Tx, clientId: number, employment: Employment, now: Date) {
  const updated = await tx
    .update(clientProfile)
    .set({
      employmentType: employment.employmentType,
      companyName: employment.companyName ?? null,
      monthlyIncome: employment.monthlyIncome * 100,
      monthlyExpenses: employment.monthlyExpenses * 100,
      employerPhone: employment.employerPhone ?? null,
      taxId: employment.taxId ?? null,
      updatedAt: now,
    })
    .where(eq(clientProfile.clientId, clientId))
    .returning({ clientId: clientProfile.clientId })
  // The machine only reaches work_info through details, so this is a broken invariant, not bad input.
  if (!updated.length) throw new Error(`client ${clientId} reached work_info without details`)
}

/** The reference's number must not be the client's own (spec: phone-error-taken). */
export function assertNotOwnPhone(reference: Reference, ownPhone: string) {
  if (reference.phone === ownPhone)
    throw invalid([{ propertyPath: 'phone', message: journeyMessageKeys.phoneTaken }])
}

export async function addContact(
  tx: Tx,
  clientId: number,
  kind: 'reference' | 'additional',
  reference: Reference,
  now: Date,
) {
  if (kind === 'additional') {
    const [row] = await tx
      .select({ n: count() })
      .from(clientContact)
      .where(and(eq(clientContact.clientId, clientId), eq(clientContact.kind, 'additional')))
    if ((row?.n ?? 0) >= MAX_ADDITIONAL_CONTACTS)
      throw new DomainError(
        'conflict',
        'contactLimit',
        `At most ${MAX_ADDITIONAL_CONTACTS} additional contacts.`,
      )
  }
  const [row] = await tx
    .insert(clientContact)
    .values({ clientId, kind, ...reference, createdAt: now })
    .returning()
  return row!
}

export async function listContacts(db: DbOrTx, clientId: number) {
  return db
    .select({
      id: clientContact.id,
      kind: clientContact.kind,
      fullName: clientContact.fullName,
      relation: clientContact.relation,
      phone: clientContact.phone,
    })
    .from(clientContact)
    .where(eq(clientContact.clientId, clientId))
    .orderBy(clientContact.id)
}

/**
 * The four codes must exist and nest exactly as the address selects offer them (docs/decisions/0004): a region,
 * a row directly under it, a district the district select lists for that row, a barangay of that district.
 * Reference data only: checked before the transaction.
 */
export async function addressViolations(db: DbOrTx, address: Address): Promise<Violation[]> {
  const bad = (propertyPath: string) => ({ propertyPath, message: journeyMessageKeys.invalidAddress })
  const area = async (code: string) => {
    const [row] = await db.select().from(psgcArea).where(eq(psgcArea.code, code))
    return row ?? null
  }
  const region = await area(address.regionId)
  if (region?.level !== 'region') return [bad('regionId')]
  const city = await area(address.cityId)
  if (!city || city.parentCode !== region.code || city.regionCode !== region.code) return [bad('cityId')]
  const districts = await listDistricts(db, city.code, { page: 1, perPage: 1000 })
  if (!districts.items.some((item) => item.id === address.districtId)) return [bad('districtId')]
  const ward = await area(address.wardId)
  if (ward?.level !== 'barangay' || ward.parentCode !== address.districtId) return [bad('wardId')]
  return []
}

export async function writeAddress(tx: Tx, clientId: number, address: Address, now: Date) {
  const values = {
    regionCode: address.regionId,
    cityCode: address.cityId,
    districtCode: address.districtId,
    wardCode: address.wardId,
    street: address.street,
    createdAt: now,
  }
  await tx
    .insert(clientAddress)
    .values({ clientId, ...values })
    .onConflictDoUpdate({ target: clientAddress.clientId, set: values })
}

export async function recordGeo(tx: Tx, clientId: number, geo: Geo, now: Date) {
  await tx.insert(clientGeo).values({ clientId, ...geo, accuracy: geo.accuracy ?? null, createdAt: now })
}

/**
 * Everything the registration steps stored, shaped like the forms' fields (amounts back in pesos, as typed). The
 * identity-document number is masked: the client typed it, and a stolen session should not read it back whole.
 */
export async function registrationData(db: DbOrTx, clientId: number): Promise<RegistrationData> {
  const profile = await findProfile(db, clientId)
  const [address] = await db.select().from(clientAddress).where(eq(clientAddress.clientId, clientId))
  const [document] = await db.select().from(identityDocument).where(eq(identityDocument.clientId, clientId))
  const pesos = (centavos: number | null) => (centavos === null ? null : String(centavos / 100))
  const masked = (value: string) => `${'*'.repeat(Math.max(0, value.length - 4))}${value.slice(-4)}`
  return {
    details: profile && {
      firstName: profile.firstName,
      middleName: profile.middleName,
      lastName: profile.lastName,
      birthDate: profile.birthDate,
      gender: profile.gender,
      civilStatus: profile.civilStatus,
      enteredBy: profile.detailsSource,
      confirmed: profile.detailsConfirmedAt !== null,
    },
    employment:
      profile?.employmentType == null
        ? null
        : {
            employmentType: profile.employmentType,
            companyName: profile.companyName,
            monthlyIncome: pesos(profile.monthlyIncome),
            monthlyExpenses: pesos(profile.monthlyExpenses),
            employerPhone: profile.employerPhone,
            taxId: profile.taxId,
          },
    contacts: await listContacts(db, clientId),
    address: address
      ? {
          regionId: address.regionCode,
          cityId: address.cityCode,
          districtId: address.districtCode,
          wardId: address.wardCode,
          street: address.street,
        }
      : null,
    identityDocument: document
      ? {
          documentType: document.documentType,
          documentNumber: masked(document.documentNumber),
          expiryDate: document.expiryDate,
        }
      : null,
  }
}
