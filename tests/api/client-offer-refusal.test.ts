/**
 * Issue 13 item 11: a first-time client who asks for a repeat-client term is refused with a reason that says
 * why and what to choose, the message the calculator shows; the same client's valid request is priced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../support/app'
import { call, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { expectStatus, readyClient } from './lending-helpers'

describe('the client offer refusal says why and how to fix it', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
  })
  afterAll(() => t.close())

  it('a first-time client asking for 60 days is told to choose up to 30', async () => {
    const c = await readyClient(t, 'Juan')
    const offer = (amount: number, term: number) =>
      call(t, 'GET', `/private/client/arithmetic/offer/stl/${amount}/${term}`, undefined, { token: c.token })
    const refused = await offer(500_000, 60)
    expect(refused.status).toBe(400)
    expect(refused.body.response.violations).toEqual([
      { propertyPath: 'term', message: 'Repeat-client terms need a repaid loan: choose up to 30 days.' },
    ])
    const tooMuch = await offer(2_000_000, 30)
    expect(tooMuch.body.response.violations).toEqual([
      {
        propertyPath: 'amount',
        message: 'Amounts over ₱10 000.00 need a repaid loan: choose up to ₱10 000.00.',
      },
    ])
    await expectStatus(offer(500_000, 30), 200)
  })
})
