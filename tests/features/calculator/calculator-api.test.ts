import { describe, expect, it, vi } from 'vitest'
import { createActor, toPromise } from 'xstate'
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import type { OfferRequest } from '../../../domain/contract/pricing'
import { calculatorActors, validatePromoCode } from '../../../src/features/calculator/calculator-api'
import { fakeApi } from '../../support/fake-api'

const guestRequest: OfferRequest = {
  type: 'stl',
  kind: 'guest',
  sequenceType: 'first',
  amount: 500_000,
  term: 30,
  optionalFee: true,
  promoCode: null,
}

const offerCallOf = async (request: OfferRequest) => {
  const { api, calls } = fakeApi(() => ({}))
  await toPromise(createActor(calculatorActors(api).fetchOffer, { input: request }).start())
  return calls[0]!
}

describe('offer request', () => {
  it('puts centavos and days in the path: the guest call for a visitor, the client call when logged in', async () => {
    expect((await offerCallOf(guestRequest)).path).toBe('/public/arithmetic/offer/stl/first/500000/30')
    expect(
      (await offerCallOf({ ...guestRequest, sequenceType: 'repeated', amount: 1_200_000, term: 45 })).path,
    ).toBe('/public/arithmetic/offer/stl/repeated/1200000/45')
    expect((await offerCallOf({ ...guestRequest, kind: 'repeat' })).path).toBe(
      '/private/client/arithmetic/offer/stl/500000/30',
    )
  })

  it('sends the optional fee always and the promo code only when there is one', async () => {
    expect((await offerCallOf(guestRequest)).query).toEqual({ optionalFee: 'true' })
    expect((await offerCallOf({ ...guestRequest, optionalFee: false, promoCode: 'HIRAM10' })).query).toEqual({
      optionalFee: 'false',
      promo_name: 'HIRAM10',
    })
  })
})

describe('calculator actors', () => {
  it('loads and validates the configuration, passing the abort signal', async () => {
    const { api, calls } = fakeApi(() => defaultCalculatorConfig)
    const config = await toPromise(createActor(calculatorActors(api).loadConfig).start())
    expect(config).toEqual(defaultCalculatorConfig)
    expect(calls).toMatchObject([{ method: 'GET', path: '/public/config/calculator' }])
    expect(calls[0]?.options?.signal).toBeInstanceOf(AbortSignal)
  })

  it('refuses a configuration that does not parse instead of guessing', async () => {
    const { api } = fakeApi(() => ({ termLimits: {} }))
    await expect(toPromise(createActor(calculatorActors(api).loadConfig).start())).rejects.toThrow()
  })

  it('fetches the offer for the request and aborts it when the actor stops', async () => {
    let seen: AbortSignal | undefined
    const { api, calls } = fakeApi(
      ({ options }) =>
        new Promise((_resolve, reject) => {
          seen = options?.signal
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')))
        }),
    )
    const actor = createActor(calculatorActors(api).fetchOffer, { input: guestRequest }).start()
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]).toMatchObject({
      method: 'GET',
      path: '/public/arithmetic/offer/stl/first/500000/30',
      query: { optionalFee: 'true' },
    })
    expect(seen?.aborted).toBe(false)
    actor.stop()
    expect(seen?.aborted).toBe(true)
  })

  it('checks a promo code on the public or the private path', async () => {
    const { api, calls } = fakeApi(() => ({ code: 'HIRAM10', status: 'valid', valid: true }))
    await validatePromoCode(api, 'HIRAM10', false)
    await validatePromoCode(api, 'HIRAM10', true)
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'PUT /public/client/promocode/validate',
      'PUT /private/client/promocode/validate',
    ])
    expect(calls[0]?.body).toEqual({ promoCode: 'HIRAM10' })
  })
})
