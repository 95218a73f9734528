/**
 * Refer-a-friend rewards spent (docs/decisions/0041-referrals.md): a referrer's unused reward comes off the next
 * loan's service fee and then its interest, the signature records its use in the signing transaction, a loan
 * cancelled before the money left gives it back, and documents priced on a reward spent meanwhile must be
 * rendered again. How a reward is earned is tests/api/referrals.test.ts; here it is written directly.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PricedOffer } from '../../domain/contract/pricing-answers'
import { application, loan } from '../../server/db/schema-lending'
import { referral, referralReward, referralRewardUse } from '../../server/db/schema-referrals'
import { createTestApp } from '../support/app'
import { call, later, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, seedSmallPsgc } from './journey-helpers'
import { aMinuteLater, apply, expectStatus, readyClient, runJobs, sign, signingCode } from './lending-helpers'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
})
afterAll(() => t?.close())

/** A reward of `amount` centavos earned by `referrer` (its invitation rewarded). */
async function rewardOf(referrer: SignedUp, amount: number) {
  const now = new Date()
  const [row] = await t.database.db
    .insert(referral)
    .values({
      referrerClientId: referrer.clientId,
      friendPhone: null,
      phoneLast4: '4567',
      status: 'rewarded',
      invitedAt: now,
      expiresAt: now,
      updatedAt: now,
    })
    .returning({ id: referral.id })
  await t.database.db
    .insert(referralReward)
    .values({ referralId: row!.id, referrerClientId: referrer.clientId, amount, createdAt: now })
}

/** The client's offer for what `apply` asks by default: PHP 5,000 for 14 days with the package. */
const offerOf = async (c: SignedUp, path = '/private/client/arithmetic/offer/stl/500000/14') =>
  (await expectStatus(call<PricedOffer>(t, 'GET', path, undefined, { token: c.token }), 200)).body.data

const usesOf = (c: SignedUp) =>
  t.database.db.select().from(referralRewardUse).where(eq(referralRewardUse.clientId, c.clientId))

/** The offer without the reward: the same figures for a client with none. */
const withoutReward = (offer: PricedOffer) => {
  const { referralReward: _reward, ...rest } = offer
  return rest
}

describe('a referral reward spent on the next loan', () => {
  it('comes off the service fee then the interest; signing spends it; a loan cancelled before payout gives it back', async () => {
    // The payout to this account fails (sandbox), so the back office can cancel the signed loan.
    const c = await readyClient(t, 'Juan', { type: 'bank_transfer', accountNumber: '009876540000' })
    const plain = await offerOf(c)
    expect(plain.referralReward).toBeUndefined()

    await rewardOf(c, 300)
    await rewardOf(c, 100_000)
    const offer = await offerOf(c)
    const fee = plain.serviceFee.amount
    const reward = Math.min(100_300, fee + plain.interest.amount)
    expect(offer.referralReward).toEqual({ amount: reward })
    expect(offer.serviceFee.amount).toBe(0)
    expect(offer.interest.amount).toBe(plain.interest.amount - (reward - fee))
    expect(offer.total.amount).toBe(plain.total.amount - reward)
    expect(offer.discount.serviceFee.amount).toBe(plain.discount.serviceFee.amount + fee)
    expect(offer.total_without_discount).toEqual(plain.total_without_discount)

    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    expect((await sign(t, c, app.id)).status).toBe(200)
    const [signed] = await t.database.db.select().from(application).where(eq(application.id, app.id))
    const accepted = signed!.acceptedOffer as PricedOffer
    expect(accepted.referralReward).toEqual({ amount: reward })
    const [draft] = await t.database.db.select().from(loan).where(eq(loan.applicationId, app.id))
    expect(draft!.total).toBe(accepted.total.amount)
    expect(draft!.interest).toBe(accepted.interest.amount)
    expect((await usesOf(c)).map((u) => [u.applicationId, u.amount])).toEqual([[app.id, reward]])
    // Spent: the next offer takes only what is left.
    const after = await offerOf(c)
    expect(after.referralReward?.amount ?? 0).toBe(Math.min(100_300 - reward, fee + plain.interest.amount))

    // The payout failed; the back office cancels the loan before any money left: the reward is whole again.
    await runJobs(t)
    const admin = await adminToken(t)
    await expectStatus(
      call(
        t,
        'POST',
        `/private/back-office/loan/${draft!.id}/cancel`,
        { reason: 'Payout failed' },
        { token: admin },
      ),
    )
    expect(withoutReward(await offerOf(c))).toEqual(withoutReward(offer))
    expect((await offerOf(c)).referralReward).toEqual({ amount: reward })
    // Given back by leaving the use out, never by removing it: both tables are append-only.
    expect(await usesOf(c)).toHaveLength(1)
    await expect(t.database.db.execute(sql`update referral_reward_use set amount = 1`)).rejects.toThrow()
    await expect(t.database.db.execute(sql`delete from referral_reward_use`)).rejects.toThrow()
  })

  it('documents priced on a reward spent meanwhile are refused (409 documentsOutdated) and priced again without it', async () => {
    const c = await readyClient(t, 'Juan')
    await rewardOf(c, 200)
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    await expectStatus(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
    // Another application of the client's spends the reward after the documents were rendered.
    const [other] = await t.database.db
      .insert(application)
      .values({
        clientId: c.clientId,
        status: 5,
        desiredAmount: 500_000,
        desiredTerm: 14,
        principalAmount: 500_000,
        term: 14,
        packageFeeConsent: false,
        paymentMethod: 'bank_transfer',
        clientKind: 'new',
      })
      .returning({ id: application.id })
    await t.database.db
      .insert(referralRewardUse)
      .values({ clientId: c.clientId, applicationId: other!.id, amount: 200, createdAt: new Date() })
    const refused = await aMinuteLater(t, async () => {
      const code = await signingCode(t, c, app.id)
      return call(t, 'POST', `/private/client/application/agreement/${app.id}`, { code }, { token: c.token })
    })
    expect([refused.status, refused.body.response.code]).toEqual([409, 'documentsOutdated'])
    const [untouched] = await t.database.db.select().from(loan).where(eq(loan.applicationId, app.id))
    expect(untouched).toBeUndefined()

    // Rendered again, the documents are priced on what is left (nothing), and the signature goes through (a
    // minute after the refused one's code).
    expect((await later(t, 61_000, () => sign(t, c, app.id))).status).toBe(200)
    const [signed] = await t.database.db.select().from(application).where(eq(application.id, app.id))
    expect((signed!.acceptedOffer as PricedOffer).referralReward).toBeUndefined()
    expect((await usesOf(c)).map((u) => u.applicationId)).toEqual([other!.id])
  })
})
