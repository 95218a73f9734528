/**
 * Issue 22 item 5: the client statuses the spec lists and the journey now sets (section 4): verification (4) while
 * the identity-verification provider has an open session, bank account select (5) while a bounced payout waits for
 * another account. Each is left back to active (1); neither ever turns a blocked client active. And the application
 * status terminated (23): the lender ends a signed application whose payout failed (the back office's loan cancel).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../../server/db/schema-identity'
import { application, loan } from '../../server/db/schema-lending'
import { createTestApp } from '../support/app'
import { call, later, type SignedUp, type TestApp } from './identity-helpers'
import { addBankAccountWithCode, adminToken, clientAt, seedSmallPsgc } from './journey-helpers'
import { actual, apply, expectStatus, flowOf, readyClient, runJobs, sign } from './lending-helpers'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
}, 120_000)
afterAll(() => t?.close())

const statusOf = async (c: SignedUp) =>
  (await call<{ status: number }>(t, 'GET', '/private/client', undefined, { token: c.token })).body.data
    .status

async function verify(lastName: string) {
  const c = await clientAt(t, 'veriff', { lastName })
  expect(await statusOf(c)).toBe(1)
  const session = await call<{ id: string }>(
    t,
    'POST',
    '/private/client/veriff/session',
    {},
    { token: c.token },
  )
  expect(session.status).toBe(201)
  const during = await statusOf(c)
  const decision = await call<{ status: string }>(
    t,
    'GET',
    `/private/client/veriff/decision/${session.body.data.id}`,
    undefined,
    { token: c.token },
  )
  return { c, during, decision: decision.body.data.status }
}

describe('client status 4, verification', () => {
  it('is set while the session is open and back to active once approved', async () => {
    const { c, during, decision } = await verify('Reyes')
    expect([during, decision]).toEqual([4, 'approved'])
    expect(await statusOf(c)).toBe(1)
  })

  it('stays while the provider asks for a resubmission, and ends with a decline too', async () => {
    const resubmit = await verify('Resubmit-Santos')
    expect([resubmit.during, resubmit.decision]).toEqual([4, 'resubmission_requested'])
    expect(await statusOf(resubmit.c)).toBe(4)
    const declined = await verify('Declined')
    expect(declined.decision).toBe('declined')
    expect(await statusOf(declined.c)).toBe(1)
  })

  it('never makes a blocked client active', async () => {
    const c = await clientAt(t, 'veriff', { lastName: 'Reyes' })
    const session = await call<{ id: string }>(
      t,
      'POST',
      '/private/client/veriff/session',
      {},
      { token: c.token },
    )
    await t.database.db.update(client).set({ status: 2 }).where(eq(client.id, c.clientId))
    await call(t, 'GET', `/private/client/veriff/decision/${session.body.data.id}`, undefined, {
      token: c.token,
    })
    const [row] = await t.database.db.select().from(client).where(eq(client.id, c.clientId))
    expect(row!.status).toBe(2)
  })
})

describe('client status 5, bank account select', () => {
  it('is set when the payout bounces and back to active when it is retried to another account', async () => {
    const c = await readyClient(t, 'Juan', { type: 'bank_transfer', accountNumber: '009876540000' })
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await sign(t, c, app.id)).status).toBe(200)
    expect(await statusOf(c)).toBe(1)
    await runJobs(t)
    expect(await flowOf(t, c)).toEqual({ step: 'disbursement_type', status: 'active' })
    expect(await statusOf(c)).toBe(5)

    await later(t, 125_000, async () => {
      await addBankAccountWithCode(t, c, '001122334455')
    })
    expect(await statusOf(c)).toBe(5)
    await expectStatus(call(t, 'PUT', '/private/client/finish', {}, { token: c.token }))
    expect(await statusOf(c)).toBe(1)
    await runJobs(t)
    expect((await actual(t, c)).status).toBe(4)
  })
})

describe('application status 23, terminated', () => {
  it("the back office's cancel of a signed loan whose payout failed terminates the application; the client may apply again", async () => {
    const c = await readyClient(t, 'Juan', { type: 'bank_transfer', accountNumber: '009876540000' })
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await sign(t, c, app.id)).status).toBe(200)
    await runJobs(t)
    expect(await statusOf(c)).toBe(5)
    const [row] = await t.database.db.select({ id: loan.id }).from(loan).where(eq(loan.clientId, c.clientId))
    const admin = await adminToken(t)
    await expectStatus(
      call(
        t,
        'POST',
        `/private/back-office/loan/${row!.id}/cancel`,
        { reason: 'Payout failed twice' },
        { token: admin },
      ),
    )
    const [ended] = await t.database.db.select().from(application).where(eq(application.id, app.id))
    expect(ended!.status).toBe(23)
    expect(await statusOf(c)).toBe(1)
    expect(await flowOf(t, c)).toEqual({ step: 'no_loan_page', status: 'active' })
    // Terminated is not active (spec section 4): a new application may be made.
    await later(t, 125_000, async () => expect((await apply(t, c)).status).toBe(201))
  })
})
