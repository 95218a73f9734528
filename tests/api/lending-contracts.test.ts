/**
 * The answers of the lending calls are what their contracts (domain/contract/lending.ts) say: every successful
 * answer's `data` parses with the contract's response schema, and the schema names every field the server
 * sends (a screen's `looseObject` would keep an unnamed field silently, so the names are checked on their own).
 * The screens parse these answers with the same schemas, and the services are typed by them.
 */
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnyContract, pathOf } from '../../domain/contract/define'
import * as lending from '../../domain/contract/lending'
import { createTestApp } from '../support/app'
import { contractsOf, type Schema, unnamedKeys } from '../support/contract-answers'
import {
  type CallOptions,
  type ContractInput,
  callContract,
  lastCode,
  type SignedUp,
  type TestApp,
} from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { adminToken, aMinuteLater, applyBody, readyClient, runJobs } from './lending-helpers'

const contracts = contractsOf(lending)

describe('lending answers', () => {
  let t: TestApp
  let admin: string
  const answered = new Set<AnyContract>()
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t.close())

  const request = (contract: AnyContract, input: ContractInput = {}, options: CallOptions = {}) =>
    callContract(t, contract, input, options)

  /** The call succeeds with `status`, its data parses with the contract's schema, which names all of it. */
  async function expectAnswer<T = Record<string, unknown>>(
    contract: AnyContract,
    input: ContractInput,
    options: CallOptions,
    status = 200,
  ): Promise<T> {
    const answer = await request(contract, input, options)
    expect(answer.status, `${contract.path}: ${JSON.stringify(answer.body.response)}`).toBe(status)
    const data = answer.body.data
    const schema = contract.response as Schema
    expect(v.parse(schema, data), contract.path).toEqual(data)
    expect(unnamedKeys(schema, data), contract.path).toEqual([])
    answered.add(contract)
    return data as T
  }

  const as = (c: SignedUp): CallOptions => ({ token: c.token })
  const apply = (c: SignedUp, amount = 5_000_00, term = 14) =>
    expectAnswer<{ id: number }>(lending.createApplication, { body: applyBody(amount, term) }, as(c), 201)

  it('finds an unnamed field, through arrays, nullables, unions and intersections', () => {
    const schema = v.object({
      a: v.nullable(v.looseObject({ b: v.number() })),
      list: v.array(v.union([v.object({ x: v.number() }), v.object({ y: v.number() })])),
      both: v.intersect([v.object({ p: v.number() }), v.object({ q: v.number() })]),
      free: v.record(v.string(), v.unknown()),
    }) as unknown as Schema
    const data = {
      a: { b: 1, c: 2 },
      list: [{ x: 1 }, { y: 2, z: 3 }],
      both: { p: 1, q: 2, r: 3 },
      free: { k: 1 },
    }
    expect(unnamedKeys(schema, data)).toEqual(['.a.c', '.list[1].z', '.both.r'])
  })

  it('an application from the payment method to the active loan: status, change, promo code, offer, documents, signature', async () => {
    const c = await readyClient(t, 'Juan')
    await expectAnswer(lending.getPaymentMethod, {}, as(c))
    await expectAnswer(lending.getActualApplication, {}, as(c))
    await expectAnswer(lending.getActualApplicationStatus, {}, as(c))
    const { id } = await apply(c)
    await expectAnswer(lending.getActualApplication, {}, as(c))
    await expectAnswer(lending.getActualApplicationStatus, {}, as(c))
    await expectAnswer(
      lending.changeApplication,
      { params: { id }, body: { amount: { amount: 6_000_00, currency: 'PHP' } } },
      as(c),
    )
    await expectAnswer(
      lending.applyApplicationPromo,
      { params: { applicationId: id }, body: { promoCode: 'WELCOME' } },
      as(c),
    )
    await expectAnswer(lending.getApplicationOffer, { params: { id } }, as(c))
    await runJobs(t)
    await expectAnswer(lending.renderDocuments, {}, as(c), 201)
    await expectAnswer(lending.getApplicationDocuments, {}, as(c))
    await expectAnswer(lending.listDocuments, { query: { perPage: '5' } }, as(c))
    const pdf = await t.request(`/web${pathOf(lending.downloadDocument, { type: 'loan_agreement' })}`, {
      headers: { authorization: `Bearer ${c.token}` },
    })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    answered.add(lending.downloadDocument)
    await aMinuteLater(t, async () => {
      await expectAnswer(lending.signAgreement, { params: { id }, body: {} }, as(c))
      const code = await lastCode(t, c.phone, 'agreement')
      await expectAnswer(lending.signAgreement, { params: { id }, body: { code } }, as(c))
    })
    await expectAnswer(lending.getActiveLoan, {}, as(c))
    await runJobs(t)
    await expectAnswer(lending.getActiveLoan, {}, as(c))
    // The signed offer, as it was signed.
    await expectAnswer(lending.getApplicationOffer, { params: { id } }, as(c))
  })

  it('counter-offers: a special offer, a decrease and an increase answered; an application cancelled', async () => {
    const special = await readyClient(t, 'Special')
    const decrease = await readyClient(t, 'Decrease')
    const increase = await readyClient(t, 'Increase')
    const cancelled = await readyClient(t, 'Juan')
    await apply(special, 6_000_00, 10)
    await apply(decrease, 8_000_00, 20)
    await apply(increase, 3_000_00, 15)
    const { id } = await apply(cancelled)
    await runJobs(t)
    await expectAnswer(lending.approveSpecialOffer, { body: {} }, as(special))
    await expectAnswer(lending.approveDecreasedOffer, { body: {} }, as(decrease))
    await expectAnswer(
      lending.answerIncreasedOffer,
      { body: { amount: { amount: 7_000_00 }, term: { value: 12 } } },
      as(increase),
    )
    await expectAnswer(lending.cancelApplication, { params: { id } }, as(cancelled))
  })

  it('the back office: the review queue, the assignment and the decision', async () => {
    const c = await readyClient(t, 'Manual')
    const { id } = await apply(c)
    await runJobs(t)
    const queue = await expectAnswer<{ id: number }[]>(lending.getReviewQueue, {}, { token: admin })
    expect(queue.map((item) => item.id)).toContain(id)
    await expectAnswer(lending.assignApplication, { params: { id }, body: {} }, { token: admin })
    await expectAnswer(
      lending.decideApplication,
      { params: { id }, body: { decision: 'approve', reason: 'Documents checked by phone.' } },
      { token: admin },
    )
  })

  it('every lending contract was answered above', () => {
    expect(contracts.filter((contract) => !answered.has(contract)).map((c) => c.path)).toEqual([])
  })
})
