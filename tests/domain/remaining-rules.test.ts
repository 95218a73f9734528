/**
 * Issue 22 item 5, the pure rules: the generic phone (at least 8 characters), the tax id's mask, the server rules
 * bankAccountInvalid and wrongEmailDomain, the Google model's keywordData, and the referral rules
 * (docs/decisions/0041-referrals.md).
 */
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { isWrongEmailDomain } from '../../domain/email-domain'
import { googleModelOf } from '../../domain/google'
import {
  formatTaxId,
  genericPhoneSchema,
  isPlaceholderAccount,
  TAX_ID_MASK,
  taxIdSchema,
} from '../../domain/journey/fields'
import {
  defaultReferralConfig,
  invitationRefusal,
  nextReferralStatus,
  referralConfigSchema,
} from '../../domain/referrals'

const message = (schema: v.GenericSchema, value: unknown) => {
  const parsed = v.safeParse(schema, value)
  return parsed.success ? null : parsed.issues[0].message
}

describe('generic phone', () => {
  it('takes a landline or a mobile number of at least 8 characters, refuses anything shorter or not a number', () => {
    for (const ok of ['(02) 8123 4567', '8123-4567', '+63 2 8123 4567', '09171234567', '032 234 5678'])
      expect(message(genericPhoneSchema, ok), ok).toBeNull()
    expect(message(genericPhoneSchema, '')).toBe('error-required')
    expect(message(genericPhoneSchema, '812 345')).toBe('error-incorrect-phone')
    expect(message(genericPhoneSchema, 'call me maybe')).toBe('error-incorrect-phone')
    expect(message(genericPhoneSchema, '(((((())))))')).toBe('error-incorrect-phone')
    expect(message(genericPhoneSchema, '1'.repeat(21))).toBe('error-incorrect-phone')
  })
})

describe('tax id (TIN)', () => {
  it('takes 9, 12 or 14 digits through the mask and shows them grouped', () => {
    expect(TAX_ID_MASK).toBe('999-999-999-99999')
    expect(v.parse(taxIdSchema, '123-456-789-000')).toBe('123456789000')
    expect(v.parse(taxIdSchema, '123456789')).toBe('123456789')
    expect(v.parse(taxIdSchema, '123-456-789-00000')).toBe('12345678900000')
    expect(message(taxIdSchema, '123-456-78')).toBe('error-wrong-format')
    expect(message(taxIdSchema, '123-456-789-0000')).toBe('error-wrong-format')
    expect(message(taxIdSchema, '')).toBe('error-required')
    expect(formatTaxId('123456789000')).toBe('123-456-789-000')
    expect(formatTaxId('123456789')).toBe('123-456-789')
  })
})

describe('server rules', () => {
  it('bankAccountInvalid: one digit repeated is a placeholder, a real number is not', () => {
    expect(isPlaceholderAccount('0000000000')).toBe(true)
    expect(isPlaceholderAccount('777777777777777777')).toBe(true)
    expect(isPlaceholderAccount('001234567890')).toBe(false)
    expect(isPlaceholderAccount('1234567890')).toBe(false)
  })

  it('wrongEmailDomain: disposable inboxes and misspelt providers, not the real ones', () => {
    for (const bad of ['a@mailinator.com', 'a@YOPMAIL.com', 'a@gmial.com', 'a@gmail.con', 'a@yaho.com'])
      expect(isWrongEmailDomain(bad), bad).toBe(true)
    for (const good of ['a@gmail.com', 'a@yahoo.com.ph', 'a@outlook.com', 'a@example.ph', 'a@company.com.ph'])
      expect(isWrongEmailDomain(good), good).toBe(false)
  })
})

describe('Google model: keywordData', () => {
  it("takes the keyword of a Google click, and nobody else's", () => {
    expect(googleModelOf('?gclid=abc&utm_term=fast%20cash%20loan')).toEqual({ keywordData: 'fast cash loan' })
    expect(googleModelOf({ utm_source: 'Google', keyword: 'online loan ph' })).toEqual({
      keywordData: 'online loan ph',
    })
    expect(googleModelOf('?wbraid=x&keyword={keyword}&utm_term=loan')).toEqual({ keywordData: 'loan' })
    expect(googleModelOf('?utm_source=partner&utm_term=loan')).toBeNull()
    expect(googleModelOf('?gclid=abc')).toBeNull()
    expect(googleModelOf(`?gclid=a&utm_term=${'k'.repeat(300)}`)?.keywordData).toHaveLength(200)
  })
})

describe('referral rules', () => {
  const config = { ...defaultReferralConfig, enabled: true }
  const invitedAt = new Date('2026-11-01T00:00:00Z')
  const at = (days: number) => new Date(invitedAt.getTime() + days * 86_400_000)
  const friend = (over = {}) => ({
    signedUpAt: at(2),
    hasRepaidLoan: false,
    sharesDeviceWithReferrer: false,
    ...over,
  })

  it('the configuration is bounded: a reward above PHP 500 is refused', () => {
    expect(v.safeParse(referralConfigSchema, defaultReferralConfig).success).toBe(true)
    expect(v.safeParse(referralConfigSchema, { ...config, rewardCentavos: 50_001 }).success).toBe(false)
    expect(defaultReferralConfig.enabled).toBe(false)
  })

  it('who may invite', () => {
    const facts = { config, hasRepaidLoan: true, clientStatus: 1, invitationsThisMonth: 0 }
    expect(invitationRefusal(facts)).toBeNull()
    expect(invitationRefusal({ ...facts, config: defaultReferralConfig })).toBe('referralsDisabled')
    expect(invitationRefusal({ ...facts, hasRepaidLoan: false })).toBe('referrerNotEligible')
    expect(invitationRefusal({ ...facts, clientStatus: 2 })).toBe('referrerNotEligible')
    expect(invitationRefusal({ ...facts, invitationsThisMonth: 5 })).toBe('invitationLimit')
  })

  it('an invitation moves invited -> signedUp -> rewarded, or expires, or is refused', () => {
    const base = { status: 'invited' as const, invitedAt, rewardsThisMonth: 0 }
    expect(nextReferralStatus({ ...base, friend: null }, config, at(10))).toEqual({ status: 'invited' })
    expect(nextReferralStatus({ ...base, friend: null }, config, at(31))).toEqual({ status: 'expired' })
    expect(nextReferralStatus({ ...base, friend: friend() }, config, at(10))).toEqual({ status: 'signedUp' })
    expect(nextReferralStatus({ ...base, friend: friend({ hasRepaidLoan: true }) }, config, at(60))).toEqual({
      status: 'rewarded',
    })
    expect(
      nextReferralStatus({ ...base, friend: friend({ sharesDeviceWithReferrer: true }) }, config, at(3)),
    ).toEqual({ status: 'refused', refusal: 'sameDevice' })
    expect(
      nextReferralStatus(
        { ...base, rewardsThisMonth: 3, friend: friend({ hasRepaidLoan: true }) },
        config,
        at(60),
      ),
    ).toEqual({ status: 'refused', refusal: 'rewardLimit' })
    // A sign-up after the deadline does not count; a final status never changes.
    expect(nextReferralStatus({ ...base, friend: friend({ signedUpAt: at(40) }) }, config, at(41))).toEqual({
      status: 'expired',
    })
    expect(
      nextReferralStatus(
        { ...base, status: 'cancelled', friend: friend({ hasRepaidLoan: true }) },
        config,
        at(5),
      ),
    ).toEqual({ status: 'cancelled' })
  })
})
