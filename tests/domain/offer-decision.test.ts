import { describe, expect, it } from 'vitest'
import {
  applicationStatus,
  consentUpdateAfterAnswer,
  type DecisionApplication,
  decideOffer,
  isActiveApplication,
  offerKindOf,
} from '../../domain/offer-decision'

const app = (status: number, offered = { amount: 1_200_000, term: 30 }): DecisionApplication => ({
  id: 7,
  status,
  desired: { amount: 800_000, term: 30 },
  offered,
  principal: 800_000,
  feeConsent: true,
})

describe('offerKindOf', () => {
  it('special offer and yhat decrease offer less, yhat increase more, anything else nothing', () => {
    expect(offerKindOf(13)).toBe('decrease')
    expect(offerKindOf(17)).toBe('decrease')
    expect(offerKindOf(18)).toBe('increase')
    for (const status of [1, 2, 3, 4, 5, 6, 7, 14, 23, 401]) expect(offerKindOf(status)).toBeNull()
  })
})

describe('decideOffer', () => {
  it('approving a decrease: special offer approve for status 13, yhat decrease approve for 17, no body', () => {
    const special = decideOffer(app(13, { amount: 500_000, term: 21 }), { type: 'approve' })
    const yhat = decideOffer(app(17, { amount: 500_000, term: 21 }), { type: 'approve' })
    expect(special).toEqual({
      ok: true,
      call: {
        name: 'specialOfferApprove',
        method: 'PUT',
        path: '/private/client/special/offer/approve',
        body: null,
      },
    })
    expect(yhat).toEqual({
      ok: true,
      call: {
        name: 'yhatDecreaseApprove',
        method: 'PUT',
        path: '/private/client/yhat/offer/approve/decrease',
        body: null,
      },
    })
  })

  it('approving a decrease takes no choice', () => {
    expect(decideOffer(app(17), { type: 'approve', choice: { amount: 1, term: 1 } })).toEqual({
      ok: false,
      reason: 'choice-not-allowed',
    })
  })

  it('approving an increase sends the chosen amount and term, within principal..offered', () => {
    const decision = decideOffer(app(18), { type: 'approve', choice: { amount: 1_000_000, term: 21 } })
    expect(decision).toEqual({
      ok: true,
      call: {
        name: 'yhatIncreaseApprove',
        method: 'PUT',
        path: '/private/client/yhat/offer/approve/increase',
        body: { amount: { amount: 1_000_000, currency: 'PHP' }, term: { value: 21, unit: 'day' } },
      },
    })
    // The bounds are inclusive.
    expect(decideOffer(app(18), { type: 'approve', choice: { amount: 800_000, term: 1 } }).ok).toBe(true)
    expect(decideOffer(app(18), { type: 'approve', choice: { amount: 1_200_000, term: 30 } }).ok).toBe(true)
    for (const choice of [
      { amount: 799_999, term: 21 },
      { amount: 1_200_001, term: 21 },
      { amount: 1_000_000, term: 0 },
      { amount: 1_000_000.5, term: 21 },
    ]) {
      expect(decideOffer(app(18), { type: 'approve', choice })).toEqual({
        ok: false,
        reason: 'choice-out-of-range',
      })
    }
    expect(decideOffer(app(18), { type: 'approve' })).toEqual({ ok: false, reason: 'choice-required' })
  })

  it('refusing an increase sends the original desired amount and term to yhat increase approve', () => {
    expect(decideOffer(app(18), { type: 'refuse' })).toEqual({
      ok: true,
      call: {
        name: 'yhatIncreaseApprove',
        method: 'PUT',
        path: '/private/client/yhat/offer/approve/increase',
        body: { amount: { amount: 800_000, currency: 'PHP' }, term: { value: 30, unit: 'day' } },
      },
    })
  })

  it('refusing a decrease (13 or 17) cancels the application: the approvals refuse more than the offer', () => {
    for (const status of [13, 17]) {
      expect(decideOffer(app(status), { type: 'refuse' })).toEqual({
        ok: true,
        call: {
          name: 'cancelApplication',
          method: 'POST',
          path: '/private/client/application/7/cancel',
          body: null,
        },
      })
    }
  })

  it('no offer, no call', () => {
    expect(decideOffer(app(3), { type: 'approve' })).toEqual({ ok: false, reason: 'no-offer' })
    expect(decideOffer(app(14), { type: 'refuse' })).toEqual({ ok: false, reason: 'no-offer' })
  })
})

describe('isActiveApplication', () => {
  it('is active unless canceled, completed, rejected or terminated', () => {
    const inactive = [
      applicationStatus.canceled,
      applicationStatus.completed,
      applicationStatus.rejected,
      applicationStatus.terminated,
    ]
    for (const status of Object.values(applicationStatus)) {
      expect(isActiveApplication(status)).toBe(!(inactive as number[]).includes(status))
    }
  })
})

describe('consentUpdateAfterAnswer (spec section 4, Application update after an offer answer)', () => {
  const approve = decideOffer(app(applicationStatus.yhatDecrease), { type: 'approve' })
  const cancel = decideOffer(app(applicationStatus.yhatDecrease), { type: 'refuse' })
  const call = approve.ok ? approve.call : null
  it('is null when the consent did not change, or when no answer was taken', () => {
    expect(consentUpdateAfterAnswer(app(applicationStatus.yhatDecrease), call, true)).toBeNull()
    expect(consentUpdateAfterAnswer(app(applicationStatus.yhatDecrease), null, false)).toBeNull()
  })
  it('is null after a refusal that cancels the application: nothing is left to update', () => {
    expect(cancel.ok && cancel.call.name).toBe('cancelApplication')
    expect(
      consentUpdateAfterAnswer(app(applicationStatus.yhatDecrease), cancel.ok ? cancel.call : null, false),
    ).toBeNull()
  })
  it('carries the changed consent only, for the application answered', () => {
    expect(consentUpdateAfterAnswer(app(applicationStatus.yhatDecrease), call, false)).toEqual({
      id: 7,
      body: { consents: { acceptBorrowersAdvantagePackageFee: false } },
    })
  })
})
