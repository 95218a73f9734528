import { describe, expect, it } from 'vitest'
import { maskEmail, maskPhone, maskRecipient } from '../../server/log/mask'

describe('masking personal values for people to read', () => {
  it('keeps the network prefix and the last four digits of a mobile number', () => {
    expect(maskPhone('09171234567')).toBe('0917•••4567')
    expect(maskPhone('+63 917 123 4567')).toBe('6391•••4567')
    expect(maskPhone('0917-123-4567')).toBe('0917•••4567')
  })

  it('masks a too short or odd number whole rather than show most of it', () => {
    expect(maskPhone('12345')).toBe('•••')
    expect(maskPhone('')).toBe('•••')
    expect(maskPhone('not a number')).toBe('•••')
  })

  it('keeps the first character and the domain of an e-mail', () => {
    expect(maskEmail('juan.dela.cruz@example.com')).toBe('j•••@example.com')
    expect(maskEmail('a@b.ph')).toBe('a•••@b.ph')
    // Quoted local parts may contain '@': the domain is after the last one.
    expect(maskEmail('"x@y"@example.ph')).toBe('"•••@example.ph')
    expect(maskEmail('@example.com')).toBe('•••')
    expect(maskEmail('juan@')).toBe('•••')
  })

  it('picks the rule by the recipient', () => {
    expect(maskRecipient('maria@example.ph')).toBe('m•••@example.ph')
    expect(maskRecipient('09998887766')).toBe('0999•••7766')
  })
})
