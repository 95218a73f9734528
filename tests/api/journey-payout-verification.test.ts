import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnyContract, pathOf } from '../../domain/contract/define'
import * as journey from '../../domain/contract/journey'
import * as payout from '../../domain/contract/payout'
import * as reference from '../../domain/contract/reference'
import * as uploads from '../../domain/contract/uploads'
import * as verification from '../../domain/contract/verification'
import { bankDataAttempt, clientProfile, disbursementEntry } from '../../server/db/schema-journey'
import { createTestApp } from '../support/app'
import { contractsOf, type Schema, unnamedKeys } from '../support/contract-answers'
import {
  type Answer,
  type ContractInput,
  call,
  callContract,
  type TestApp,
  verifiedClient,
} from './identity-helpers'
import {
  ARGAO,
  address,
  aMinuteLater,
  CEBU_PROVINCE,
  CENTRAL_VISAYAS,
  clientAt,
  details,
  employment,
  expectOk,
  fingerprint,
  flow,
  identityDoc,
  JPEG,
  NCR,
  PDF,
  PNG,
  reference as referencePerson,
  seedSmallPsgc,
  upload,
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

interface Entry {
  id: number
  type: string
  bankName: string | null
  accountNumber: string | null
  selected: boolean
}

describe('payout (disbursement types)', () => {
  it('adds each type, the newest selected; select switches; finish then completes registration', async () => {
    const c = await clientAt(t, 'disbursement_type')
    const post = (body: unknown) =>
      call<{ entry: Entry }>(t, 'POST', '/private/client/disbursement-type', body, { token: c.token })
    const bank = await post({ type: 'bank_transfer', bankId: 1, accountNumber: '0012-3456-7890' })
    expect(bank.status).toBe(201)
    expect(bank.body.data.entry).toMatchObject({
      type: 'bank_transfer',
      bankName: 'BDO Unibank',
      accountNumber: '001234567890',
      selected: true,
    })
    expect((await post({ type: 'ewallet', bankId: 101, accountNumber: '09171234567' })).status).toBe(201)
    expect((await post({ type: 'cash_card', accountNumber: `CARD${Date.now()}` })).status).toBe(201)
    const pickup = await post({ type: 'cash_pickup', provider: 'm_lhuillier' })
    expect(pickup.body.data.entry).toMatchObject({ bankName: 'M Lhuillier', selected: true })

    const list = await call<Entry[]>(t, 'GET', '/private/client/disbursement-type', undefined, {
      token: c.token,
    })
    expect(list.body.data.map((e) => e.type)).toEqual([
      'bank_transfer',
      'ewallet',
      'cash_card',
      'cash_pickup',
    ])
    expect(list.body.data.filter((e) => e.selected)).toHaveLength(1)

    const selected = await call<{ entries: Entry[] }>(
      t,
      'PUT',
      `/private/client/disbursement-type/select/${bank.body.data.entry.id}`,
      undefined,
      { token: c.token },
    )
    expect(selected.status).toBe(200)
    expect(selected.body.data.entries.find((e) => e.selected)?.type).toBe('bank_transfer')
    await expectOk(call(t, 'PUT', '/private/client/finish', {}, { token: c.token }))
    expect(await flow(t, c.token)).toEqual({ step: 'no_loan_page', status: 'active' })
    // Changing the payout later needs the SMS code (tests/api/payout-change.test.ts); finishing again is not possible.
    const later = await post({ type: 'cash_pickup', provider: 'cebuana' })
    expect([later.status, later.body.response.code]).toEqual([422, 'payoutCodeRequired'])
    expect((await call(t, 'PUT', '/private/client/finish', {}, { token: c.token })).status).toBe(409)
  })

  it("finish without a payout is a 409; another client's entry cannot be selected (404)", async () => {
    const c = await clientAt(t, 'disbursement_type')
    const other = await clientAt(t, 'disbursement_type')
    const none = await call(t, 'PUT', '/private/client/finish', {}, { token: c.token })
    expect(none.status).toBe(409)
    expect(none.body.response.code).toBe('payoutNotSelected')
    const theirs = await call<{ entry: Entry }>(
      t,
      'POST',
      '/private/client/disbursement-type',
      { type: 'cash_pickup', provider: 'cebuana' },
      { token: other.token },
    )
    const before = await fingerprint(t, c.clientId)
    const steal = await call(
      t,
      'PUT',
      `/private/client/disbursement-type/select/${theirs.body.data.entry.id}`,
      undefined,
      {
        token: c.token,
      },
    )
    expect(steal.status).toBe(404)
    expect(await fingerprint(t, c.clientId)).toEqual(before)
  })

  it('the spec errors: Disbursement number is not valid, bankAccountExist, uniqueCashCard, unknown bank', async () => {
    const c = await clientAt(t, 'disbursement_type')
    const other = await clientAt(t, 'disbursement_type')
    const post = (body: unknown, token = c.token) =>
      call(t, 'POST', '/private/client/disbursement-type', body, { token })
    expect(violations(await post({ type: 'bank_transfer', bankId: 2, accountNumber: '12345' }))).toEqual({
      accountNumber: 'Disbursement number is not valid.',
    })
    expect(violations(await post({ type: 'ewallet', bankId: 101, accountNumber: '0917' }))).toEqual({
      accountNumber: 'error-incorrect-ewallet',
    })
    // An e-wallet is not a bank, and the other way round.
    expect(
      violations(await post({ type: 'bank_transfer', bankId: 101, accountNumber: '1234567890' })),
    ).toEqual({
      bankId: 'error-required',
    })
    expect((await post({ type: 'bank_transfer', bankId: 2, accountNumber: '1234567890' })).status).toBe(201)
    const twice = await post({ type: 'bank_transfer', bankId: 2, accountNumber: '1234-567-890' })
    expect(twice.status).toBe(400)
    expect(violations(twice)).toEqual({ accountNumber: 'bankAccountExist' })
    // The same account number at another client is their own business.
    expect(
      (await post({ type: 'bank_transfer', bankId: 2, accountNumber: '1234567890' }, other.token)).status,
    ).toBe(201)

    const card = `HIRAMCARD${Date.now()}`
    expect((await post({ type: 'cash_card', accountNumber: card })).status).toBe(201)
    const stolenCard = await post({ type: 'cash_card', accountNumber: card.toLowerCase() }, other.token)
    expect(stolenCard.status).toBe(400)
    expect(violations(stolenCard)).toEqual({ accountNumber: 'uniqueCashCard' })
    expect(violations(await post({ type: 'cash_card', accountNumber: 'SHORT' }))).toEqual({
      accountNumber: 'Disbursement number is not valid.',
    })
  })

  it('a cash card raced by two clients is saved once (the unique index decides)', async () => {
    const a = await clientAt(t, 'disbursement_type')
    const b = await clientAt(t, 'disbursement_type')
    const card = `RACECARD${Date.now()}`
    const answers = await Promise.all(
      [a, b].map((c) =>
        call(
          t,
          'POST',
          '/private/client/disbursement-type',
          { type: 'cash_card', accountNumber: card },
          { token: c.token },
        ),
      ),
    )
    expect(answers.map((x) => x.status).sort()).toEqual([201, 400])
    const rows = await t.database.db
      .select()
      .from(disbursementEntry)
      .where(eq(disbursementEntry.accountNumber, card))
    expect(rows).toHaveLength(1)
  })

  it('PUT /iban/validate checks the format and the client saved accounts', async () => {
    const c = await clientAt(t, 'disbursement_type')
    const check = (iban: string) =>
      call(t, 'PUT', '/private/client/iban/validate', { iban }, { token: c.token })
    expect((await check('123456789012')).body.data).toEqual({ valid: true, iban: '123456789012' })
    expect(violations(await check('12ab'))).toEqual({ iban: 'Disbursement number is not valid.' })
    await expectOk(
      call(
        t,
        'POST',
        '/private/client/disbursement-type',
        { type: 'bank_transfer', bankId: 3, accountNumber: '123456789012' },
        {
          token: c.token,
        },
      ),
      201,
    )
    expect(violations(await check('123456789012'))).toEqual({ iban: 'bankAccountExist' })
  })
})

describe('identity verification (sandbox: the outcome follows the last name)', () => {
  const verifyAs = async (lastName: string) => {
    const c = await clientAt(t, 'veriff', { lastName })
    const session = await call<{ id: string; status: string; url: string }>(
      t,
      'POST',
      '/private/client/veriff/session',
      {},
      {
        token: c.token,
      },
    )
    expect(session.status).toBe(201)
    expect(session.body.data.status).toBe('created')
    const decision = await call<{ status: string }>(
      t,
      'GET',
      `/private/client/veriff/decision/${session.body.data.id}`,
      undefined,
      {
        token: c.token,
      },
    )
    expect(decision.status).toBe(200)
    return { c, session: session.body.data, decision: decision.body.data }
  }

  it('approved moves to kontomatik', async () => {
    const { c, decision } = await verifyAs('Reyes')
    expect(decision.status).toBe('approved')
    expect((await flow(t, c.token)).step).toBe('kontomatik')
  })

  it('declined moves to reject_page, where nothing else is accepted', async () => {
    const { c, decision } = await verifyAs('Declined')
    expect(decision.status).toBe('declined')
    expect((await flow(t, c.token)).step).toBe('reject_page')
    expect((await call(t, 'POST', '/private/client/veriff/session', {}, { token: c.token })).status).toBe(409)
  })

  it('resubmission keeps veriff and allows a new session; the old decision stays as it was', async () => {
    const { c, session, decision } = await verifyAs('Resubmit-Santos')
    expect(decision.status).toBe('resubmission_requested')
    expect((await flow(t, c.token)).step).toBe('veriff')
    const next = await call<{ id: string }>(
      t,
      'POST',
      '/private/client/veriff/session',
      {},
      { token: c.token },
    )
    expect(next.status).toBe(201)
    expect(next.body.data.id).not.toBe(session.id)
    const latest = await call<{ id: string }>(t, 'GET', '/private/client/veriff/session', undefined, {
      token: c.token,
    })
    expect(latest.body.data.id).toBe(next.body.data.id)
    const old = await call<{ status: string }>(
      t,
      'GET',
      `/private/client/veriff/decision/${session.id}`,
      undefined,
      {
        token: c.token,
      },
    )
    expect(old.body.data.status).toBe('resubmission_requested')
  })

  it("an open session is answered again rather than duplicated; another client's session is a 404", async () => {
    const c = await clientAt(t, 'veriff')
    const other = await clientAt(t, 'veriff')
    const first = await call<{ id: string }>(
      t,
      'POST',
      '/private/client/veriff/session',
      {},
      { token: c.token },
    )
    const again = await call<{ id: string }>(
      t,
      'POST',
      '/private/client/veriff/session',
      {},
      { token: c.token },
    )
    expect(again.status).toBe(200)
    expect(again.body.data.id).toBe(first.body.data.id)
    const peek = await call(t, 'GET', `/private/client/veriff/decision/${first.body.data.id}`, undefined, {
      token: other.token,
    })
    expect(peek.status).toBe(404)
    expect(
      (await call(t, 'GET', '/private/client/veriff/decision/not-a-uuid', undefined, { token: c.token }))
        .status,
    ).toBe(400)
  })
})

describe('bank data (sandbox: the outcome follows the credentials)', () => {
  const importAs = (token: string, login: string, password: string, bank = 'sandbox-bdo') =>
    call(t, 'POST', '/private/client/kontomatik/import', { bank, login, password }, { token })

  it('lists the sandbox banks; the right credentials import and move to disbursement_type', async () => {
    const c = await clientAt(t, 'kontomatik')
    const state = await call<{ banks: { code: string }[]; bank: string | null; failedLogins: number }>(
      t,
      'GET',
      '/private/client/kontomatik',
      undefined,
      { token: c.token },
    )
    expect(state.body.data.banks.map((b) => b.code)).toContain('sandbox-bdo')
    expect(state.body.data).toMatchObject({ bank: null, failedLogins: 0 })
    const imported = await importAs(c.token, 'sandbox', 'sandbox')
    expect(imported.status).toBe(200)
    expect((await flow(t, c.token)).step).toBe('disbursement_type')
    const after = await call<{ bank: string }>(t, 'GET', '/private/client/kontomatik', undefined, {
      token: c.token,
    })
    expect(after.body.data.bank).toBe('sandbox-bdo')
  })

  it('InvalidCredentials counts failed logins, up to 5; ServiceTemporarilyUnavailable does not count', async () => {
    const c = await clientAt(t, 'kontomatik')
    const unavailable = await importAs(c.token, 'unavailable', 'x')
    expect(unavailable.status).toBe(503)
    expect(unavailable.body.response.code).toBe('ServiceTemporarilyUnavailable')
    for (let i = 1; i <= 5; i++) {
      const wrong = await importAs(c.token, 'sandbox', 'wrong')
      expect(wrong.status).toBe(422)
      expect(wrong.body.response.code).toBe('InvalidCredentials')
      expect(wrong.body.response.message).toContain(`${i} of 5`)
    }
    const state = await call<{ failedLogins: number }>(t, 'GET', '/private/client/kontomatik', undefined, {
      token: c.token,
    })
    expect(state.body.data.failedLogins).toBe(5)
    const locked = await importAs(c.token, 'sandbox', 'sandbox')
    expect(locked.status).toBe(429)
    expect((await flow(t, c.token)).step).toBe('kontomatik')
    // Linking is optional: skipping moves on.
    await expectOk(call(t, 'POST', '/private/client/kontomatik/skip', {}, { token: c.token }))
    expect((await flow(t, c.token)).step).toBe('disbursement_type')
  })

  it('parallel wrong logins cannot pass the limit together', async () => {
    const c = await clientAt(t, 'kontomatik')
    await t.database.db.insert(bankDataAttempt).values(
      [1, 2, 3, 4].map(() => ({
        clientId: c.clientId,
        bank: 'sandbox-bpi',
        outcome: 'InvalidCredentials',
      })),
    )
    const answers = await Promise.all([1, 2, 3].map(() => importAs(c.token, 'sandbox', 'wrong')))
    expect(answers.map((a) => a.status).sort()).toEqual([422, 429, 429])
    const state = await call<{ failedLogins: number }>(t, 'GET', '/private/client/kontomatik', undefined, {
      token: c.token,
    })
    expect(state.body.data.failedLogins).toBe(5)
  })

  it('an unknown bank is a 400; the password is never echoed', async () => {
    const c = await clientAt(t, 'kontomatik')
    const answer = await importAs(c.token, 'sandbox', 'Secret-Pass-42', 'nobank')
    expect(answer.status).toBe(400)
    expect(violations(answer)).toEqual({ bank: 'error-required' })
    expect(JSON.stringify(answer.body)).not.toContain('Secret-Pass-42')
    expect(t.rawLogs()).not.toContain('Secret-Pass-42')
  })
})

/**
 * The answers of the journey's calls are what their contracts say (domain/contract/journey, uploads,
 * verification, payout and reference): a client walked through registration and past it, every successful
 * answer's `data` parses with the contract's response schema, and the schema names every field the server
 * sends (valibot's objects drop unnamed keys silently, so the names are checked on their own).
 */
describe('journey answers match their contracts', () => {
  const modules = [journey, uploads, verification, payout, reference]
  const contracts = modules.flatMap((module) => contractsOf(module))
  const answered = new Set<AnyContract>()

  /** Calls a contract as the browser's caller would, and checks the answer against its response schema. */
  async function answer<T = unknown>(
    contract: AnyContract,
    token: string | undefined,
    input: ContractInput = {},
    status = 200,
  ): Promise<T> {
    const path = pathOf(contract, input.params)
    const body = input.body ?? (contract.method === 'get' || contract.method === 'delete' ? undefined : {})
    const a = await expectOk(callContract(t, contract, { ...input, body }, { token }), status)
    const schema = contract.response as Schema
    const parsed = v.safeParse(schema, a.body.data)
    expect(
      parsed.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`),
      path,
    ).toBeUndefined()
    expect(unnamedKeys(schema, a.body.data), path).toEqual([])
    answered.add(contract)
    return a.body.data as T
  }

  async function uploaded(contract: AnyContract, token: string, fields: Record<string, string | Uint8Array>) {
    const a = await expectOk(upload(t, contract.path, token, fields), 201)
    const schema = contract.response as Schema
    expect(v.safeParse(schema, a.body.data).issues, contract.path).toBeUndefined()
    expect(unnamedKeys(schema, a.body.data), contract.path).toEqual([])
    answered.add(contract)
  }

  it('from sign-up to a payout change after registration', async () => {
    const c = await verifiedClient(t)
    const token = c.token
    await answer(journey.getFlow, token)
    await answer(journey.getJourneyCurrent, token)
    await answer(journey.saveDetails, token, { body: details(c.email) })
    await answer(journey.completeEmployment, token, { body: employment })
    await answer(journey.addContact, token, { body: { ...referencePerson, phone: '09998887700' } }, 201)
    await answer(journey.completeReference, token, { body: referencePerson })
    await answer(journey.recordGeo, token, { body: { latitude: 14.65, longitude: 121.03 } }, 201)
    await answer(journey.completeAddress, token, { body: address })
    await answer(journey.getDocumentUploadConfig, token)

    const photo = { file: JPEG, capturedAt: new Date().toISOString() }
    await uploaded(uploads.uploadIdPhoto, token, { type: 'front', ...photo })
    await answer(uploads.deleteIdPhoto, token, { params: { type: 'front' } })
    await uploaded(uploads.uploadIdPhoto, token, { type: 'front', ...photo })
    const file = await t.request(`/web${pathOf(uploads.downloadIdPhoto, { type: 'front' })}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'image/jpeg'])
    answered.add(uploads.downloadIdPhoto)
    await answer(uploads.finishIdDocument, token, { body: identityDoc })
    await uploaded(uploads.uploadDocument, token, { type: 'payslip', file: PDF })
    await uploaded(uploads.uploadBankStatement, token, { file: PDF })
    await uploaded(uploads.uploadClientDocument, token, { type: 'employment_certificate', file: PNG })
    await answer(journey.getRegistration, token)

    const session = await answer<{ id: string }>(verification.startVerification, token, {}, 201)
    await answer(verification.getVerificationSession, token)
    await answer(verification.getVerificationDecision, token, { params: { id: session.id } })
    await answer(verification.getBankData, token)
    await answer(verification.importBankData, token, {
      body: { bank: 'sandbox-bdo', login: 'sandbox', password: 'sandbox' },
    })

    await answer(payout.validateIban, token, { body: { iban: '0012-3456-7891' } })
    const first = await answer<{ entry: { id: number } }>(
      payout.addDisbursement,
      token,
      { body: { type: 'bank_transfer', bankId: 1, accountNumber: '0012-3456-7891' } },
      201,
    )
    await answer(payout.addDisbursement, token, { body: { type: 'cash_pickup', provider: 'cebuana' } }, 201)
    await answer(payout.selectDisbursement, token, { params: { id: first.entry.id } })
    await answer(payout.listDisbursements, token)
    await answer(payout.finishRegistration, token)
    expect((await flow(t, token)).step).toBe('no_loan_page')
    // After registration a change of payout account is confirmed by the SMS code this call sends (a minute
    // after the sign-up's code).
    await aMinuteLater(t, () => answer(payout.sendPayoutCode, token))
  })

  it('the other ways through: details entered by staff, bank linking skipped', async () => {
    const c = await verifiedClient(t)
    await t.database.db.insert(clientProfile).values({
      clientId: c.clientId,
      firstName: 'Juan',
      lastName: 'Dela Cruz',
      birthDate: '1990-05-17',
      gender: 'male',
      civilStatus: 'single',
      detailsSource: 'back_office',
    })
    await answer(journey.confirmBackOfficeDetails, c.token)
    await answer(verification.skipBankData, (await clientAt(t, 'kontomatik')).token)
  })

  it('the reference lists', async () => {
    await answer(reference.listBanks, undefined)
    await answer(reference.listInstitutions, undefined, {
      query: { group: 'payments', name: 'banks', parent: 'e-wallet' },
    })
    await answer(reference.getClassification, undefined, { params: { path: 'civil-status' } })
    await answer(reference.listContacts, undefined)
    await answer(reference.listRegions, undefined)
    await answer(reference.listRegionCities, undefined, { params: { id: NCR } })
    await answer(reference.listCities, undefined, { query: { regionId: CENTRAL_VISAYAS } })
    await answer(reference.listDistricts, undefined, { query: { cityId: CEBU_PROVINCE } })
    await answer(reference.listWards, undefined, { query: { districtId: ARGAO } })
  })

  it('every contract of these modules was answered above', () => {
    expect(contracts.filter((contract) => !answered.has(contract)).map((c) => c.path)).toEqual([])
  })
})
