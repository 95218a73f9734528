/**
 * Issue 19 item 3 over the API: the client desk. Search by every key (mobile number in its usual forms, e-mail,
 * name, payment reference, loan and application number) with the x-* paging headers; one client's file for a
 * client with a paid-out loan (profile, timeline, applications and decisions, loans with their ledger, documents,
 * messages); and the actions by role: support resends a pending code under the code's limits, collections records
 * a promise to pay and an underwriter may not, blacklisting. Every write leaves its audit entry.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  ClientDesk,
  ClientLoans,
  ClientSummary,
  PromiseToPay,
  TimelineStep,
} from '../../domain/contract/clients'
import { loanNumberOf, paymentReferenceOf } from '../../domain/payments/reference'
import { addDays, manilaDate } from '../../domain/pricing/manila-date'
import { auditEntry } from '../../server/db/schema-audit'
import { loan } from '../../server/db/schema-lending'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'
import { call, later, type SignedUp, signUp, type TestApp } from './identity-helpers'
import { clientAt, seedSmallPsgc } from './journey-helpers'

describe('back-office client desk', () => {
  let t: TestApp
  let support: Staff
  let underwriter: Staff
  let collections: Staff
  let borrower: SignedUp
  let loanId: number
  let applicationId: number
  // Letters only (a person's name), unique per run: the digits of the time spelled as letters.
  const lastName = `Bautista${Date.now()
    .toString(10)
    .slice(-6)
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    support = await staffMember(t, 'support')
    underwriter = await staffMember(t, 'underwriter')
    collections = await staffMember(t, 'collections')
    borrower = await clientAt(t, 'loan_page', { firstName: 'Rosalinda', lastName })
    const [row] = await t.database.db.select().from(loan).where(eq(loan.clientId, borrower.clientId))
    loanId = row!.id
    applicationId = row!.applicationId
  }, 120_000)
  afterAll(() => t.close())

  const search = (term: string, token = support.token, query = '') =>
    call<ClientSummary[]>(
      t,
      'GET',
      `/private/back-office/clients?search=${encodeURIComponent(term)}${query}`,
      undefined,
      { token },
    )
  const ids = (answer: { body: { data: ClientSummary[] } }) => answer.body.data.map((c) => c.id)

  it('finds the client by every key', async () => {
    const national = borrower.phone.slice(1)
    const terms = [
      borrower.phone,
      `+63${national}`,
      `+63 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`,
      `63${national}`,
      borrower.email.toUpperCase(),
      paymentReferenceOf(borrower.clientId),
      loanNumberOf(loanId),
      String(applicationId),
      lastName.toLowerCase(),
      lastName.slice(0, 6).toUpperCase(),
      `rosa ${lastName.slice(0, 5)}`,
    ]
    for (const term of terms) {
      const answer = await search(term)
      expect(answer.status, term).toBe(200)
      expect(ids(answer), term).toContain(borrower.clientId)
    }
    const [found] = (await search(paymentReferenceOf(borrower.clientId))).body.data
    expect(found).toMatchObject({
      id: borrower.clientId,
      name: `Rosalinda ${lastName}`,
      phone: borrower.phone,
      email: borrower.email,
      paymentReference: paymentReferenceOf(borrower.clientId),
      step: 'loan_page',
    })
    // Names are prefixes, not anything containing the letters; a wrong check digit is no reference.
    expect(ids(await search(lastName.slice(2)))).not.toContain(borrower.clientId)
    const reference = paymentReferenceOf(borrower.clientId)
    const mistyped = `${reference.slice(0, 9)}${(Number(reference[9]) + 1) % 10}`
    expect(ids(await search(mistyped))).not.toContain(borrower.clientId)
    // LIKE's own characters are literal.
    expect((await search('%')).body.data).toEqual([])
    expect((await search('_')).body.data).toEqual([])
  })

  it('pages with the x-* headers', async () => {
    const others = [await signUp(t), await signUp(t), await signUp(t)]
    const first = await search('', support.token, '&page=1&perPage=2')
    expect(first.status).toBe(200)
    const total = Number(first.res.headers.get('x-total-count'))
    expect(total).toBeGreaterThanOrEqual(4)
    expect(first.res.headers.get('x-page')).toBe('1')
    expect(first.res.headers.get('x-per-page')).toBe('2')
    expect(first.res.headers.get('x-count')).toBe('2')
    // Newest first: the last sign-up leads.
    expect(first.body.data[0]!.id).toBe(others[2]!.clientId)
    const second = await search('', support.token, '&page=2&perPage=2')
    expect(second.res.headers.get('x-page')).toBe('2')
    expect(ids(second)).not.toContain(others[2]!.clientId)
    const tooFar = await search('', support.token, `&page=${total + 1}&perPage=1`)
    expect(tooFar.body.data).toEqual([])
    expect(tooFar.res.headers.get('x-count')).toBe('0')
    expect((await search('', support.token, '&perPage=101')).status).toBe(400)
  })

  it("answers one client's whole file", async () => {
    const get = <T>(path: string, token = support.token) =>
      call<T>(t, 'GET', `/private/back-office/clients/${borrower.clientId}${path}`, undefined, { token })
    const file = await get<ClientDesk>('')
    expect(file.status).toBe(200)
    const d = file.body.data
    expect(d.profile).toMatchObject({
      id: borrower.clientId,
      phone: borrower.phone,
      firstName: 'Rosalinda',
      lastName,
      blocked: false,
      blacklisted: false,
      paymentReference: paymentReferenceOf(borrower.clientId),
      step: 'loan_page',
    })
    expect(d.applications[0]).toMatchObject({ id: applicationId })
    expect(d.applications[0]!.decisions.length).toBeGreaterThan(0)
    expect(d.applications[0]!.decisions.some((x) => x.source === 'engine' && x.reasons !== null)).toBe(true)
    const types = d.documents.filter((x) => x.kind === 'loan').map((x) => x.type)
    expect(types).toEqual(expect.arrayContaining(['loan_agreement', 'disclosure_statement']))

    const timeline = await get<TimelineStep[]>('/timeline')
    expect(timeline.status).toBe(200)
    expect(Number(timeline.res.headers.get('x-total-count'))).toBe(timeline.body.data.length)
    const steps = timeline.body.data
    expect(steps.map((s) => s.toState)).toContain('loan_page')
    expect(steps.some((s) => s.machine === 'loanLifecycle' && s.toState.startsWith('active'))).toBe(true)
    expect(
      steps.some((s) => s.call?.startsWith('PUT /web/private/client') || s.call?.startsWith('POST /web')),
    ).toBe(true)
    expect(steps.map((s) => s.id)).toEqual([...steps.map((s) => s.id)].sort((a, b) => a - b))

    const loans = await get<ClientLoans>('/loans')
    expect(loans.status).toBe(200)
    const [l] = loans.body.data.loans
    expect(l).toMatchObject({ id: loanId, loanNumber: loanNumberOf(loanId), state: 'active' })
    expect(l!.ledger.map((e) => e.kind)).toEqual(expect.arrayContaining(['disbursement', 'fee']))

    const messages = await get<{ recipient: string; purpose: string }[]>('/messages?perPage=5')
    expect(messages.status).toBe(200)
    expect(messages.res.headers.get('x-per-page')).toBe('5')
    expect(messages.body.data.length).toBeGreaterThan(0)
    expect(messages.body.data.every((m) => [borrower.phone, borrower.email].includes(m.recipient))).toBe(true)

    const contacts = await get<unknown[]>('/contacts')
    expect(contacts.status).toBe(200)
    expect(contacts.res.headers.get('x-total-count')).not.toBeNull()

    // A document opens as its PDF; another client's id or a made-up one is a 404.
    const doc = d.documents.find((x) => x.kind === 'loan')!
    const pdf = await t.request(
      `/web/private/back-office/clients/${borrower.clientId}/documents/loan/${doc.id}`,
      {
        headers: { authorization: `Bearer ${underwriter.token}` },
      },
    )
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-')
    const stranger = await signUp(t)
    const wrong = await t.request(
      `/web/private/back-office/clients/${stranger.clientId}/documents/loan/${doc.id}`,
      {
        headers: { authorization: `Bearer ${support.token}` },
      },
    )
    expect(wrong.status).toBe(404)

    expect(
      (await call(t, 'GET', '/private/back-office/clients/999999999', undefined, { token: support.token }))
        .status,
    ).toBe(404)
  })

  const audited = (entity: string, clientId: number) =>
    t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, entity), eq(auditEntry.clientId, clientId)))
      .orderBy(desc(auditEntry.id))

  it('records a promise to pay: collections may, an underwriter may not', async () => {
    const today = manilaDate(new Date())
    const body = { amount: 1_500_00, promisedOn: addDays(today, 3), note: 'Pays on payday' }
    const path = `/private/back-office/clients/${borrower.clientId}/promises`
    const refused = await call(t, 'POST', path, body, { token: underwriter.token })
    expect(refused.status).toBe(403)
    const made = await call<PromiseToPay>(t, 'POST', path, body, { token: collections.token })
    expect(made.status).toBe(201)
    expect(made.body.data).toMatchObject({
      loanId,
      amount: 1_500_00,
      promisedOn: body.promisedOn,
      recordedBy: collections.id,
    })
    const [entry] = await audited('promise_to_pay', borrower.clientId)
    expect(entry).toMatchObject({
      userId: collections.id,
      outcome: 'done',
      entityId: String(made.body.data.id),
    })
    expect(entry!.after).toMatchObject({ amount: 1_500_00 })

    const past = await call(
      t,
      'POST',
      path,
      { ...body, promisedOn: addDays(today, -1) },
      { token: collections.token },
    )
    expect(past.status).toBe(400)
    expect(past.body.response.violations?.[0]?.propertyPath).toBe('promisedOn')
    const noSuchDay = await call(
      t,
      'POST',
      path,
      { ...body, promisedOn: '2026-02-30' },
      { token: collections.token },
    )
    expect(noSuchDay.status).toBe(400)
    const zero = await call(t, 'POST', path, { ...body, amount: 0 }, { token: collections.token })
    expect(zero.status).toBe(400)
    const otherLoan = await call(
      t,
      'POST',
      path,
      { ...body, loanId: loanId + 1000 },
      { token: collections.token },
    )
    expect(otherLoan.status).toBe(400)
    const noLoan = await signUp(t)
    const none = await call(t, 'POST', `/private/back-office/clients/${noLoan.clientId}/promises`, body, {
      token: collections.token,
    })
    expect(none.status).toBe(409)

    const file = await call<ClientDesk>(
      t,
      'GET',
      `/private/back-office/clients/${borrower.clientId}`,
      undefined,
      {
        token: underwriter.token,
      },
    )
    expect(file.body.data.promises[0]).toMatchObject({ id: made.body.data.id, note: 'Pays on payday' })
  })

  it("support resends a client's pending code, within the code's limits", async () => {
    const fresh = await signUp(t)
    const path = `/private/back-office/clients/${fresh.clientId}/code`
    // Collections does not hold clients.resend-code.
    expect((await call(t, 'POST', path, undefined, { token: collections.token })).status).toBe(403)
    // The sign-up's code went out a moment ago: the minute between two codes holds for the back office too.
    const tooSoon = await call(t, 'POST', path, undefined, { token: support.token })
    expect(tooSoon.status).toBe(429)
    const sent = await later(t, 61_000, () =>
      call<{ purpose: string; channel: string; nextCodeAt: string }>(t, 'POST', path, undefined, {
        token: support.token,
      }),
    )
    expect(sent.status).toBe(200)
    expect(sent.body.data).toMatchObject({ purpose: 'phone_verify', channel: 'sms' })
    const codes = await t.database.db.select().from(auditEntry).where(eq(auditEntry.clientId, fresh.clientId))
    const entry = codes.find((e) => e.entity === 'verification_code')
    expect(entry).toMatchObject({ userId: support.id, outcome: 'done' })
    expect(JSON.stringify(entry)).not.toMatch(/"code"\s*:\s*"\d{3}"/)

    // A verified client with nothing pending: nothing to resend.
    const idle = await call(t, 'POST', `/private/back-office/clients/${borrower.clientId}/code`, undefined, {
      token: support.token,
    })
    expect(idle.status).toBe(409)
  })

  it('blacklists and takes off the blacklist, audited; an underwriter may not', async () => {
    const c = await signUp(t)
    const path = `/private/back-office/clients/${c.clientId}/blacklist`
    expect((await call(t, 'PUT', path, { blacklisted: true }, { token: underwriter.token })).status).toBe(403)
    const on = await call<{ status: number; blacklisted: boolean }>(
      t,
      'PUT',
      path,
      { blacklisted: true },
      {
        token: support.token,
      },
    )
    expect(on.body.data).toMatchObject({ status: 3, blacklisted: true })
    const off = await call<{ status: number; blacklisted: boolean }>(
      t,
      'PUT',
      path,
      { blacklisted: false },
      {
        token: support.token,
      },
    )
    expect(off.body.data).toMatchObject({ status: 1, blacklisted: false })
    const entries = await audited('client', c.clientId)
    expect(entries.map((e) => e.after)).toEqual([{ status: 1 }, { status: 3 }])
  })

  it('refuses a caller without clients.read and input that is not an id', async () => {
    const noRole = await staffMember(t)
    expect((await search('x', noRole.token)).status).toBe(403)
    expect(
      (await call(t, 'GET', '/private/back-office/clients/abc', undefined, { token: support.token })).status,
    ).toBe(400)
    expect((await search('a\u0000b')).status).toBe(400)
    // An application id as digits reaches the application table only while it is a real bigint.
    expect((await search('999999999999999')).status).toBe(200)
  })
})
