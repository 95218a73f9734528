/**
 * Issue 22 item 2: refer-a-friend (spec section 7, docs/decisions/0041-referrals.md). Off by default as in the
 * spec's product (an empty list, 409 referralsDisabled), switched on through the maker-checker configuration
 * (`referrals`), then: who may invite, self-referral, one open invitation per number, the monthly limit, the
 * friend's sign-up and first repaid loan earning the reward (append-only), the same device refused, expiry, and the
 * PATCH that withdraws an invitation (and erases the number). No log line carries the friend's number.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { manilaDate } from '../../domain/pricing/manila-date'
import { defaultReferralConfig } from '../../domain/referrals'
import { application, loan } from '../../server/db/schema-lending'
import { referral, referralReward } from '../../server/db/schema-referrals'
import { createTestApp } from '../support/app'
import { changeConfig } from '../support/config-change'
import { staffMember } from '../support/staff'
import { call, newPhone, type SignedUp, signUp, type TestApp } from './identity-helpers'

type View = {
  id: number
  phone: string
  status: string
  refusal: string | null
  signedUpAt: string | null
  reward: { amount: number; currency: string } | null
}

let t: TestApp
let admin: string

beforeAll(async () => {
  t = await createTestApp()
  admin = (await staffMember(t, 'administrator')).token
}, 120_000)
afterAll(() => t?.close())

/** A loan repaid in full (status 5), written directly: the referral rules read only that fact. */
async function repaidLoan(clientId: number) {
  const [app] = await t.database.db
    .insert(application)
    .values({
      clientId,
      status: 4,
      desiredAmount: 500_000,
      desiredTerm: 14,
      principalAmount: 500_000,
      term: 14,
      packageFeeConsent: false,
      paymentMethod: 'bank_transfer',
      clientKind: 'new',
    })
    .returning({ id: application.id })
  const today = manilaDate(new Date())
  await t.database.db.insert(loan).values({
    clientId,
    applicationId: app!.id,
    status: 5,
    state: 'paid',
    principal: 500_000,
    interest: 14_000,
    fees: 10_000,
    total: 524_000,
    term: 14,
    feeLines: {},
    createdAt: new Date(),
    dueDate: today,
    finalClosingDate: today,
  })
}

const list = (c: SignedUp, query = '') =>
  call<View[]>(t, 'GET', `/private/client/referrals${query}`, undefined, { token: c.token })
const invite = (c: SignedUp, number: string) =>
  call<View>(t, 'POST', '/private/client/referrals', { mobilePhone: { number } }, { token: c.token })
const patch = (c: SignedUp, id: number | string, body: unknown = { status: 'cancelled' }) =>
  call<View>(t, 'PATCH', `/private/client/referrals/${id}`, body, { token: c.token })
const code = (answer: { body: { response: Record<string, unknown> } }) => answer.body.response.code

const switchOn = async (overrides: Partial<typeof defaultReferralConfig> = {}) => {
  const answer = await changeConfig(t, admin, 'referrals', {
    ...defaultReferralConfig,
    enabled: true,
    ...overrides,
  })
  expect(answer.status).toBe(200)
}

describe('referrals switched off (the spec product)', () => {
  it('lists nothing, and refuses to invite or withdraw with 409 referralsDisabled', async () => {
    const c = await signUp(t)
    await repaidLoan(c.clientId)
    const answer = await list(c)
    expect(answer.status).toBe(200)
    expect(answer.body.data).toEqual([])
    expect(answer.res.headers.get('x-total-count')).toBe('0')
    const created = await invite(c, newPhone())
    expect([created.status, code(created)]).toEqual([409, 'referralsDisabled'])
    const changed = await patch(c, 1)
    expect([changed.status, code(changed)]).toEqual([409, 'referralsDisabled'])
    const config = await call<{ referrals: unknown; versions: { referrals: number } }>(
      t,
      'GET',
      '/private/back-office/config/lending',
      undefined,
      { token: admin },
    )
    expect(config.body.data.referrals).toEqual(defaultReferralConfig)
    expect(config.body.data.versions.referrals).toBe(0)
  })

  it('a reward above PHP 500 or a broken document is refused when proposed (422 with violations)', async () => {
    const answer = await call(
      t,
      'PUT',
      '/private/back-office/config/referrals',
      {
        value: { ...defaultReferralConfig, rewardCentavos: 50_001 },
      },
      { token: admin },
    )
    expect([answer.status, code(answer)]).toEqual([422, 'configRejected'])
    const broken = await call(
      t,
      'PUT',
      '/private/back-office/config/referrals',
      { value: { enabled: 'yes' } },
      {
        token: admin,
      },
    )
    expect(broken.status).toBe(422)
  })
})

describe('referrals switched on', () => {
  let referrer: SignedUp
  beforeAll(async () => {
    await switchOn({ monthlyInvitations: 4 })
    referrer = await signUp(t)
  })

  it('only a client with a repaid loan may invite (422 referrerNotEligible)', async () => {
    const answer = await invite(referrer, newPhone())
    expect([answer.status, code(answer)]).toEqual([422, 'referrerNotEligible'])
    await repaidLoan(referrer.clientId)
  })

  it("refuses the referrer's own number and malformed input with 400 on the field", async () => {
    const own = await invite(referrer, referrer.phone)
    expect(own.status).toBe(400)
    expect(own.body.response.violations).toEqual([
      { propertyPath: 'mobilePhone.number', message: 'selfReferral' },
    ])
    const bad = await invite(referrer, '12345')
    expect(bad.status).toBe(400)
    expect(bad.body.response.violations).toEqual([
      { propertyPath: 'mobilePhone.number', message: 'error-incorrect-phone' },
    ])
    expect((await patch(referrer, 'abc')).status).toBe(400)
    expect((await patch(referrer, 1, { status: 'rewarded' })).status).toBe(400)
  })

  it('the friend signs up with the invited number, repays a first loan, and the referrer earns the reward', async () => {
    const phone = newPhone()
    const created = await invite(referrer, phone)
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({
      status: 'invited',
      phone: `•••• ••• ${phone.slice(-4)}`,
      reward: null,
      signedUpAt: null,
    })
    const again = await invite(referrer, phone)
    expect([again.status, code(again)]).toEqual([409, 'alreadyInvited'])
    const other = await signUp(t)
    await repaidLoan(other.clientId)
    const elsewhere = await invite(other, phone)
    expect([elsewhere.status, code(elsewhere)]).toEqual([409, 'alreadyInvited'])

    const friend = await signUp(t, { phone })
    const signedUp = (await list(referrer)).body.data.find((r) => r.id === created.body.data.id)!
    expect(signedUp.status).toBe('signedUp')
    expect(signedUp.signedUpAt).not.toBeNull()

    await repaidLoan(friend.clientId)
    const rewarded = (await list(referrer)).body.data.find((r) => r.id === created.body.data.id)!
    expect(rewarded).toMatchObject({ status: 'rewarded', reward: { amount: 10_000, currency: 'PHP' } })
    // Settled once: listing again adds no second reward, and the number is erased once it served its purpose.
    await list(referrer)
    const rows = await t.database.db
      .select()
      .from(referralReward)
      .where(eq(referralReward.referralId, created.body.data.id))
    expect(rows).toHaveLength(1)
    const [row] = await t.database.db.select().from(referral).where(eq(referral.id, created.body.data.id))
    expect(row!.friendPhone).toBeNull()
    expect(row!.friendClientId).toBe(friend.clientId)
    // A rewarded invitation cannot be withdrawn.
    const late = await patch(referrer, created.body.data.id)
    expect([late.status, code(late)]).toEqual([409, 'referralFinal'])
  })

  it('a reward is append-only: the database refuses to change or remove it', async () => {
    await expect(t.database.db.execute(sql`update referral_reward set amount = 0`)).rejects.toThrow()
    await expect(t.database.db.execute(sql`delete from referral_reward`)).rejects.toThrow()
  })

  it('a friend signing up on a device of the referrer is refused (sameDevice)', async () => {
    const phone = newPhone()
    const created = await invite(referrer, phone)
    expect(created.status).toBe(201)
    await signUp(t, { phone, deviceId: referrer.deviceId })
    const row = (await list(referrer)).body.data.find((r) => r.id === created.body.data.id)!
    expect(row).toMatchObject({ status: 'refused', refusal: 'sameDevice', reward: null })
  })

  it("PATCH withdraws an invitation waiting for the sign-up and erases the number; another client's is 404", async () => {
    const created = await invite(referrer, newPhone())
    expect(created.status).toBe(201)
    const id = created.body.data.id
    const stranger = await signUp(t)
    expect((await patch(stranger, id)).status).toBe(404)
    const cancelled = await patch(referrer, id)
    expect([cancelled.status, cancelled.body.data.status]).toEqual([200, 'cancelled'])
    expect((await patch(referrer, id)).body.data.status).toBe('cancelled')
    const [row] = await t.database.db.select().from(referral).where(eq(referral.id, id))
    expect(row!.friendPhone).toBeNull()
  })

  it('counts every invitation of the month, withdrawn ones too (422 invitationLimit past monthlyInvitations)', async () => {
    // Four so far this month: rewarded, refused, cancelled, and this one.
    expect((await invite(referrer, newPhone())).status).toBe(201)
    const over = await invite(referrer, newPhone())
    expect([over.status, code(over)]).toEqual([422, 'invitationLimit'])
  })

  it('an invitation without a sign-up expires after invitationDays, and a later sign-up earns nothing', async () => {
    const c = await signUp(t)
    await repaidLoan(c.clientId)
    const phone = newPhone()
    const created = await invite(c, phone)
    expect(created.status).toBe(201)
    // 31 days ago (a session does not last a month, so the invitation moves back rather than the clock on).
    const past = new Date(Date.now() - 31 * 86_400_000)
    await t.database.db
      .update(referral)
      .set({ invitedAt: past, expiresAt: new Date(past.getTime() + 30 * 86_400_000) })
      .where(eq(referral.id, created.body.data.id))
    const expired = (await list(c)).body.data[0]!
    expect(expired.status).toBe('expired')
    const [row] = await t.database.db.select().from(referral).where(eq(referral.id, created.body.data.id))
    expect(row!.friendPhone).toBeNull()
    await signUp(t, { phone })
    expect((await list(c)).body.data[0]!.status).toBe('expired')
  })

  it('pages the list with the x-* headers', async () => {
    const answer = await list(referrer, '?perPage=2&page=2')
    expect(answer.status).toBe(200)
    expect(answer.res.headers.get('x-page')).toBe('2')
    expect(answer.res.headers.get('x-total-count')).toBe('4')
    expect(answer.body.data).toHaveLength(2)
  })

  it('no log line carries a phone number', () => {
    expect(t.rawLogs()).not.toMatch(/09\d{9}/)
  })
})
