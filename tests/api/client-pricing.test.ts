/**
 * The logged-in client's price (issue 3 item 3): first-loan pricing until the first paid loan, repeat pricing
 * after it, and never above the amount the client may borrow now (the limit less what a running loan owes:
 * ADR 0030).
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

  it('prices a first loan, only the rest of the limit while a loan is active, and a repeat loan once it is paid', async () => {
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

    // While it is active, an additional loan may take the rest of the limit (PHP 10,000 less the PHP 5,000 owed).
    await expectStatus(clientOffer(c.token, '/private/client/arithmetic/offer/stl/500000/14'), 200)
    const refused = await clientOffer(c.token, '/private/client/arithmetic/offer/stl/600000/14')
    expect(refused.status).toBe(400)
    expect(refused.body.response.violations?.[0]?.propertyPath).toBe('amount')

    // Paid: the client is a repeat client, priced like the calculator's repeat tab.
    await t.database.db
      .update(loan)
      .set({ status: LoanStatus.paid, state: 'paid', closedAt: new Date() })
      .where(eq(loan.id, active!.id))
    const repeat = await expectStatus(clientOffer(c.token), 200)
    expect(repeat.body.data).toEqual(await guestOffer('repeated'))
  })
})
