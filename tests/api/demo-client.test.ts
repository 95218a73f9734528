/**
 * The seeded demo client (README, Demo accounts): a complete registration written through the journey's own
 * transactions, its journey at the ready-to-apply step, and an application that the sandbox scoring approves.
 */
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientJourney, disbursementEntry, verificationSession } from '../../server/db/schema-journey'
import { DEMO_CLIENT, DEMO_REGISTRATION, seedDemoClient } from '../../server/services/identity/demo'
import { createTestApp } from '../support/app'
import { call, login, type SignedUp, type TestApp, tokenOf } from './identity-helpers'
import { actual, apply, expectStatus, flowOf, runJobs } from './lending-helpers'

describe('the demo client', () => {
  let t: TestApp
  let demo: SignedUp
  beforeAll(async () => {
    // The real PSGC tree: the demo address uses real codes.
    t = await createTestApp({ psgc: true })
    await seedDemoClient(t.deps)
    const answer = await login(t, DEMO_CLIENT.phone, DEMO_CLIENT.password)
    expect(answer.status).toBe(200)
    demo = {
      token: tokenOf(answer),
      clientId: answer.body.data.client!.id,
      phone: DEMO_CLIENT.phone,
      email: DEMO_CLIENT.email,
      password: DEMO_CLIENT.password,
      deviceId: '',
    } as SignedUp
  }, 60_000)
  afterAll(() => t.close())

  it('is seeded at the ready-to-apply step with the registration it typed', async () => {
    expect(await flowOf(t, demo)).toEqual({ step: 'no_loan_page', status: 'active' })
    const registration = await call<Record<string, unknown>>(
      t,
      'GET',
      '/private/client/registration',
      undefined,
      {
        token: demo.token,
      },
    )
    expect(registration.body.data).toMatchObject({
      details: { firstName: 'Juan', lastName: 'Dela Cruz', confirmed: true },
      employment: { employmentType: 'employed_private', monthlyIncome: '28000', monthlyExpenses: '12000' },
      contacts: [{ kind: 'reference', fullName: DEMO_REGISTRATION.reference.fullName }],
      address: { ...DEMO_REGISTRATION.address },
      identityDocument: { documentType: 'SSS', documentNumber: '******5678' },
    })
    const sessions = await t.database.db
      .select()
      .from(verificationSession)
      .where(eq(verificationSession.clientId, demo.clientId))
    expect(sessions.map((s) => s.status)).toEqual(['approved'])
    const payouts = await call<{ type: string; selected: boolean; accountNumber: string }[]>(
      t,
      'GET',
      '/private/client/disbursement-type',
      undefined,
      { token: demo.token },
    )
    expect(payouts.body.data).toEqual([
      expect.objectContaining({
        type: 'bank_transfer',
        bankId: 1,
        accountNumber: '001234567890',
        selected: true,
      }),
    ])
  })

  it('seeding again writes nothing new', async () => {
    const [before] = await t.database.db
      .select()
      .from(clientJourney)
      .where(eq(clientJourney.clientId, demo.clientId))
    await seedDemoClient(t.deps)
    const [after] = await t.database.db
      .select()
      .from(clientJourney)
      .where(eq(clientJourney.clientId, demo.clientId))
    expect(after!.version).toBe(before!.version)
    const [entries] = await t.database.db
      .select({ n: count() })
      .from(disbursementEntry)
      .where(eq(disbursementEntry.clientId, demo.clientId))
    expect(entries!.n).toBe(1)
  })

  it('applies, and the sandbox scoring approves it', async () => {
    const created = await expectStatus(apply(t, demo), 201)
    expect(created.body.data).toMatchObject({ status: 1, disbursementType: { type: 'bank_transfer' } })
    expect(await flowOf(t, demo)).toEqual({ step: 'application_processing', status: 'completed' })
    await runJobs(t)
    expect((await actual(t, demo)).status).toBe(2)
    expect(await flowOf(t, demo)).toEqual({ step: 'otp_agreement', status: 'active' })
    // A client who applied is not walked back by a later start-up.
    await seedDemoClient(t.deps)
    expect(await flowOf(t, demo)).toEqual({ step: 'otp_agreement', status: 'active' })
  })
})
