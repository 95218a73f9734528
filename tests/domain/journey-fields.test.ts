import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  addressSchema,
  addYears,
  ageOn,
  bankAccountSchema,
  birthDateSchema,
  cashCardSchema,
  documentNumberProblem,
  employmentSchema,
  ewalletNumberSchema,
  expiryDateSchema,
  fullNameSchema,
  geoSchema,
  ibanValidateSchema,
  isCompleteDate,
  journeyMessageKeys as k,
  makeDetailsSchema,
  makeIdentityDocumentSchema,
  makeReferenceSchema,
  manilaToday,
  payoutSchema,
  personNameSchema,
  streetSchema,
} from '../../domain/journey/fields'

/** Messages by dotted path, or null when the value passes. */
function problems(schema: v.GenericSchema, value: unknown): Record<string, string> | null {
  const result = v.safeParse(schema, value)
  if (result.success) return null
  const found: Record<string, string> = {}
  // The first message per field is the one a form shows.
  for (const issue of result.issues) found[v.getDotPath(issue) ?? ''] ??= issue.message
  return found
}
const message = (schema: v.GenericSchema, value: unknown) => {
  const found = problems(schema, value)
  return found ? Object.values(found)[0] : null
}

// 2026-06-15 10:00 in Manila is 02:00 UTC.
const NOW = new Date('2026-06-15T02:00:00Z')
const clock = () => NOW

describe('dates', () => {
  it('reads the calendar day in Asia/Manila (UTC+8)', () => {
    expect(manilaToday(new Date('2026-06-14T15:59:59Z'))).toBe('2026-06-14')
    expect(manilaToday(new Date('2026-06-14T16:00:00Z'))).toBe('2026-06-15')
  })
  it('accepts only complete, real dates', () => {
    expect(isCompleteDate('2000-02-29')).toBe(true)
    expect(isCompleteDate('2001-02-29')).toBe(false)
    expect(isCompleteDate('2000-2-9')).toBe(false)
    expect(isCompleteDate('2000-02')).toBe(false)
  })
  it('counts whole years and clamps leap days', () => {
    expect(ageOn('2006-06-15', '2026-06-15')).toBe(20)
    expect(ageOn('2006-06-16', '2026-06-15')).toBe(19)
    expect(addYears('2024-02-29', 10)).toBe('2034-02-28')
  })
})

describe('details', () => {
  const schema = makeDetailsSchema({ now: clock })
  const valid = {
    firstName: 'Maria Clara',
    middleName: '',
    lastName: "Dela Cruz-O'Neil",
    birthDate: '1990-01-31',
    gender: 'female',
    civilStatus: 'single',
    email: 'Maria@Example.PH',
  }
  it('accepts a valid person, drops an empty middle name and lower-cases the e-mail', () => {
    const out = v.parse(schema, valid)
    expect(out.middleName).toBeUndefined()
    expect(out.email).toBe('maria@example.ph')
  })
  it('refuses names with digits or symbols', () => {
    expect(message(personNameSchema, 'Juan3')).toBe(k.personName)
    expect(message(personNameSchema, 'Juan_Cruz')).toBe(k.personName)
    expect(message(personNameSchema, '')).toBe(k.required)
    expect(message(personNameSchema, 'Ma. Luisa')).toBeNull()
    expect(message(personNameSchema, 'Niño')).toBeNull()
    expect(problems(schema, { ...valid, middleName: 'X1' })).toEqual({ middleName: k.personName })
  })
  it('limits the age to 20..70 inclusive, counted in Manila', () => {
    const birth = birthDateSchema({ now: clock })
    expect(message(birth, '2006-06-15')).toBeNull() // 20 today
    expect(message(birth, '2006-06-16')).toBe(k.age) // 20 tomorrow
    expect(message(birth, '1955-06-16')).toBeNull() // 70
    expect(message(birth, '1955-06-15')).toBe(k.age) // 71 today
    expect(message(birth, '1990-13-01')).toBe(k.wrongFormat)
    expect(message(birth, '1990-01')).toBe(k.wrongFormat)
    expect(message(birthDateSchema({ now: clock, minAge: 21 }), '2006-06-15')).toBe(k.age)
  })
  it('checks gender, civil status and e-mail', () => {
    expect(problems(schema, { ...valid, gender: 'x', civilStatus: 'complicated', email: 'a@b.c' })).toEqual({
      gender: k.required,
      civilStatus: k.required,
      email: 'error-mail',
    })
  })
})

describe('employment', () => {
  const valid = {
    employmentType: 'employed_private',
    companyName: 'Jollibee Foods Corp.',
    monthlyIncome: '25000',
    monthlyExpenses: '8000',
  }
  it('accepts valid input and turns amounts into pesos', () => {
    expect(v.parse(employmentSchema, valid)).toMatchObject({ monthlyIncome: 25000, monthlyExpenses: 8000 })
  })
  it('income: 1 to 6 digits with no leading zero', () => {
    expect(problems(employmentSchema, { ...valid, monthlyIncome: '0500' })).toEqual({
      monthlyIncome: k.invalidFinance,
    })
    expect(problems(employmentSchema, { ...valid, monthlyIncome: '1000000' })).toEqual({
      monthlyIncome: k.invalidFinance,
    })
    expect(problems(employmentSchema, { ...valid, monthlyIncome: '9' })).toBeNull()
  })
  it('finance amounts: 4 to 6 digits', () => {
    expect(problems(employmentSchema, { ...valid, monthlyExpenses: '999' })).toEqual({
      monthlyExpenses: k.invalidFinance,
    })
    expect(problems(employmentSchema, { ...valid, monthlyExpenses: '1234567' })).toEqual({
      monthlyExpenses: k.invalidFinance,
    })
  })
  it('company: required for the employed, limited characters, up to 50', () => {
    expect(problems(employmentSchema, { ...valid, companyName: '' })).toEqual({ companyName: k.required })
    expect(problems(employmentSchema, { ...valid, companyName: 'Acme <script>' })).toEqual({
      companyName: k.wrongFormat,
    })
    expect(problems(employmentSchema, { ...valid, companyName: 'A'.repeat(51) })).toEqual({
      companyName: k.wrongFormat,
    })
    expect(problems(employmentSchema, { ...valid, employmentType: 'student', companyName: '' })).toBeNull()
    expect(problems(employmentSchema, { ...valid, employmentType: 'pirate' })).toEqual({
      employmentType: k.required,
    })
  })
})

describe('reference', () => {
  const schema = makeReferenceSchema('09171234567')
  it('needs a full name of two words or more', () => {
    expect(message(fullNameSchema, 'Maria')).toBe(k.fullName)
    expect(message(fullNameSchema, 'Maria  dela   Cruz')).toBeNull()
    expect(message(fullNameSchema, 'Maria 2Cruz')).toBe(k.fullName)
  })
  it('refuses the client own number as phone-error-taken, and a bad number', () => {
    const base = { fullName: 'Jose Rizal', relation: 'parent' }
    expect(problems(schema, { ...base, phone: '09171234567' })).toEqual({ phone: k.phoneTaken })
    expect(problems(schema, { ...base, phone: '12345' })).toEqual({ phone: k.incorrectPhone })
    expect(problems(schema, { ...base, phone: '09181234567' })).toBeNull()
    expect(problems(schema, { ...base, relation: 'boss', phone: '09181234567' })).toEqual({
      relation: k.required,
    })
  })
})

describe('address', () => {
  it('needs four 10-digit PSGC codes and a street of allowed characters up to 50', () => {
    const valid = {
      regionId: '1300000000',
      cityId: '1381300000',
      districtId: '1381300000',
      wardId: '1381300001',
      street: "12-B Kalayaan Ave., Bldg #3 (Unit 4/5) O'Brien",
    }
    expect(problems(addressSchema, valid)).toBeNull()
    expect(problems(addressSchema, { ...valid, wardId: '13813' })).toEqual({ wardId: k.invalidAddress })
    expect(message(streetSchema, 'Street; DROP TABLE')).toBe(k.invalidAddress)
    expect(message(streetSchema, 'a'.repeat(51))).toBe(k.invalidAddress)
    expect(message(streetSchema, '  ')).toBe(k.required)
  })
  it('geo: latitude and longitude in range', () => {
    expect(problems(geoSchema, { latitude: 14.6, longitude: 121 })).toBeNull()
    expect(problems(geoSchema, { latitude: 91, longitude: 121 })).toEqual({ latitude: k.wrongFormat })
  })
})

describe('identity document', () => {
  it.each([
    ['SSS', '34-1234567-8', null],
    ['SSS', '341234567', k.idNumberLength],
    ['SSS', '34-123456A-8', k.wrongFormat],
    ['UMID', '0111-2345678-9', null],
    ['UMID', '01112345678', k.idNumberLength],
    ['PP', 'p1234567a', null],
    ['PP', 'P12345678', k.wrongFormat],
    ['POSTAL_ID', 'A12345678901', null],
    ['POSTAL_ID', 'A1234567890', k.wrongFormat],
    ['NATIONAL_ID', '1234-5678-9012-3456', null],
    ['NATIONAL_ID', '123456789012345', k.idNumberLength],
    ['DL', 'N01-12-123456', null],
    ['DL', 'N01-12-12345', k.wrongFormat],
    ['SSS', '', k.required],
  ] as const)('%s %s -> %s', (type, number, expected) => {
    expect(documentNumberProblem(type, number)).toBe(expected)
  })

  const schema = makeIdentityDocumentSchema({ now: clock })
  it('normalises the number and requires an expiry for cards that have one', () => {
    expect(
      v.parse(schema, { documentType: 'PP', documentNumber: 'p1234567a', expiryDate: '2030-01-01' }),
    ).toEqual({
      documentType: 'PP',
      documentNumber: 'P1234567A',
      expiryDate: '2030-01-01',
    })
    expect(problems(schema, { documentType: 'PP', documentNumber: 'P1234567A' })).toEqual({
      expiryDate: k.expiryFormat,
    })
    expect(problems(schema, { documentType: 'SSS', documentNumber: '3412345678' })).toBeNull()
  })
  it('expiry: complete, and from today to 10 years ahead, with the spec texts', () => {
    const expiry = expiryDateSchema({ now: clock })
    expect(message(expiry, '2030-02')).toBe('Invalid format of expiration date')
    expect(message(expiry, '2026-06-14')).toBe(
      'Invalid expiration date. It should be within the next 10 years.',
    )
    expect(message(expiry, '2026-06-15')).toBeNull()
    expect(message(expiry, '2036-06-15')).toBeNull()
    expect(message(expiry, '2036-06-16')).toBe(
      'Invalid expiration date. It should be within the next 10 years.',
    )
  })
  it('reports the number and the expiry together', () => {
    expect(problems(schema, { documentType: 'DL', documentNumber: 'X', expiryDate: '2040-01-01' })).toEqual({
      documentNumber: k.wrongFormat,
      expiryDate: k.expiryRange,
    })
  })
})

describe('payout', () => {
  it('bank account: 10 to 18 digits', () => {
    expect(message(bankAccountSchema, '1234-5678-90')).toBeNull()
    expect(message(bankAccountSchema, '123456789')).toBe('Disbursement number is not valid.')
    expect(message(bankAccountSchema, '1'.repeat(19))).toBe('Disbursement number is not valid.')
    expect(message(ibanValidateSchema, { iban: '12345678901' })).toBeNull()
  })
  it('e-wallet: 11 digits', () => {
    expect(message(ewalletNumberSchema, '09171234567')).toBeNull()
    expect(message(ewalletNumberSchema, '0917123456')).toBe(k.incorrectEwallet)
  })
  it('cash card: 12 to 25 letters or digits', () => {
    expect(v.parse(cashCardSchema, 'abcd-1234-efgh')).toBe('ABCD1234EFGH')
    expect(message(cashCardSchema, 'ABCD1234567')).toBe('Disbursement number is not valid.')
    expect(message(cashCardSchema, 'A'.repeat(26))).toBe('Disbursement number is not valid.')
  })
  it('one shape per type; cash pickup from Cebuana or M Lhuillier', () => {
    expect(problems(payoutSchema, { type: 'cash_pickup', provider: 'cebuana' })).toBeNull()
    expect(problems(payoutSchema, { type: 'cash_pickup', provider: 'palawan' })).toEqual({
      provider: k.required,
    })
    expect(problems(payoutSchema, { type: 'ewallet', bankId: 101, accountNumber: '123' })).toEqual({
      accountNumber: k.incorrectEwallet,
    })
    expect(problems(payoutSchema, { type: 'crypto' })).toEqual({ type: k.required })
  })
})
