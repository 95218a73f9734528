import { describe, expect, it, vi } from 'vitest'
import { createActor, toPromise } from 'xstate'
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import type { OfferRequest } from '../../../machines/calculator.machine'
import type { ApiClient } from '../../../src/api/client'
import {
  CONFIG_PATH,
  calculatorActors,
  offerPathOf,
  offerQueryOf,
  validatePromoCode,
} from '../../../src/features/calculator/calculator-api'

const guestRequest: OfferRequest = {
  type: 'stl',
  kind: 'guest',
  sequenceType: 'first',
  amount: 500_000,
  term: 30,
  optionalFee: true,
  promoCode: null,
}

function fakeApi(answer: unknown) {
  const get = vi.fn(async (_path: string, _options?: unknown) => answer)
  const put = vi.fn(async (_path: string, _body?: unknown) => answer)
  return { api: { get, put } as unknown as ApiClient, get, put }
}

describe('offer request', () => {
  it('puts centavos and days in the path: the guest call for a visitor, the client call when logged in', () => {
    expect(offerPathOf(guestRequest)).toBe('/public/arithmetic/offer/stl/first/500000/30')
    expect(offerPathOf({ ...guestRequest, sequenceType: 'repeated', amount: 1_200_000, term: 45 })).toBe(
      '/public/arithmetic/offer/stl/repeated/1200000/45',
    )
    expect(offerPathOf({ ...guestRequest, kind: 'repeat' })).toBe(
      '/private/client/arithmetic/offer/stl/500000/30',
    )
  })

  it('sends the optional fee always and the promo code only when there is one', () => {
    expect(offerQueryOf(guestRequest)).toEqual({ optionalFee: 'true' })
    expect(offerQueryOf({ ...guestRequest, optionalFee: false, promoCode: 'HIRAM10' })).toEqual({
      optionalFee: 'false',
      promo_name: 'HIRAM10',
    })
  })
})

describe('calculator actors', () => {
  it('loads and validates the configuration, passing the abort signal', async () => {
    const { api, get } = fakeApi(defaultCalculatorConfig)
    const config = await toPromise(createActor(calculatorActors(api).loadConfig).start())
    expect(config).toEqual(defaultCalculatorConfig)
    expect(get).toHaveBeenCalledWith(CONFIG_PATH, { signal: expect.any(AbortSignal) })
  })

  it('refuses a configuration that does not parse instead of guessing', async () => {
    const { api } = fakeApi({ termLimits: {} })
    await expect(toPromise(createActor(calculatorActors(api).loadConfig).start())).rejects.toThrow()
  })

  it('fetches the offer for the request and aborts it when the actor stops', async () => {
    let seen: AbortSignal | undefined
    const get = vi.fn(
      (_path: string, options?: { signal?: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          seen = options?.signal
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')))
        }),
    )
    const api = { get } as unknown as ApiClient
    const actor = createActor(calculatorActors(api).fetchOffer, { input: guestRequest }).start()
    await vi.waitFor(() => expect(get).toHaveBeenCalled())
    expect(get.mock.calls[0]?.[0]).toBe('/public/arithmetic/offer/stl/first/500000/30')
    expect(get.mock.calls[0]?.[1]).toMatchObject({ query: { optionalFee: 'true' } })
    expect(seen?.aborted).toBe(false)
    actor.stop()
    expect(seen?.aborted).toBe(true)
  })

  it('checks a promo code on the public or the private path', async () => {
    const { api, put } = fakeApi({ code: 'HIRAM10', status: 'valid', valid: true })
    await validatePromoCode(api, 'HIRAM10', false)
    await validatePromoCode(api, 'HIRAM10', true)
    expect(put.mock.calls.map((call) => call[0])).toEqual([
      '/public/client/promocode/validate',
      '/private/client/promocode/validate',
    ])
    expect(put.mock.calls[0]?.[1]).toEqual({ promoCode: 'HIRAM10' })
  })
})
