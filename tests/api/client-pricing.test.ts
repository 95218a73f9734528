/**
 * The logged-in client's price (issue 3 item 3): first-loan pricing until the first paid loan, repeat pricing
 * after it, and never above the amount the client may borrow now (none while a loan is active).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loan } from '../../server/db/schema-lending'
import { LoanStatus } from '../../server/services/lending/applications'
import { createTestApp } from '../support/app'
import { call, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { apply, expectStatus, readyClient, runJobs, sign } from './lending-helpers'

type PricedOffer = { total: { amount: number }; discount: { interest: { amount: number } } }

describe('client pricing by borrowing history', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
  })
  afterAll(() => t.close())

  const clientOffer = (token: string, path = '/private/client/arithmetic/offer/stl/300000/14') =>
    call<PricedOffer>(t, 'GET', path, undefined, { token })
  const guestOffer = async (sequence: 'first' | 'repeated') =>
    (await call<PricedOffer>(t, 'GET', `/public/arithmetic/offer/stl/${sequence}/300000/14`)).body.data

  it('prices a first loan, refuses a new one while a loan is active, and prices a repeat loan once it is paid', async () => {
    const c = await readyClient(t, 'Juan')
    const first = await expectStatus(clientOffer(c.token), 200)
    // A new client is priced as a first loan, with the first-loan discount of the configuration.
    expect(first.body.data.total.amount).toBeLessThanOrEqual((await guestOffer('first')).total.amount)

    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await sign(t, c, app.id)).status).toBe(200)
    await runJobs(t)
    const [active] = await t.database.db.select().from(loan).where(eq(loan.applicationId, app.id))
    expect(active?.status).toBe(LoanStatus.active)

    // One loan at a time: nothing is available while it is active, so no price for a new one.
    const refused = await clientOffer(c.token)
    expect(refused.status).toBe(400)
    expect(refused.body.response.violations?.[0]?.propertyPath).toBe('amount')

    // Paid: the client is a repeat client, priced like the calculator's repeat tab.
    await t.database.db.update(loan).set({ status: LoanStatus.paid }).where(eq(loan.id, active!.id))
    const repeat = await expectStatus(clientOffer(c.token), 200)
    expect(repeat.body.data).toEqual(await guestOffer('repeated'))
  })
})
