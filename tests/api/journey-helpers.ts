/**
 * Shared steps of the journey API tests: a small PSGC tree, valid bodies for every step, multipart uploads, a
 * walk to any step, and a fingerprint of everything a client has written (to prove a refused call wrote nothing).
 */
import { count, eq } from 'drizzle-orm'
import type { JourneyStep } from '../../domain/journey/client-journey.machine'
import { psgcArea } from '../../server/db/schema'
import { client } from '../../server/db/schema-identity'
import {
  bankDataAttempt,
  clientAddress,
  clientContact,
  clientGeo,
  clientJourney,
  clientProfile,
  disbursementEntry,
  identityDocument,
  uploadedFile,
  verificationSession,
} from '../../server/db/schema-journey'
import { type Answer, call, type SignedUp, type TestApp, verifiedClient } from './identity-helpers'

export const NCR = '1300000000'
export const QUEZON_CITY = '1381300000'
export const QC_BARANGAY = '1381300001'
export const CENTRAL_VISAYAS = '0700000000'
export const CEBU_PROVINCE = '0702200000'
export const ARGAO = '0702205000'
export const ARGAO_BARANGAY = '0702205001'

/** Enough of the PSGC for the address rules (the full tree is tested in reference.test.ts and costs a second). */
export async function seedSmallPsgc(t: TestApp) {
  await t.database.db
    .insert(psgcArea)
    .values([
      { code: NCR, level: 'region', name: 'NCR', parentCode: null, regionCode: NCR },
      { code: QUEZON_CITY, level: 'city', name: 'Quezon City', parentCode: NCR, regionCode: NCR },
      { code: QC_BARANGAY, level: 'barangay', name: 'Alicia', parentCode: QUEZON_CITY, regionCode: NCR },
      {
        code: CENTRAL_VISAYAS,
        level: 'region',
        name: 'Region VII',
        parentCode: null,
        regionCode: CENTRAL_VISAYAS,
      },
      {
        code: CEBU_PROVINCE,
        level: 'province',
        name: 'Cebu',
        parentCode: CENTRAL_VISAYAS,
        regionCode: CENTRAL_VISAYAS,
      },
      {
        code: ARGAO,
        level: 'muncity',
        name: 'Argao',
        parentCode: CEBU_PROVINCE,
        regionCode: CENTRAL_VISAYAS,
      },
      {
        code: ARGAO_BARANGAY,
        level: 'barangay',
        name: 'Alambijud',
        parentCode: ARGAO,
        regionCode: CENTRAL_VISAYAS,
      },
    ])
    .onConflictDoNothing()
}

export const details = (email: string, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Juan',
  middleName: 'Santos',
  lastName: 'Dela Cruz',
  birthDate: '1990-05-17',
  gender: 'male',
  civilStatus: 'married',
  email,
  ...overrides,
})
export const employment = {
  employmentType: 'employed_private',
  companyName: 'Ayala Land Inc.',
  monthlyIncome: '28000',
  monthlyExpenses: '12000',
}
export const reference = { fullName: 'Maria Dela Cruz', relation: 'spouse', phone: '09998887766' }
export const address = {
  regionId: NCR,
  cityId: QUEZON_CITY,
  districtId: QUEZON_CITY,
  wardId: QC_BARANGAY,
  street: '12 Kalayaan Ave.',
}
export const identityDoc = { documentType: 'SSS', documentNumber: '34-1234567-8' }

export const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 2, 3,
])
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48])
export const PDF = new TextEncoder().encode('%PDF-1.4\n%\xe2\xe3\n1 0 obj<<>>endobj\n%%EOF\n')

export async function upload(
  t: TestApp,
  path: string,
  token: string,
  fields: Record<string, string | Uint8Array>,
  fileName = 'photo.bin',
): Promise<Answer> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value)
    else form.append(name, new Blob([value as BlobPart], { type: 'application/octet-stream' }), fileName)
  }
  // Serialised first so the request carries a Content-Length, as a browser's FormData upload does.
  const encoded = new Response(form)
  const bytes = await encoded.arrayBuffer()
  const res = await t.request(`/web${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': encoded.headers.get('content-type') ?? '',
      'content-length': String(bytes.byteLength),
    },
    body: bytes,
  })
  return { res, status: res.status, body: (await res.json()) as Answer['body'] }
}

export const uploadIdPhoto = (t: TestApp, token: string, type = 'front', file: Uint8Array = JPEG) =>
  upload(t, '/private/client/id-document/upload', token, {
    type,
    file,
    capturedAt: new Date().toISOString(),
  })

export async function expectOk(answer: Promise<Answer> | Answer, status = 200): Promise<Answer> {
  const a = await answer
  if (a.status !== status)
    throw new Error(`expected ${status}, got ${a.status}: ${JSON.stringify(a.body.response)}`)
  return a
}

export const flow = async (t: TestApp, token: string) =>
  (await call<{ step: JourneyStep; status: string }>(t, 'GET', '/private/client/flow', undefined, { token }))
    .body.data

/** The order of the steps, and the call that completes each one with valid input. */
export const stepOrder: JourneyStep[] = [
  'new_client_created',
  'work_info',
  'relative_info',
  'address',
  'document_upload',
  'veriff',
  'kontomatik',
  'disbursement_type',
  'no_loan_page',
]

export async function completeStep(t: TestApp, c: SignedUp, step: JourneyStep) {
  const opts = { token: c.token }
  switch (step) {
    case 'new_client_created':
      return expectOk(call(t, 'PUT', '/private/client', details(c.email), opts))
    case 'work_info':
      return expectOk(call(t, 'PUT', '/private/client/complete-step-two', employment, opts))
    case 'relative_info':
      return expectOk(call(t, 'PUT', '/private/client/complete-step-three', reference, opts))
    case 'address':
      return expectOk(call(t, 'PUT', '/private/client/complete-step-four', address, opts))
    case 'document_upload':
      await expectOk(uploadIdPhoto(t, c.token), 201)
      return expectOk(call(t, 'POST', '/private/client/id-document/finish', identityDoc, opts))
    case 'veriff': {
      const session = await expectOk(
        call<{ id: string }>(t, 'POST', '/private/client/veriff/session', {}, opts),
        201,
      )
      return expectOk(
        call(t, 'GET', `/private/client/veriff/decision/${session.body.data.id}`, undefined, opts),
      )
    }
    case 'kontomatik':
      return expectOk(call(t, 'POST', '/private/client/kontomatik/skip', {}, opts))
    case 'disbursement_type':
      await expectOk(
        call(
          t,
          'POST',
          '/private/client/disbursement-type',
          { type: 'cash_pickup', provider: 'cebuana' },
          opts,
        ),
        201,
      )
      return expectOk(call(t, 'PUT', '/private/client/finish', {}, opts))
    default:
      throw new Error(`no completing call for ${step}`)
  }
}

/** A verified client whose journey stands at `step`. */
export async function clientAt(
  t: TestApp,
  step: JourneyStep,
  overrides: Parameters<typeof verifiedClient>[1] = {},
) {
  const c = await verifiedClient(t, overrides)
  for (const s of stepOrder) {
    if (s === step) return c
    await completeStep(t, c, s)
  }
  throw new Error(`${step} is not on the registration path`)
}

/** Row counts and the journey row of one client: equal before and after means nothing was written. */
export async function fingerprint(t: TestApp, clientId: number) {
  const db = t.database.db
  const contacts = await db
    .select({ n: count() })
    .from(clientContact)
    .where(eq(clientContact.clientId, clientId))
  const geo = await db.select({ n: count() }).from(clientGeo).where(eq(clientGeo.clientId, clientId))
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0] ?? null
  return {
    client: await one(db.select().from(client).where(eq(client.id, clientId))),
    journey: await one(db.select().from(clientJourney).where(eq(clientJourney.clientId, clientId))),
    profile: await one(db.select().from(clientProfile).where(eq(clientProfile.clientId, clientId))),
    address: await one(db.select().from(clientAddress).where(eq(clientAddress.clientId, clientId))),
    document: await one(db.select().from(identityDocument).where(eq(identityDocument.clientId, clientId))),
    contacts: contacts[0]!.n,
    geo: geo[0]!.n,
    files: await db.select().from(uploadedFile).where(eq(uploadedFile.clientId, clientId)),
    sessions: await db.select().from(verificationSession).where(eq(verificationSession.clientId, clientId)),
    bankAttempts: await db.select().from(bankDataAttempt).where(eq(bankDataAttempt.clientId, clientId)),
    payouts: await db.select().from(disbursementEntry).where(eq(disbursementEntry.clientId, clientId)),
  }
}
