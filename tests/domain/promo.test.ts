import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  evaluatePromo,
  type PromoDefinition,
  promoCodeSchema,
  promoDefinitionSchema,
} from '../../domain/pricing/promo'

const summer: PromoDefinition = {
  code: 'SUMMER25',
  validFrom: new Date('2026-04-01T00:00:00+08:00'),
  validTo: new Date('2026-06-01T00:00:00+08:00'),
  clientKinds: ['guest', 'new'],
  maxUses: 100,
  usesPerClient: 1,
  interestDiscountBps: 2_500,
  serviceFeeDiscountBps: 0,
}
const during = new Date('2026-05-15T12:00:00+08:00')
const context = { kind: 'new' as const, now: during, totalUses: 0, clientUses: 0 }

describe('evaluatePromo', () => {
  it('is valid inside its window for its kinds, with the discounts the engine needs', () => {
    expect(evaluatePromo(summer, context)).toEqual({
      status: 'valid',
      promo: { code: 'SUMMER25', interestDiscountBps: 2_500, serviceFeeDiscountBps: 0 },
    })
    expect(evaluatePromo(summer, { ...context, kind: 'guest' }).status).toBe('valid')
  })

  it('is unknown when no definition was found', () => {
    expect(evaluatePromo(undefined, context)).toEqual({ status: 'unknown' })
  })

  it('has not started before validFrom, and is valid from that instant', () => {
    expect(evaluatePromo(summer, { ...context, now: new Date('2026-03-31T15:59:59.999Z') })).toEqual({
      status: 'not_started',
    })
    expect(evaluatePromo(summer, { ...context, now: new Date('2026-03-31T16:00:00Z') }).status).toBe('valid')
  })

  it('has expired from validTo on', () => {
    expect(evaluatePromo(summer, { ...context, now: new Date('2026-05-31T15:59:59.999Z') }).status).toBe(
      'valid',
    )
    expect(evaluatePromo(summer, { ...context, now: new Date('2026-05-31T16:00:00Z') })).toEqual({
      status: 'expired',
    })
  })

  it('is for the wrong kind of client', () => {
    expect(evaluatePromo(summer, { ...context, kind: 'repeat' })).toEqual({ status: 'wrong_client_kind' })
  })

  it('is used up overall or by this client', () => {
    expect(evaluatePromo(summer, { ...context, totalUses: 99 }).status).toBe('valid')
    expect(evaluatePromo(summer, { ...context, totalUses: 100 })).toEqual({ status: 'used' })
    expect(evaluatePromo(summer, { ...context, clientUses: 1 })).toEqual({ status: 'used' })
  })

  it('has no limits when the limits are null', () => {
    const unlimited = { ...summer, maxUses: null, usesPerClient: null }
    expect(evaluatePromo(unlimited, { ...context, totalUses: 10_000, clientUses: 50 }).status).toBe('valid')
  })

  it('tells a client the code is not for them before telling them it is used', () => {
    expect(evaluatePromo(summer, { ...context, kind: 'repeat', clientUses: 5 }).status).toBe(
      'wrong_client_kind',
    )
    expect(evaluatePromo(summer, { ...context, now: new Date('2027-01-01'), totalUses: 100 }).status).toBe(
      'expired',
    )
  })
})

describe('promoCodeSchema', () => {
  it('normalises case and surrounding spaces', () => {
    expect(v.parse(promoCodeSchema, ' summer25 ')).toBe('SUMMER25')
    expect(v.parse(promoCodeSchema, 'ab1')).toBe('AB1')
    expect(v.parse(promoCodeSchema, 'ABCDE12345')).toBe('ABCDE12345')
  })

  it('refuses codes outside 3 to 10 letters or digits', () => {
    for (const code of ['AB', 'ABCDE123456', 'SUMMER-25', 'ÑANDU', 'A B C', ''])
      expect(v.safeParse(promoCodeSchema, code).issues?.[0]?.message).toBe(
        'A promo code is 3 to 10 letters or digits.',
      )
  })
})

describe('promoDefinitionSchema', () => {
  it('accepts a well-formed row and normalises its code', () => {
    expect(v.parse(promoDefinitionSchema, { ...summer, code: 'summer25' }).code).toBe('SUMMER25')
  })

  it('refuses discounts above 100%, no kinds and an empty window', () => {
    expect(v.safeParse(promoDefinitionSchema, { ...summer, interestDiscountBps: 10_001 }).success).toBe(false)
    expect(v.safeParse(promoDefinitionSchema, { ...summer, clientKinds: [] }).success).toBe(false)
    const backwards = v.safeParse(promoDefinitionSchema, { ...summer, validTo: summer.validFrom })
    expect(backwards.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([
      ['validTo', 'The promo must end after it starts.'],
    ])
  })
})
