/**
 * Extension quotes (domain/loan/extension.ts, issue 17), by example: the legal room, the fee's rounding, every
 * refusal code with its boundary and its message, the order in which refusals are reported, and the last day a
 * chosen extension's invoice can be paid. The caps over random loans and histories are in
 * extension-caps.property.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { formatPhp } from '../../domain/format'
import {
  type ExtensionRefusal,
  extensionCapBreach,
  extensionFee,
  extensionQuote,
  extensionQuotes,
  invoiceLastDay,
  type LoanFacts,
  legalRoom,
} from '../../domain/loan/extension'
import type { LoanLeaf } from '../../domain/loan/loan-lifecycle.machine'
import { defaultServicingConfig, type ServicingConfig } from '../../domain/loan/servicing-config'
import { defaultPricingConfig, type PricingConfig } from '../../domain/pricing/config'
import { addDays } from '../../domain/pricing/manila-date'

/** cheap: 7 days for 1.33%; expensive: 30 days for 5.70%; at most 5 (the shipped pricing). */
const pricing: PricingConfig['extensions'] = defaultPricingConfig.extensions
/** From 60 days before the due date until 5 days after it; an invoice is payable for 3 days. */
const window: ServicingConfig['extensions'] = defaultServicingConfig.extensions

const due = '2026-05-20'
/** ₱5,000 lent, all of it owed, ₱300 charged so far and ₱200 of interest to come; 3 days before the due date. */
const facts: LoanFacts = {
  leaf: 'active.on_terms.current',
  principal: 5_000_00,
  principalOutstanding: 5_000_00,
  charged: 300_00,
  interestToCome: 200_00,
  dueDate: due,
  today: '2026-05-17',
  extensionsTaken: 0,
}

const quote = (
  changes: Partial<LoanFacts> = {},
  type: 'cheap' | 'expensive' = 'cheap',
  p = pricing,
  w = window,
) => extensionQuote({ ...facts, ...changes }, type, p, w)
const refusalOf = (...args: Parameters<typeof quote>) => quote(...args).refusal?.code ?? null
const withCheap = (cheap: { term: number; feeBps: number }, maxCount = pricing.maxCount) => ({
  ...pricing,
  cheap,
  maxCount,
})

describe('legalRoom', () => {
  it('is 100% of the principal minus what was charged and the interest still to come', () => {
    expect(legalRoom({ principal: 5_000_00, charged: 300_00, interestToCome: 200_00 })).toBe(4_500_00)
    expect(legalRoom({ principal: 5_000_00, charged: 0, interestToCome: 0 })).toBe(5_000_00)
    expect(legalRoom({ principal: 1_234_57, charged: 1_00, interestToCome: 0 })).toBe(1_233_57)
  })

  it('is 0 when the loan has cost all the law allows, and never negative', () => {
    expect(legalRoom({ principal: 5_000_00, charged: 4_800_00, interestToCome: 200_00 })).toBe(0)
    expect(legalRoom({ principal: 5_000_00, charged: 5_100_00, interestToCome: 0 })).toBe(0)
    expect(legalRoom({ principal: 5_000_00, charged: 0, interestToCome: 6_000_00 })).toBe(0)
  })
})

describe('extensionFee', () => {
  it('is the principal owed times feeBps / 10 000, rounded half up to the centavo', () => {
    expect(extensionFee(5_000_00, 133)).toBe(66_50)
    expect(extensionFee(5_000_00, 570)).toBe(285_00)
    expect(extensionFee(12_345, 133)).toBe(164) // 164.1885
    expect(extensionFee(5_000, 1)).toBe(1) // 0.5: half up
    expect(extensionFee(4_999, 1)).toBe(0) // 0.4999
    expect(extensionFee(0, 133)).toBe(0)
    expect(extensionFee(5_000_00, 0)).toBe(0)
  })
})

describe('extensionCapBreach', () => {
  // ₱1,000 owed for 7 days: 0.2% a day is ₱14.00, 0.4% a day ₱28.00.
  it('allows a fee up to 0.2% a day of the principal owed, exactly', () => {
    expect(extensionCapBreach(14_00, 1_000_00, 7, 1_000_00)).toBeNull()
    expect(extensionCapBreach(14_01, 1_000_00, 7, 1_000_00)).toBe('nominalCap')
  })

  it('answers the stricter nominal cap for a fee above both daily caps', () => {
    expect(extensionCapBreach(28_01, 1_000_00, 7, 1_000_00)).toBe('nominalCap')
  })

  it('allows a fee up to the legal room, exactly', () => {
    expect(extensionCapBreach(14_00, 1_000_00, 7, 14_00)).toBeNull()
    expect(extensionCapBreach(14_00, 1_000_00, 7, 13_99)).toBe('totalCap')
    expect(extensionCapBreach(1, 1_000_00, 7, 0)).toBe('totalCap')
  })
})

describe('extensionQuote: an available quote', () => {
  it('prices the days added on the principal still owed and moves the due date by the term', () => {
    const q = quote()
    expect(q).toEqual({
      type: 'cheap',
      term: 7,
      fee: 66_50,
      principalBasis: 5_000_00,
      newDueDate: '2026-05-27',
      legalRoom: 4_500_00,
      legalRoomAfter: 4_500_00 - 66_50,
      available: true,
      refusal: null,
    })
    const e = quote({}, 'expensive')
    expect([e.term, e.fee, e.newDueDate, e.available]).toEqual([30, 285_00, '2026-06-19', true])
  })

  it('prices a loan mostly repaid on what it still borrows, not on the original principal', () => {
    const q = quote({ principalOutstanding: 1_000_00 })
    expect([q.fee, q.principalBasis, q.available]).toEqual([13_30, 1_000_00, true])
  })

  it('answers both types, cheap first', () => {
    expect(extensionQuotes(facts, pricing, window).map((q) => [q.type, q.available])).toEqual([
      ['cheap', true],
      ['expensive', true],
    ])
  })
})

describe('extensionQuote: every refusal', () => {
  it.each([
    ['active.scheduled.current', 'A loan on a payment schedule cannot be extended.'],
    ['active.scheduled.overdue', 'A loan on a payment schedule cannot be extended.'],
    ['on_hold.scheduled', 'A loan on a payment schedule cannot be extended.'],
    ['on_hold.on_terms', 'The loan is on hold; it cannot be extended now.'],
    ['draft', 'Only an active loan can be extended.'],
    ['cancelled', 'Only an active loan can be extended.'],
    ['paid', 'Only an active loan can be extended.'],
    ['sold_debt', 'Only an active loan can be extended.'],
    ['write_off', 'Only an active loan can be extended.'],
  ] as [LoanLeaf, string][])('notOnTerms: %s', (leaf, message) => {
    const q = quote({ leaf })
    expect(q.available).toBe(false)
    expect(q.refusal).toEqual({ code: 'notOnTerms', message })
  })

  it('maxCount: from the maxCount-th extension on (and at once when none are allowed)', () => {
    expect(refusalOf({ extensionsTaken: 4 })).toBeNull()
    expect(quote({ extensionsTaken: 5 }).refusal).toEqual({
      code: 'maxCount',
      message: 'A loan can be extended at most 5 times.',
    })
    expect(refusalOf({ extensionsTaken: 9 })).toBe('maxCount')
    const once = withCheap(pricing.cheap, 1)
    expect(refusalOf({ extensionsTaken: 1 }, 'cheap', once)).toBe('maxCount')
    expect(quote({ extensionsTaken: 1 }, 'cheap', once).refusal?.message).toBe(
      'A loan can be extended at most 1 time.',
    )
    expect(refusalOf({}, 'cheap', withCheap(pricing.cheap, 0))).toBe('maxCount')
  })

  it('tooEarly: more than daysBeforeDue days before the due date', () => {
    const w = { ...window, daysBeforeDue: 3 }
    expect(refusalOf({ today: addDays(due, -3) }, 'cheap', pricing, w)).toBeNull()
    const q = quote({ today: addDays(due, -4) }, 'cheap', pricing, w)
    expect(q.refusal).toEqual({
      code: 'tooEarly',
      message: 'An extension can be chosen from 3 days before the due date (2026-05-17).',
    })
    expect(
      quote({ today: addDays(due, -2) }, 'cheap', pricing, { ...w, daysBeforeDue: 1 }).refusal?.message,
    ).toBe('An extension can be chosen from 1 day before the due date (2026-05-19).')
    // 0: only on and after the due date.
    expect(refusalOf({ today: due }, 'cheap', pricing, { ...w, daysBeforeDue: 0 })).toBeNull()
    expect(refusalOf({ today: addDays(due, -1) }, 'cheap', pricing, { ...w, daysBeforeDue: 0 })).toBe(
      'tooEarly',
    )
  })

  it('tooLate: more than graceDaysAfterDue days after the due date', () => {
    expect(refusalOf({ today: addDays(due, 5) })).toBeNull()
    expect(quote({ today: addDays(due, 6) }).refusal).toEqual({
      code: 'tooLate',
      message: 'An extension can be chosen until 5 days after the due date; that was 2026-05-25.',
    })
    const noGrace = { ...window, graceDaysAfterDue: 0 }
    expect(refusalOf({ today: due }, 'cheap', pricing, noGrace)).toBeNull()
    expect(refusalOf({ today: addDays(due, 1) }, 'cheap', pricing, noGrace)).toBe('tooLate')
  })

  it('an overdue loan on its terms is extended within the grace window, at the same price, and refused after it', () => {
    const overdue = { leaf: 'active.on_terms.overdue' as LoanLeaf }
    // The day after the due date the daily run marked it overdue; through the 5th day the quote stands.
    for (const days of [1, 5]) {
      const q = quote({ ...overdue, today: addDays(due, days) })
      expect([q.available, q.refusal, q.fee, q.newDueDate], `${days}`).toEqual([
        true,
        null,
        66_50,
        '2026-05-27',
      ])
    }
    expect(refusalOf({ ...overdue, today: addDays(due, 6) })).toBe('tooLate')
    expect(
      extensionQuotes({ ...facts, ...overdue, today: addDays(due, 2) }, pricing, window).map(
        (q) => q.available,
      ),
    ).toEqual([true, true])
  })

  it('nothingToExtend: no principal owed, or a fee that rounds to nothing', () => {
    const message = 'No principal is owed any more: pay what is left instead of extending.'
    expect(quote({ principalOutstanding: 0 }).refusal).toEqual({ code: 'nothingToExtend', message })
    expect(refusalOf({}, 'cheap', withCheap({ term: 7, feeBps: 0 }))).toBe('nothingToExtend')
    // 37 centavos × 1.33% = 0.49 centavo: a free extension is not one.
    expect(refusalOf({ principalOutstanding: 37 })).toBe('nothingToExtend')
    // 38 centavos: 0.51 rounds up to 1 centavo, above 0.2% × 7 days (0.53 centavo): the cap wins over rounding.
    expect(refusalOf({ principalOutstanding: 38 })).toBe('nominalCap')
    expect(refusalOf({ principalOutstanding: 72 })).toBeNull()
  })

  it('nominalCap: a fee above 0.2% a day of the principal owed (a config that skipped validation)', () => {
    // 7 days allow 1.40%.
    expect(refusalOf({}, 'cheap', withCheap({ term: 7, feeBps: 140 }))).toBeNull()
    expect(quote({}, 'cheap', withCheap({ term: 7, feeBps: 141 })).refusal).toEqual({
      code: 'nominalCap',
      message: 'This extension would cost more than 0.2% a day of what you still owe.',
    })
    expect(refusalOf({}, 'cheap', withCheap({ term: 1, feeBps: 3_000 }))).toBe('nominalCap')
  })

  it('effectiveCap is never answered: the nominal cap (0.2% a day) is the stricter and is checked first', () => {
    // 0.5% a day breaks both; the answer is the nominal cap.
    expect(refusalOf({}, 'cheap', withCheap({ term: 7, feeBps: 350 }))).toBe('nominalCap')
    for (let feeBps = 0; feeBps <= 10_000; feeBps += 7)
      expect(refusalOf({}, 'cheap', withCheap({ term: 7, feeBps })), String(feeBps)).not.toBe('effectiveCap')
  })

  it('totalCap: a fee above the legal room left', () => {
    // Room: ₱5,000 - ₱4,800 - ₱133.50 = ₱66.50, exactly the cheap fee.
    expect(refusalOf({ charged: 4_800_00, interestToCome: 133_50 })).toBeNull()
    const q = quote({ charged: 4_800_00, interestToCome: 133_51 })
    expect(q.refusal).toEqual({
      code: 'totalCap',
      message: `This extension (${formatPhp(66_50)}) would take the loan's total cost above 100% of its principal; ${formatPhp(66_49)} of room is left.`,
    })
    expect([q.fee, q.legalRoom, q.legalRoomAfter, q.available]).toEqual([66_50, 66_49, 0, false])
    // A loan whose principal was mostly repaid still counts its original principal for the room.
    expect(refusalOf({ principalOutstanding: 100_00, charged: 4_999_00, interestToCome: 0 })).toBe('totalCap')
    expect(refusalOf({ principalOutstanding: 100_00, charged: 4_998_67, interestToCome: 0 })).toBeNull()
  })

  it('reports the first failing rule: plan, count, window, principal, then the caps', () => {
    const everything: Partial<LoanFacts> = {
      leaf: 'on_hold.on_terms',
      extensionsTaken: 5,
      today: addDays(due, 30),
      principalOutstanding: 0,
      charged: 5_000_00,
    }
    const order: [ExtensionRefusal, Partial<LoanFacts>][] = [
      ['notOnTerms', everything],
      ['maxCount', { ...everything, leaf: 'active.on_terms.current' }],
      ['tooLate', { ...everything, leaf: 'active.on_terms.current', extensionsTaken: 0 }],
      ['nothingToExtend', { ...everything, leaf: 'active.on_terms.current', extensionsTaken: 0, today: due }],
      [
        'totalCap',
        {
          ...everything,
          leaf: 'active.on_terms.current',
          extensionsTaken: 0,
          today: due,
          principalOutstanding: 1_000_00,
        },
      ],
    ]
    for (const [code, changes] of order) expect(refusalOf(changes), code).toBe(code)
    expect(refusalOf({ extensionsTaken: 5, today: addDays(due, -61) })).toBe('maxCount')
    expect(refusalOf({ today: addDays(due, -61), principalOutstanding: 0 })).toBe('tooEarly')
    expect(refusalOf({ charged: 5_000_00 }, 'cheap', withCheap({ term: 7, feeBps: 141 }))).toBe('nominalCap')
  })

  it('an unavailable quote still shows its price and the room, so the client sees why', () => {
    const q = quote({ leaf: 'active.scheduled.current' })
    expect([q.fee, q.term, q.newDueDate, q.legalRoom]).toEqual([66_50, 7, '2026-05-27', 4_500_00])
  })
})

describe('invoiceLastDay', () => {
  it('is the last of invoiceValidDays days counting the choice day', () => {
    expect(invoiceLastDay('2026-05-01', due, window)).toBe('2026-05-03')
    expect(invoiceLastDay('2026-05-01', due, { ...window, invoiceValidDays: 1 })).toBe('2026-05-01')
    expect(invoiceLastDay('2026-05-30', '2026-06-20', window)).toBe('2026-06-01')
  })

  it('is never past the grace window after the due date', () => {
    // The 25th is 5 days after the due date: the last day of the grace window.
    expect(invoiceLastDay('2026-05-24', due, window)).toBe('2026-05-25')
    expect(invoiceLastDay('2026-05-23', due, window)).toBe('2026-05-25')
    expect(invoiceLastDay('2026-05-22', due, window)).toBe('2026-05-24')
    expect(invoiceLastDay('2026-05-25', due, window)).toBe('2026-05-25')
    expect(invoiceLastDay(due, due, { ...window, graceDaysAfterDue: 0 })).toBe(due)
  })
})
