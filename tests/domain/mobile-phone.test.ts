/**
 * The shared mobile-number schema (domain/identity.ts) used by the forms and the API: the usual Philippine ways of
 * writing a number become 09XXXXXXXXX; anything else is still refused with error-incorrect-phone. The input mask
 * (src/ui/forms/phone-input.ts) agrees with it.
 */
import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  clientLoginSchema,
  mobilePhoneSchema,
  normalizeMobilePhone,
  signUpSchema,
} from '../../domain/identity'
import { maskMobilePhone, PHONE_INPUT_MAX_LENGTH } from '../../src/ui/forms/phone-input'

const parse = (input: string) => v.safeParse(mobilePhoneSchema, input)

describe('mobilePhoneSchema', () => {
  it.each([
    ['09171234567', '09171234567'],
    ['+63 917 123 4567', '09171234567'],
    ['+639171234567', '09171234567'],
    ['63 917 123 4567', '09171234567'],
    ['639171234567', '09171234567'],
    ['+63 (0) 917 123 4567', '09171234567'],
    ['+63-917-123-4567', '09171234567'],
    ['0917-123-4567', '09171234567'],
    ['(0917) 123 4567', '09171234567'],
    ['0917.123.4567', '09171234567'],
    ['917 123 4567', '09171234567'],
    ['9171234567', '09171234567'],
    ['  0917 123 4567 ', '09171234567'],
    ['0917\u00a0123\u00a04567', '09171234567'],
    ['0817 123 4567', '08171234567'],
  ])('accepts %j as %s', (input, expected) => {
    const result = parse(input)
    expect(result.success && result.output).toBe(expected)
  })

  it.each([
    '0917123456', // 10 digits with the 0
    '091712345678', // 12 digits
    '+63 717 123 4567', // a landline prefix
    '+1 917 123 4567', // another country
    '+6309171234567x',
    '6409171234567',
    '+63',
    '0917 123 456a',
    '++639171234567',
  ])('refuses %j with error-incorrect-phone', (input) => {
    const result = parse(input)
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toBe('error-incorrect-phone')
  })

  it('an empty number is required, not incorrect', () => {
    expect(parse('   ').issues?.[0]?.message).toBe('error-required')
  })

  it('the sign-up body carries the normalised number (the server stores what the schema outputs)', () => {
    const result = v.safeParse(signUpSchema, {
      mobilePhone: { number: '+63 917 123 4567' },
      email: 'juan@example.ph',
      password: 'abcd1234',
      passwordRepeat: 'abcd1234',
      consents: { terms: true, privacy: true },
    })
    expect(result.success && result.output.mobilePhone.number).toBe('09171234567')
  })
})

/** A national number 09/08 + 9 digits, and the ways people write it. */
const national = fc
  .tuple(fc.constantFrom('8', '9'), fc.stringMatching(/^\d{9}$/))
  .map(([first, rest]) => `0${first}${rest}`)
const separator = fc.constantFrom('', ' ', '-', '.', '\u00a0', ' - ')
const written = fc
  .tuple(national, fc.constantFrom('0', '+63', '63', '+63 (0)', ''), separator, separator, fc.boolean())
  .map(([number, prefix, a, b, parens]) => {
    const body = number.slice(1)
    const area = parens ? `(${body.slice(0, 3)})` : body.slice(0, 3)
    return { number, text: `${prefix}${prefix ? ' ' : ''}${area}${a}${body.slice(3, 6)}${b}${body.slice(6)}` }
  })

describe('mobile number properties', () => {
  it('every usual way of writing a number parses to that number, and the mask agrees', () => {
    fc.assert(
      fc.property(written, ({ number, text }) => {
        const result = parse(text)
        expect(result.success && result.output).toBe(number)
        expect(maskMobilePhone(text)).toBe(number)
      }),
    )
  })

  it('normalising is idempotent and never turns a refused input into something else than its trim', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        const once = normalizeMobilePhone(text)
        expect(normalizeMobilePhone(once)).toBe(once)
        if (!/^0[89]\d{9}$/.test(once)) expect(once).toBe(text.trim())
      }),
    )
  })

  it('whatever the schema accepts is exactly 11 digits starting 08 or 09', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          written.map((w) => w.text),
        ),
        (text) => {
          const result = parse(text)
          if (result.success) expect(result.output).toMatch(/^0[89]\d{9}$/)
        },
      ),
    )
  })

  it('the mask keeps a number being typed, drops letters and never grows past the input length', () => {
    expect(maskMobilePhone('+63 9')).toBe('+63 9')
    expect(maskMobilePhone('0917 12')).toBe('0917 12')
    expect(maskMobilePhone('0917abc')).toBe('0917')
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(maskMobilePhone(text).length).toBeLessThanOrEqual(PHONE_INPUT_MAX_LENGTH)
      }),
    )
  })

  it('the login field finds a phone account however the number is written, and leaves e-mails as typed', () => {
    const login = (text: string) =>
      v.parse(clientLoginSchema, { login: text, password: 'demo1234', captchaToken: 'x' }).login
    expect(login('+63 917 000 0001')).toBe('09170000001')
    expect(login('63-917-000-0001')).toBe('09170000001')
    expect(login('09170000001')).toBe('09170000001')
    expect(login('demo@hiram.local')).toBe('demo@hiram.local')
    expect(login('not a phone')).toBe('not a phone')
  })
})
