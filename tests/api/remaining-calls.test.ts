/**
 * Issue 22 item 5: the remaining calls and server rules of the spec. POST /public/client/document (the anonymous
 * terms), GET /private/client/document/download-temporary/{id} (an unsigned document by its id), the server rules
 * bankAccountInvalid (PUT /iban/validate and saving a bank account) and wrongEmailDomain (sign-up and e-mail
 * change); the generic phone rule and the tax id's mask on the employment step (employer phone and TIN).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../support/app'
import { call, newEmail, newPhone, PASSWORD, type SignedUp, signUp, type TestApp } from './identity-helpers'
import { clientAt, employment, seedSmallPsgc } from './journey-helpers'
import { actual, apply, expectStatus, pdfText, readyClient, runJobs, sign } from './lending-helpers'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
}, 120_000)
afterAll(() => t?.close())

const violations = (answer: { body: { response: Record<string, unknown> } }) =>
  answer.body.response.violations as { propertyPath: string; message: string }[]

describe('POST /public/client/document: the terms a guest reads before signing up', () => {
  it('answers the loan agreement as a PDF with a sample offer and no borrower, the default id and type', async () => {
    const res = await t.request('/web/public/client/document', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ financeType: 'stl', id: 'terms_and_conditions_anonymous' }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toContain('terms_and_conditions_anonymous.pdf')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const text = await pdfText(bytes)
    expect(text).toContain('LOAN AGREEMENT')
    expect(text).toContain('not an offer')
    expect(text).toContain('the person who signs it')
    // The body's fields have their defaults; the same day and configuration give the same file.
    const again = await t.request('/web/public/client/document', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(again.status).toBe(200)
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes)
  })

  it('refuses another document or finance type with 400 on the field', async () => {
    const other = await call(t, 'POST', '/public/client/document', { id: 'loan_agreement' })
    expect(other.status).toBe(400)
    expect(violations(other).map((v) => v.propertyPath)).toEqual(['id'])
    const type = await call(t, 'POST', '/public/client/document', { financeType: 'mortgage' })
    expect(violations(type).map((v) => v.propertyPath)).toEqual(['financeType'])
  })
})

describe('GET /private/client/document/download-temporary/{id}', () => {
  let c: SignedUp
  let ids: { id: string; type: string }[]
  beforeAll(async () => {
    c = await readyClient(t)
    await expectStatus(apply(t, c), 201)
    await runJobs(t)
    await expectStatus(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
    ids = (
      await call<{ id: string; type: string }[]>(t, 'GET', '/private/client/document', undefined, {
        token: c.token,
      })
    ).body.data
    expect(ids).toHaveLength(2)
  }, 120_000)

  it('answers an unsigned document of the client by its id, never cached; 404 to anyone else; 400 for a bad id', async () => {
    const doc = ids.find((d) => d.type === 'disclosure_statement')!
    const res = await t.request(`/web/private/client/document/download-temporary/${doc.id}`, {
      headers: { authorization: `Bearer ${c.token}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await pdfText(new Uint8Array(await res.arrayBuffer()))).toContain('DISCLOSURE STATEMENT')

    const stranger = await signUp(t)
    const other = await call(t, 'GET', `/private/client/document/download-temporary/${doc.id}`, undefined, {
      token: stranger.token,
    })
    expect(other.status).toBe(404)
    const bad = await call(t, 'GET', '/private/client/document/download-temporary/1', undefined, {
      token: c.token,
    })
    expect(bad.status).toBe(400)
  })

  it('a signed document is no longer temporary: 409 documentSigned', async () => {
    const app = await actual(t, c)
    await expectStatus(sign(t, c, app.id), 200)
    const after = (
      await call<{ id: string; signed: boolean }[]>(t, 'GET', '/private/client/document', undefined, {
        token: c.token,
      })
    ).body.data
    const signed = after.find((d) => d.signed)!
    const answer = await call(
      t,
      'GET',
      `/private/client/document/download-temporary/${signed.id}`,
      undefined,
      {
        token: c.token,
      },
    )
    expect([answer.status, answer.body.response.code]).toEqual([409, 'documentSigned'])
  })
})

describe('server rule bankAccountInvalid', () => {
  it('refuses an account number of one repeated digit on PUT /iban/validate and when saving a bank account', async () => {
    const c = await signUp(t)
    const check = (iban: string) =>
      call(t, 'PUT', '/private/client/iban/validate', { iban }, { token: c.token })
    const placeholder = await check('0000-0000-00')
    expect(placeholder.status).toBe(400)
    expect(violations(placeholder)).toEqual([{ propertyPath: 'iban', message: 'bankAccountInvalid' }])
    expect((await check('1111111111111111')).status).toBe(400)
    expect((await check('001234567890')).status).toBe(200)

    const saved = await call(
      t,
      'POST',
      '/private/client/disbursement-type',
      { type: 'bank_transfer', bankId: 1, accountNumber: '999999999999' },
      { token: c.token },
    )
    expect(saved.status).toBe(400)
    expect(violations(saved)).toEqual([{ propertyPath: 'accountNumber', message: 'bankAccountInvalid' }])
  })
})

describe('server rule wrongEmailDomain', () => {
  const signUpWith = (email: string) =>
    call(
      t,
      'POST',
      '/public/client',
      {
        mobilePhone: { number: newPhone() },
        email,
        password: PASSWORD,
        passwordRepeat: PASSWORD,
        consents: { terms: true, privacy: true, marketing: false },
        captchaToken: 'ok',
      },
      { address: '203.0.113.77' },
    )

  it('refuses a disposable inbox or a misspelt provider at sign-up, on the e-mail field', async () => {
    for (const email of ['juan@mailinator.com', 'juan@gmial.com', 'Juan@GMAIL.CON']) {
      const answer = await signUpWith(email)
      expect(answer.status, email).toBe(400)
      expect(violations(answer)).toContainEqual({ propertyPath: 'email', message: 'wrongEmailDomain' })
    }
    expect((await signUpWith(newEmail())).status).toBe(201)
  })

  it('refuses such an address as a new e-mail', async () => {
    const c = await signUp(t)
    const answer = await call(
      t,
      'POST',
      '/private/client/change/email/send-code',
      { email: 'juan@yopmail.com' },
      { token: c.token },
    )
    expect(answer.status).toBe(400)
    expect(violations(answer)).toEqual([{ propertyPath: 'email', message: 'wrongEmailDomain' }])
  })
})

describe('employment step: the generic phone rule and the tax id', () => {
  it('keeps an employer landline and the TIN digits, refuses a short phone and a TIN of the wrong length', async () => {
    const c = await clientAt(t, 'work_info')
    const put = (body: Record<string, unknown>) =>
      call(t, 'PUT', '/private/client/complete-step-two', { ...employment, ...body }, { token: c.token })
    const short = await put({ employerPhone: '812 345', taxId: '12-345' })
    expect(short.status).toBe(400)
    expect(violations(short)).toEqual(
      expect.arrayContaining([
        { propertyPath: 'employerPhone', message: 'error-incorrect-phone' },
        { propertyPath: 'taxId', message: 'error-wrong-format' },
      ]),
    )
    expect((await put({ employerPhone: '(02) 8123 4567', taxId: '123-456-789-000' })).status).toBe(200)
    const stored = await call<{ employment: { employerPhone: string | null; taxId: string | null } }>(
      t,
      'GET',
      '/private/client/registration',
      undefined,
      { token: c.token },
    )
    expect(stored.body.data.employment).toMatchObject({
      employerPhone: '(02) 8123 4567',
      taxId: '123456789000',
    })
  })

  it('both are optional: left empty, nothing is kept', async () => {
    const c = await clientAt(t, 'work_info')
    const answer = await call(
      t,
      'PUT',
      '/private/client/complete-step-two',
      { ...employment, employerPhone: '', taxId: '' },
      { token: c.token },
    )
    expect(answer.status).toBe(200)
    const stored = await call<{ employment: Record<string, unknown> }>(
      t,
      'GET',
      '/private/client/registration',
      undefined,
      { token: c.token },
    )
    expect(stored.body.data.employment).toMatchObject({ employerPhone: null, taxId: null })
  })
})
