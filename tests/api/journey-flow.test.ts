import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  eventsAcceptedAt,
  type JourneyEventDefinition,
  type JourneyEventType,
  journeyEventDefinitions,
  journeyEventTypes,
  journeySteps,
} from '../../domain/journey/client-journey.machine'
import { client } from '../../server/db/schema-identity'
import { clientContact, clientProfile } from '../../server/db/schema-journey'
import { createTestApp } from '../support/app'
import { type Answer, call, later, type TestApp, verifiedClient } from './identity-helpers'
import {
  ARGAO,
  ARGAO_BARANGAY,
  address,
  applyBody,
  CEBU_PROVINCE,
  CENTRAL_VISAYAS,
  clientAt,
  clientStepCalls,
  details,
  employment,
  expectOk,
  fingerprint,
  flow,
  NCR,
  pathTo,
  QUEZON_CITY,
  reference,
  seedSmallPsgc,
  type Walk,
  walkTo,
} from './journey-helpers'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
})
afterAll(async () => {
  await t?.close()
})

const violations = (answer: Answer) =>
  Object.fromEntries((answer.body.response.violations ?? []).map((v) => [v.propertyPath, v.message]))

describe('the journey from a verified phone to ready-to-apply', () => {
  it("walks the machine's path to ready-to-apply, each call moving the flow; /flow and /client-journey/current agree", async () => {
    const w = await walkTo(t, 'no_loan_page')
    const c = w.c
    expect(w.sent.map((e) => e.event)).toEqual(pathTo('no_loan_page').flatMap((e) => prerequisites(e)))
    const current = await call(t, 'GET', '/private/client/client-journey/current', undefined, {
      token: c.token,
    })
    expect(current.body.data).toEqual({ step: 'no_loan_page', status: 'active' })

    const events = t
      .logs()
      .filter((line) => line.event === 'journey.event' && line.clientId === c.clientId)
      .map((line) => `${line.from}>${line.to}`)
    expect(events).toEqual(w.sent.map((e) => `${e.from}>${e.to}`))
    // Logs say what happened, never what the client typed.
    for (const personal of ['Dela Cruz', reference.phone, '34-1234567-8', '3412345678', 'Kalayaan'])
      expect(t.rawLogs()).not.toContain(personal)

    const me = await call<{ firstName: string }>(t, 'GET', '/private/client', undefined, { token: c.token })
    expect(me.body.data.firstName).toBe('Juan')
    const [profile] = await t.database.db
      .select()
      .from(clientProfile)
      .where(eq(clientProfile.clientId, c.clientId))
    expect(profile).toMatchObject({
      lastName: 'Dela Cruz',
      birthDate: '1990-05-17',
      employmentType: 'employed_private',
      // Pesos in, centavos stored.
      monthlyIncome: 2_800_000,
      monthlyExpenses: 1_200_000,
    })
  })

  it('GET /registration answers what was entered, amounts as typed, the document number masked', async () => {
    const c = await clientAt(t, 'veriff')
    const data = await call<Record<string, unknown>>(t, 'GET', '/private/client/registration', undefined, {
      token: c.token,
    })
    expect(data.status).toBe(200)
    expect(data.body.data).toMatchObject({
      details: {
        firstName: 'Juan',
        lastName: 'Dela Cruz',
        birthDate: '1990-05-17',
        enteredBy: 'client',
        confirmed: true,
      },
      employment: { employmentType: 'employed_private', monthlyIncome: '28000', monthlyExpenses: '12000' },
      contacts: [
        { kind: 'reference', fullName: 'Maria Dela Cruz', relation: 'spouse', phone: reference.phone },
      ],
      address,
      identityDocument: { documentType: 'SSS', documentNumber: '******5678', expiryDate: null },
    })
    const fresh = await verifiedClient(t)
    const empty = await call(t, 'GET', '/private/client/registration', undefined, { token: fresh.token })
    expect(empty.body.data).toEqual({
      details: null,
      employment: null,
      contacts: [],
      address: null,
      identityDocument: null,
    })
  })

  it('answers the step in PUT /private/client with the client view', async () => {
    const c = await verifiedClient(t)
    const answer = await call<{ client: { firstName: string }; flow: unknown }>(
      t,
      'PUT',
      '/private/client',
      details(c.email, { firstName: 'Ma. Luisa' }),
      { token: c.token },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.data.client.firstName).toBe('Ma. Luisa')
    expect(answer.body.data.flow).toEqual({ step: 'work_info', status: 'active' })
  })

  it('a new e-mail in the details replaces the sign-up one, unverified; a taken one is email-error-taken', async () => {
    const other = await verifiedClient(t)
    const c = await verifiedClient(t)
    const taken = await call(t, 'PUT', '/private/client', details(other.email), { token: c.token })
    expect(taken.status).toBe(400)
    expect(violations(taken)).toEqual({ email: 'email-error-taken' })
    expect((await flow(t, c.token)).step).toBe('new_client_created')
    await expectOk(call(t, 'PUT', '/private/client', details(`new.${c.email}`), { token: c.token }))
    const [row] = await t.database.db.select().from(client).where(eq(client.id, c.clientId))
    expect(row).toMatchObject({ email: `new.${c.email}`, emailVerifiedAt: null })
  })

  it('stores additional contacts during relative_info, at most 5, never the own number', async () => {
    const c = await clientAt(t, 'relative_info')
    const add = (phone: string) =>
      call(t, 'POST', '/private/client/additional/contact', { ...reference, phone }, { token: c.token })
    const own = await add(c.phone)
    expect(own.status).toBe(400)
    expect(violations(own)).toEqual({ phone: 'phone-error-taken' })
    for (let i = 0; i < 5; i++) expect((await add(`0917555000${i}`)).status).toBe(201)
    const sixth = await add('09175550009')
    expect(sixth.status).toBe(409)
    expect(sixth.body.response.code).toBe('contactLimit')
    const rows = await t.database.db
      .select()
      .from(clientContact)
      .where(eq(clientContact.clientId, c.clientId))
    expect(rows).toHaveLength(5)
    expect((await flow(t, c.token)).step).toBe('relative_info')
  })

  it('records the device location during address only', async () => {
    const c = await clientAt(t, 'address')
    const geo = await call(
      t,
      'POST',
      '/private/client/geo',
      { latitude: 14.65, longitude: 121.03 },
      { token: c.token },
    )
    expect(geo.status).toBe(201)
    expect((await flow(t, c.token)).step).toBe('address')
  })

  it('confirming back-office details needs details entered by staff', async () => {
    const c = await verifiedClient(t)
    const none = await call(t, 'PUT', '/private/client/complete-back-office-client', {}, { token: c.token })
    expect(none.status).toBe(409)
    expect(none.body.response.code).toBe('detailsMissing')
    // What an agent's registration leaves behind (the back-office screen is not built yet).
    await t.database.db.insert(clientProfile).values({
      clientId: c.clientId,
      firstName: 'Pedro',
      lastName: 'Penduko',
      birthDate: '1985-01-01',
      gender: 'male',
      civilStatus: 'single',
      detailsSource: 'back_office',
    })
    const confirmed = await call(
      t,
      'PUT',
      '/private/client/complete-back-office-client',
      {},
      { token: c.token },
    )
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.data).toEqual({ flow: { step: 'work_info', status: 'active' } })
    const me = await call<{ firstName: string }>(t, 'GET', '/private/client', undefined, { token: c.token })
    expect(me.body.data.firstName).toBe('Pedro')
  })

  it('needs a login: no token is 401', async () => {
    const answer = await call(t, 'GET', '/private/client/flow')
    expect(answer.status).toBe(401)
  })
})

/** Events the walk sends before `event` on the same step (a photo before finishing, a session before its decision...). */
function prerequisites(event: JourneyEventType): JourneyEventType[] {
  const before: Partial<Record<JourneyEventType, JourneyEventType[]>> = {
    FINISH_ID_DOCUMENT: ['CHANGE_ID_PHOTO'],
    VERIFICATION_APPROVED: ['START_VERIFICATION'],
    VERIFICATION_DECLINED: ['START_VERIFICATION'],
    VERIFICATION_RESUBMISSION: ['START_VERIFICATION'],
    FINISH: ['SAVE_PAYOUT'],
    SIGN: ['PREPARE_SIGNATURE', 'PREPARE_SIGNATURE'],
  }
  return [...(before[event] ?? []), event]
}

/** Every call a client sends that moves the journey, once (a call that sends several events counts once). */
const clientCalls = new Map<string, JourneyEventType[]>()
for (const type of journeyEventTypes) {
  const definition: JourneyEventDefinition = journeyEventDefinitions[type]
  if (!definition.sentBy.includes('client')) continue
  for (const name of definition.calls) clientCalls.set(name, [...(clientCalls.get(name) ?? []), type])
}

/** An id that exists nowhere, for a call that needs one before the client has it (see `missing`). */
const NO_ID = 999_999_999
const NO_SESSION = '00000000-0000-4000-8000-000000000000'

/** How the matrix sends each client call, keyed by call: a valid body and the walk's ids where it has them. */
const callSenders: Record<string, (w: Walk) => Promise<Answer>> = {
  ...clientStepCalls,
  'GET /web/private/client/veriff/decision/{id}': (w) =>
    call(t, 'GET', `/private/client/veriff/decision/${w.sessionId ?? NO_SESSION}`, undefined, {
      token: w.c.token,
    }),
  'PUT /web/private/client/disbursement-type/select/{id}': (w) =>
    call(t, 'PUT', `/private/client/disbursement-type/select/${NO_ID}`, {}, { token: w.c.token }),
  'POST /web/private/client/application': (w) =>
    call(t, 'POST', '/private/client/application', applyBody(), { token: w.c.token }),
  'PUT /web/private/client/application/{id}': (w) =>
    call(
      t,
      'PUT',
      `/private/client/application/${w.applicationId ?? NO_ID}`,
      { term: { value: 15 } },
      {
        token: w.c.token,
      },
    ),
  'POST /web/private/client/application/{applicationId}/promocode': (w) =>
    call(
      t,
      'POST',
      `/private/client/application/${w.applicationId ?? NO_ID}/promocode`,
      { promoCode: 'HIRAM10' },
      { token: w.c.token },
    ),
  'POST /web/private/client/application/{id}/cancel': (w) =>
    call(
      t,
      'POST',
      `/private/client/application/${w.applicationId ?? NO_ID}/cancel`,
      {},
      { token: w.c.token },
    ),
  'POST /web/private/client/application/agreement/{id}': (w) =>
    call(
      t,
      'POST',
      `/private/client/application/agreement/${w.applicationId ?? NO_ID}`,
      {},
      {
        token: w.c.token,
      },
    ),
}

/**
 * Calls whose own precondition is checked before the journey's (an object they name, or the application they act
 * on): at a step without it they answer 404 (the id names nothing of this client: sent with NO_ID or NO_SESSION
 * before the walk has one) or 409 with their own code, never a success, and write nothing either way (the
 * fingerprint, history included, is unchanged). The veriff decision of a session already decided answers the
 * stored decision again (200, a read: nothing written, no event). Every other call must answer 409
 * `journeyStepMismatch` naming the step.
 */
const missing: Record<string, { notFound?: true; replay?: true; codes?: string[] }> = {
  'GET /web/private/client/veriff/decision/{id}': { notFound: true, replay: true },
  'PUT /web/private/client/disbursement-type/select/{id}': { notFound: true },
  'PUT /web/private/client/application/{id}': { notFound: true },
  'POST /web/private/client/application/{applicationId}/promocode': { notFound: true },
  'POST /web/private/client/application/{id}/cancel': { notFound: true },
  'POST /web/private/client/application/agreement/{id}': { notFound: true },
  // The application is checked first: one open application at a time, none while a loan is active.
  'POST /web/private/client/application': { codes: ['applicationExist', 'loanNotAvailable'] },
  // An offer to answer, documents to render: only an application in that status has them.
  'PUT /web/private/client/special/offer/approve': { codes: ['noPendingOffer'] },
  'PUT /web/private/client/yhat/offer/approve/decrease': { codes: ['noPendingOffer'] },
  'PUT /web/private/client/yhat/offer/approve/increase': { codes: ['noPendingOffer'] },
  'POST /web/private/client/render/document': { codes: ['applicationStatus'] },
}

describe('every client call of the model is accepted on its step and refused with 409 on every other step', () => {
  it('every client call the model names has a sender here, and no other', () => {
    expect(Object.keys(callSenders).sort()).toEqual([...clientCalls.keys()].sort())
  })

  const steps = journeySteps.map((step) => ({
    step,
    refused: [...clientCalls].filter(([, events]) => !events.some((e) => eventsAcceptedAt(step).includes(e))),
  }))

  it.each(steps)('at $step', async ({ step, refused }) => {
    const w = await walkTo(t, step)
    const before = await fingerprint(t, w.c.clientId)
    // All at once: every one of them must be refused, so their order cannot matter.
    const answers = await Promise.all(
      refused.map(async ([name]) => ({ name, answer: await callSenders[name]!(w) })),
    )
    const wrong = answers
      .filter(({ name, answer: { status, body } }) => {
        const allowed = missing[name]
        if (status === 404 && allowed?.notFound) return false
        if (status === 200 && allowed?.replay) return false
        if (status === 409 && allowed?.codes?.includes(body.response.code as string)) return false
        return !(
          status === 409 &&
          body.response.code === 'journeyStepMismatch' &&
          String(body.response.message).includes(`(${step})`)
        )
      })
      .map(({ name, answer }) => `${name}: ${answer.status} ${answer.body.response.code}`)
    expect(wrong.join('\n'), `at ${step}`).toBe('')
    expect(await fingerprint(t, w.c.clientId), `a refused call at ${step} wrote something`).toEqual(before)
    expect((await flow(t, w.c.token)).step).toBe(step)
  })

  it('a step cannot be completed twice: the second PUT /private/client is refused', async () => {
    const c = await clientAt(t, 'work_info')
    const again = await call(t, 'PUT', '/private/client', details(c.email, { firstName: 'Other' }), {
      token: c.token,
    })
    expect(again.status).toBe(409)
    const me = await call<{ firstName: string }>(t, 'GET', '/private/client', undefined, { token: c.token })
    expect(me.body.data.firstName).toBe('Juan')
  })
})

describe('bad input is a 400 with violations and writes nothing', () => {
  it('details', async () => {
    const c = await verifiedClient(t)
    const before = await fingerprint(t, c.clientId)
    const answer = await call(
      t,
      'PUT',
      '/private/client',
      details(c.email, { firstName: 'J0hn', birthDate: '2015-01-01', gender: 'x', email: 'nope' }),
      { token: c.token },
    )
    expect(answer.status).toBe(400)
    expect(answer.body.response.code).toBe('validationError')
    expect(violations(answer)).toMatchObject({
      firstName: 'error-person-name',
      birthDate: 'error-age',
      gender: 'error-required',
      email: 'error-mail',
    })
    // Messages only: the submitted values are never echoed back.
    expect(JSON.stringify(answer.body)).not.toContain('J0hn')
    expect(await fingerprint(t, c.clientId)).toEqual(before)
  })

  it('employment', async () => {
    const c = await clientAt(t, 'work_info')
    const before = await fingerprint(t, c.clientId)
    const answer = await call(
      t,
      'PUT',
      '/private/client/complete-step-two',
      { ...employment, monthlyIncome: '012', monthlyExpenses: '99' },
      { token: c.token },
    )
    expect(answer.status).toBe(400)
    expect(violations(answer)).toEqual({
      monthlyIncome: 'error-invalid-finance',
      monthlyExpenses: 'error-invalid-finance',
    })
    expect(await fingerprint(t, c.clientId)).toEqual(before)
  })

  it('reference: one word, the client own number', async () => {
    const c = await clientAt(t, 'relative_info')
    const before = await fingerprint(t, c.clientId)
    const oneWord = await call(
      t,
      'PUT',
      '/private/client/complete-step-three',
      { ...reference, fullName: 'Maria' },
      { token: c.token },
    )
    expect(violations(oneWord)).toEqual({ fullName: 'error-full-name' })
    const own = await call(
      t,
      'PUT',
      '/private/client/complete-step-three',
      { ...reference, phone: c.phone },
      {
        token: c.token,
      },
    )
    expect(own.status).toBe(400)
    expect(violations(own)).toEqual({ phone: 'phone-error-taken' })
    expect(await fingerprint(t, c.clientId)).toEqual(before)
  })

  it('address: codes that do not exist or do not nest, a street with bad characters', async () => {
    const c = await clientAt(t, 'address')
    const before = await fingerprint(t, c.clientId)
    const send = (body: Record<string, string>) =>
      call(t, 'PUT', '/private/client/complete-step-four', { ...address, ...body }, { token: c.token })
    expect(violations(await send({ street: 'Main St; <b>' }))).toEqual({ street: 'error-invalid-address' })
    expect(violations(await send({ regionId: '9900000000' }))).toEqual({ regionId: 'error-invalid-address' })
    // Quezon City is not in Central Visayas.
    expect(violations(await send({ regionId: CENTRAL_VISAYAS }))).toEqual({ cityId: 'error-invalid-address' })
    // A province is not its own district; Argao's barangay is not in Quezon City.
    expect(
      violations(await send({ regionId: CENTRAL_VISAYAS, cityId: CEBU_PROVINCE, districtId: CEBU_PROVINCE })),
    ).toEqual({ districtId: 'error-invalid-address' })
    expect(violations(await send({ wardId: ARGAO_BARANGAY }))).toEqual({ wardId: 'error-invalid-address' })
    expect(await fingerprint(t, c.clientId)).toEqual(before)
    // A province, one of its municipalities and a barangay of it nest.
    await expectOk(
      send({ regionId: CENTRAL_VISAYAS, cityId: CEBU_PROVINCE, districtId: ARGAO, wardId: ARGAO_BARANGAY }),
    )
    expect((await flow(t, c.token)).step).toBe('document_upload')
    void NCR
    void QUEZON_CITY
  })

  it("dates are judged on the server's clock", async () => {
    // 69 and some months by the wall clock, 71 on a server clock two years ahead (where this client lives).
    const born = `${new Date().getUTCFullYear() - 70}-12-31`
    await later(t, 2 * 365 * 86_400_000, async () => {
      const c = await verifiedClient(t)
      const old = await call(t, 'PUT', '/private/client', details(c.email, { birthDate: born }), {
        token: c.token,
      })
      expect(old.status).toBe(400)
      expect(violations(old)).toEqual({ birthDate: 'error-age' })
      expect((await flow(t, c.token)).step).toBe('new_client_created')
    })
  })

  it('a body that is not JSON', async () => {
    const c = await verifiedClient(t)
    const res = await t.request('/web/private/client/complete-step-two', {
      method: 'PUT',
      headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
      body: '{"employmentType":',
    })
    expect(res.status).toBe(400)
  })
})

describe('concurrency', () => {
  it('two concurrent completing calls for one client: exactly one wins, the other is a 409', async () => {
    const c = await verifiedClient(t)
    const [a, b] = await Promise.all([
      call(t, 'PUT', '/private/client', details(c.email, { firstName: 'Ana' }), { token: c.token }),
      call(t, 'PUT', '/private/client', details(c.email, { firstName: 'Bea' }), { token: c.token }),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    const winner = a.status === 200 ? 'Ana' : 'Bea'
    const [profile] = await t.database.db
      .select()
      .from(clientProfile)
      .where(eq(clientProfile.clientId, c.clientId))
    expect(profile?.firstName).toBe(winner)
    const fp = await fingerprint(t, c.clientId)
    expect(fp.journey).toMatchObject({ step: 'work_info', version: 1 })
  })

  it('concurrent references: one moves the step, the other writes no contact', async () => {
    const c = await clientAt(t, 'relative_info')
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        call(t, 'PUT', '/private/client/complete-step-three', reference, { token: c.token }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409])
    const rows = await t.database.db
      .select()
      .from(clientContact)
      .where(eq(clientContact.clientId, c.clientId))
    expect(rows).toHaveLength(1)
  })
})
