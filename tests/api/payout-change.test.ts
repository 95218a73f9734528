/**
 * Issue 13, item 9: once registration is finished, adding or selecting another payout account needs the SMS code
 * sent to the client's phone, and the client is told of the change by SMS and e-mail. During registration the
 * accounts are chosen freely. Someone who knows only the password cannot redirect the next loan.
 */
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PAYOUT_ACCOUNTS } from '../../domain/contract/payout'
import { disbursementEntry } from '../../server/db/schema-journey'
import { createTestApp } from '../support/app'
import {
  type Answer,
  call,
  lastCode,
  later,
  outboxFor,
  type SignedUp,
  type TestApp,
} from './identity-helpers'
import { clientAt, seedSmallPsgc } from './journey-helpers'
import { readyClient } from './lending-helpers'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
})
afterAll(() => t?.close())

interface Entry {
  id: number
  type: string
  accountNumber: string | null
  selected: boolean
}

const add = (c: SignedUp, body: Record<string, unknown>) =>
  call<{ entry: Entry }>(t, 'POST', '/private/client/disbursement-type', body, { token: c.token })
const select = (c: SignedUp, id: number, body: Record<string, unknown> = {}) =>
  call<{ entries: Entry[] }>(t, 'PUT', `/private/client/disbursement-type/select/${id}`, body, {
    token: c.token,
  })
const sendCode = (c: SignedUp) =>
  call<{ sent: boolean; nextCodeAt: string; codeExpiresAt: string }>(
    t,
    'POST',
    '/private/client/disbursement-type/send-code',
    {},
    { token: c.token },
  )
const entries = async (c: SignedUp) =>
  (await call<Entry[]>(t, 'GET', '/private/client/disbursement-type', undefined, { token: c.token })).body
    .data
const entryCount = async (c: SignedUp) =>
  (
    await t.database.db
      .select({ n: count() })
      .from(disbursementEntry)
      .where(eq(disbursementEntry.clientId, c.clientId))
  )[0]!.n
const notices = (recipient: string) => outboxFor(t, recipient, 'payout_changed')
const refusal = (a: Answer<unknown>) => [a.status, a.body.response.code]

const gcash = { type: 'ewallet', bankId: 101, accountNumber: '09171239876' }

describe('changing the payout account after registration', () => {
  it('during registration: accounts are added and selected without a code, and no notice is sent', async () => {
    const c = await clientAt(t, 'disbursement_type')
    const bank = await add(c, { type: 'bank_transfer', bankId: 1, accountNumber: '001234567890' })
    expect(bank.status).toBe(201)
    expect((await add(c, gcash)).status).toBe(201)
    expect((await select(c, bank.body.data.entry.id)).status).toBe(200)
    expect(refusal(await sendCode(c))).toEqual([409, 'payoutCodeNotNeeded'])
    expect(await notices(c.phone)).toHaveLength(0)
  })

  it('without a code: refused (422 payoutCodeRequired on `code`), nothing written', async () => {
    const c = await readyClient(t)
    const before = await entryCount(c)
    const added = await add(c, gcash)
    expect(refusal(added)).toEqual([422, 'payoutCodeRequired'])
    expect(added.body.response.violations).toEqual([{ propertyPath: 'code', message: 'payoutCodeRequired' }])
    expect(await entryCount(c)).toBe(before)
    expect(await notices(c.phone)).toHaveLength(0)
  })

  it('a wrong code is refused and writes nothing; the right one adds the account and notifies by SMS and e-mail', async () => {
    const c = await readyClient(t)
    const before = await entryCount(c)
    await later(t, 61_000, async () => {
      const sent = await sendCode(c)
      expect(sent.status).toBe(200)
      expect(Date.parse(sent.body.data.nextCodeAt)).toBeGreaterThan(Date.now())
      // One code a minute per phone, whatever it is for: the answer says how long to wait.
      expect(refusal(await sendCode(c))).toEqual([429, 'codeMinuteLimit'])
      const code = await lastCode(t, c.phone, 'payout_change')
      const wrong = String((Number(code) + 1) % 1000).padStart(3, '0')
      expect(refusal(await add(c, { ...gcash, code: wrong }))).toEqual([422, 'codeIncorrect'])
      expect(await entryCount(c)).toBe(before)
      const added = await add(c, { ...gcash, code })
      expect(added.status).toBe(201)
      expect(added.body.data.entry).toMatchObject({ type: 'ewallet', selected: true })
      // A code opens one change.
      const [first] = (await entries(c)).filter((e) => !e.selected)
      expect(refusal(await select(c, first!.id, { code }))).toEqual([422, 'codeNotSent'])
    })
    const [sms] = await notices(c.phone)
    expect(sms!.channel).toBe('sms')
    expect(sms!.body).toContain('GCash e-wallet ending 9876')
    expect(sms!.body).toContain('If this was not you, call customer care now at 0917 123 4567')
    expect(sms!.body).not.toContain('09171239876')
    const [mail] = await notices(c.email)
    expect(mail!.channel).toBe('email')
    expect(mail!.body).toBe(sms!.body)
  })

  it('selecting another saved account needs the code too; the selected one is reselected freely', async () => {
    const c = await readyClient(t)
    const [current] = await entries(c)
    await later(t, 61_000, async () => {
      await sendCode(c)
      expect((await add(c, { ...gcash, code: await lastCode(t, c.phone, 'payout_change') })).status).toBe(201)
    })
    expect(refusal(await select(c, current!.id))).toEqual([422, 'payoutCodeRequired'])
    expect((await entries(c)).find((e) => e.selected)?.type).toBe('ewallet')
    await later(t, 125_000, async () => {
      expect((await sendCode(c)).status).toBe(200)
      const chosen = await select(c, current!.id, { code: await lastCode(t, c.phone, 'payout_change') })
      expect(chosen.status).toBe(200)
      expect(chosen.body.data.entries.find((e) => e.selected)?.id).toBe(current!.id)
    })
    const [latest] = await notices(c.phone)
    expect(latest!.body).toContain('BDO Unibank account ending 7890')
    const selectedId = current!.id
    expect((await select(c, selectedId)).status).toBe(200)
  })

  it('a client keeps at most MAX_PAYOUT_ACCOUNTS payout accounts', async () => {
    const c = await clientAt(t, 'disbursement_type')
    for (let i = 0; i < MAX_PAYOUT_ACCOUNTS; i++)
      expect(
        (
          await add(c, {
            type: 'bank_transfer',
            bankId: 1,
            accountNumber: `00123456${String(i).padStart(4, '0')}`,
          })
        ).status,
      ).toBe(201)
    const over = await add(c, gcash)
    expect(refusal(over)).toEqual([422, 'payoutAccountLimit'])
    expect(await entryCount(c)).toBe(MAX_PAYOUT_ACCOUNTS)
  })
})
