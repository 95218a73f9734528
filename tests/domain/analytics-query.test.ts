import { describe, expect, it } from 'vitest'
import {
  ANALYTICS_QUERY_COOKIE_MAX_AGE_S,
  analyticsQueryFromSearch,
  isMarketingParam,
} from '../../domain/campaign'

describe('the analytics query (spec section 9: analytics-query cookie, 600 minutes)', () => {
  it('lives 600 minutes', () => {
    expect(ANALYTICS_QUERY_COOKIE_MAX_AGE_S).toBe(36_000)
  })

  it('keeps the marketing parameters only, in their order, the first of each name', () => {
    expect(
      analyticsQueryFromSearch('?utm_source=fb&email=a%40b.ph&utm_source=tw&gclid=x1&my_medium=sms'),
    ).toBe('utm_source=fb&gclid=x1&my_medium=sms')
    expect(analyticsQueryFromSearch('fbclid=abc&msclkid=def&page=2')).toBe('fbclid=abc&msclkid=def')
  })

  it('is null for a query without marketing parameters, or with empty ones', () => {
    expect(analyticsQueryFromSearch('')).toBeNull()
    expect(analyticsQueryFromSearch('?page=2&phone=0917')).toBeNull()
    expect(analyticsQueryFromSearch('?utm_source=%20%20')).toBeNull()
  })

  it('is bounded: at most 20 parameters, each value cut to 200 characters', () => {
    const many = Array.from(
      { length: 30 },
      (_, i) => `utm_p${String.fromCharCode(97 + (i % 26))}${i >= 26 ? 'z' : ''}=${i}`,
    )
    const kept = new URLSearchParams(analyticsQueryFromSearch(many.join('&'))!)
    expect([...kept.keys()]).toHaveLength(20)
    const long = analyticsQueryFromSearch(`utm_source=${'a'.repeat(500)}`)!
    expect(new URLSearchParams(long).get('utm_source')).toHaveLength(200)
  })

  it('names the campaign parameters and the ad networks’ click ids as marketing', () => {
    for (const name of ['utm_source', 'utm_partner', 'my_campaign', 'gclid', 'fbclid', 'msclkid'])
      expect(isMarketingParam(name), name).toBe(true)
    for (const name of ['utm_', 'email', 'phone', 'utm_SOURCE', 'gclid2'])
      expect(isMarketingParam(name), name).toBe(false)
  })
})
