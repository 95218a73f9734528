/**
 * Lead rules shared by the route, the server and the hook (docs/decisions/0014): the lead link's query, the
 * display date, and the prefill the registration details form receives.
 */
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { leadLinkPath, leadLinkSearchSchema, toDisplayDate } from '../../domain/affiliate'
import { toDetailsPrefill } from '../../src/features/affiliate/use-lead-prefill'

const ID = '3f1c2a9e-8b7d-4c6e-9a5b-1d2e3f4a5b6c'

describe('lead link search', () => {
  const parse = (search: Record<string, unknown>) => v.safeParse(leadLinkSearchSchema, search)
  it('accepts no lead, or a UUID with redirected-from-affiliates=true (boolean or string)', () => {
    expect(parse({}).success).toBe(true)
    expect(parse({ utm_source: 'x' }).success).toBe(true)
    expect(parse({ lead_id: ID, 'redirected-from-affiliates': true }).output).toEqual({
      lead_id: ID,
      'redirected-from-affiliates': true,
    })
    expect(parse({ lead_id: ID.toUpperCase(), 'redirected-from-affiliates': 'true' }).output).toMatchObject({
      lead_id: ID,
    })
  })
  it('refuses anything else', () => {
    for (const search of [
      { lead_id: ID },
      { 'redirected-from-affiliates': true },
      { lead_id: ID, 'redirected-from-affiliates': 1 },
      { lead_id: ID, 'redirected-from-affiliates': false },
      { lead_id: 'abc', 'redirected-from-affiliates': true },
      { lead_id: 12345, 'redirected-from-affiliates': true },
    ])
      expect(parse(search).success).toBe(false)
  })
  it('builds the link the back office hands out', () => {
    expect(leadLinkPath(ID)).toBe(`/registration?lead_id=${ID}&redirected-from-affiliates=true`)
  })
})

describe('prefill', () => {
  it('shows the stored YYYY-MM-DD as MM/DD/YYYY, and nothing for a broken date', () => {
    expect(toDisplayDate('1990-05-17')).toBe('05/17/1990')
    expect(toDisplayDate('1990-02-30')).toBeNull()
    expect(toDisplayDate(null)).toBeNull()
  })
  it('maps the lead onto the details form fields, leaving missing ones undefined', () => {
    expect(
      toDetailsPrefill({
        leadId: ID,
        firstName: 'Juan',
        middleName: null,
        lastName: 'Dela Cruz',
        documentType: 'SSS',
        clientIdentificator: '3412345678',
        dateOfBirth: '1990-05-17',
        gender: 'male',
        civilStatus: 'single',
        email: 'juan@example.ph',
        phone: '09171234567',
      }),
    ).toEqual({
      firstName: 'Juan',
      middleName: undefined,
      lastName: 'Dela Cruz',
      birthDate: '05/17/1990',
      birthDateIso: '1990-05-17',
      gender: 'male',
      civilStatus: 'single',
      email: 'juan@example.ph',
      phone: '09171234567',
      documentType: 'SSS',
      documentNumber: '3412345678',
    })
  })
})
