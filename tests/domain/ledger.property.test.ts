/**
 * Properties of the ledger's arithmetic (domain/loan/ledger.ts; issue 16, item 6). The oracles are written apart
 * from the code under test: allocation is checked by what it must satisfy (it adds up, takes no more than was
 * owed, fills the parts strictly in the order penalties, fees, interest, principal), and interest against the
 * exact pro-rata in BigInt: contract interest × Σ(principal outstanding × days) / (principal × term), floored.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type AccrualState,
  accrualDaysBy,
  accrue,
  allocate,
  allocationLines,
  allocationOrder,
  type Balances,
  balancesOf,
  type InterestTerms,
  interestForBasis,
  type LedgerLine,
  ledgerParts,
  outstandingOf,
  RESIDUE_WAIVER_CENTAVOS,
  residueWaiver,
} from '../../domain/loan/ledger'
import { addDays } from '../../domain/pricing/manila-date'

// LEDGER_RUNS_SCALE=10 for a deeper soak; the default keeps the file at a few seconds.
const RUNS = 500 * Number(process.env.LEDGER_RUNS_SCALE ?? 1)

/** One part of a balance: often 0 (a part already paid), sometimes a few centavos, up to ₱1,000,000. */
const partArb = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 150 }),
  fc.integer({ min: 0, max: 100_000_000 }),
)

const balancesArb: fc.Arbitrary<Balances> = fc.record({
  principal: partArb,
  interest: partArb,
  fees: partArb,
  penalties: partArb,
  credit: partArb,
})

/** A payment for some balances: a few centavos, a share of what is owed, all of it give or take a peso, or more. */
const paymentFor = (b: Balances) => {
  const owed = outstandingOf(b)
  return fc.oneof(
    fc.integer({ min: 1, max: 200 }),
    fc.integer({ min: 1, max: Math.max(1, owed) }),
    fc.integer({ min: Math.max(1, owed - 150), max: owed + 150 }),
    fc.integer({ min: 1, max: owed + 10_000_000 }),
  )
}

const balancesAndPayment = balancesArb.chain((b) => paymentFor(b).map((amount) => ({ b, amount })))

/** Balances as ledger lines, so entries can be added to them with `balancesOf`. */
const linesOf = (b: Balances): LedgerLine[] => ledgerParts.map((part) => ({ part, amount: b[part] }))

describe('allocation of a payment', () => {
  it('the parts and the credit add up to the payment, each part at most what was owed', () => {
    fc.assert(
      fc.property(balancesAndPayment, ({ b, amount }) => {
        const { parts, credit } = allocate(b, amount)
        expect(allocationOrder.reduce((sum, part) => sum + parts[part], 0) + credit).toBe(amount)
        for (const part of allocationOrder) {
          expect(Number.isSafeInteger(parts[part])).toBe(true)
          expect(parts[part]).toBeGreaterThanOrEqual(0)
          expect(parts[part]).toBeLessThanOrEqual(b[part])
        }
        expect(credit).toBeGreaterThanOrEqual(0)
        // Credit only when everything owed was paid, and then exactly the excess.
        expect(credit).toBe(Math.max(0, amount - outstandingOf(b)))
      }),
      { numRuns: RUNS },
    )
  })

  it('parts are taken strictly in order: a later part gets money only when every earlier one is fully paid', () => {
    fc.assert(
      fc.property(balancesAndPayment, ({ b, amount }) => {
        const { parts, credit } = allocate(b, amount)
        allocationOrder.forEach((part, i) => {
          const later = allocationOrder.slice(i + 1).some((p) => parts[p] > 0) || credit > 0
          if (later) expect(parts[part], `${part} before a later part`).toBe(b[part])
          // A part not fully paid means the payment ran out on it.
          if (parts[part] < b[part])
            expect(allocationOrder.slice(0, i + 1).reduce((sum, p) => sum + parts[p], 0)).toBe(amount)
        })
      }),
      { numRuns: RUNS },
    )
  })

  it('the entries it books leave no part negative and change the credit by the excess only', () => {
    fc.assert(
      fc.property(balancesAndPayment, ({ b, amount }) => {
        const allocation = allocate(b, amount)
        const lines = allocationLines(allocation)
        for (const { kind, line } of lines) {
          expect(line.amount).not.toBe(0)
          if (kind === 'allocation') {
            expect(line.part).not.toBe('credit')
            expect(line.amount).toBeLessThan(0)
          } else {
            expect(kind).toBe('overpayment')
            expect(line).toEqual({ part: 'credit', amount: allocation.credit })
          }
        }
        // The booked lines carry the whole payment: what left the receivables plus what became credit.
        expect(
          lines.reduce((sum, { kind, line }) => sum + (kind === 'allocation' ? -1 : 1) * line.amount, 0),
        ).toBe(amount)
        const after = balancesOf([...linesOf(b), ...lines.map((l) => l.line)])
        for (const part of ledgerParts) expect(after[part], part).toBeGreaterThanOrEqual(0)
        expect(outstandingOf(after)).toBe(Math.max(0, outstandingOf(b) - amount))
        expect(after.credit).toBe(b.credit + allocation.credit)
      }),
      { numRuns: RUNS },
    )
  })

  it('a payment that is not a positive whole number of centavos is refused', () => {
    fc.assert(
      fc.property(
        balancesArb,
        fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true }), fc.constant(Number.NaN)),
        (b, amount) => {
          expect(() => allocate(b, amount)).toThrow(RangeError)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('residue waiver', () => {
  /** Balances whose outstanding is near the threshold more often than not. */
  const nearThreshold = fc.oneof(
    balancesArb,
    fc.record({
      principal: fc.integer({ min: 0, max: 60 }),
      interest: fc.integer({ min: 0, max: 60 }),
      fees: fc.integer({ min: 0, max: 60 }),
      penalties: fc.integer({ min: 0, max: 60 }),
      credit: partArb,
    }),
  )

  it('waives only a residue of 1 to 100 centavos, and then leaves nothing owed and the credit untouched', () => {
    fc.assert(
      fc.property(nearThreshold, (b) => {
        const outstanding = outstandingOf(b)
        const lines = residueWaiver(b)
        if (outstanding <= 0 || outstanding > RESIDUE_WAIVER_CENTAVOS) {
          expect(lines).toEqual([])
          return
        }
        expect(lines.length).toBeGreaterThan(0)
        for (const line of lines) {
          expect(line.part).not.toBe('credit')
          expect(line.amount).toBeLessThan(0)
          expect(-line.amount).toBeLessThanOrEqual(b[line.part])
        }
        expect(lines.reduce((sum, l) => sum - l.amount, 0)).toBe(outstanding)
        const after = balancesOf([...linesOf(b), ...lines])
        expect(outstandingOf(after)).toBe(0)
        for (const part of ledgerParts) expect(after[part]).toBeGreaterThanOrEqual(0)
        expect(after.credit).toBe(b.credit)
      }),
      { numRuns: RUNS },
    )
  })

  it('the boundary: 100 centavos are waived, 101 are not, 0 needs nothing', () => {
    const owing = (fees: number, principal: number): Balances => ({
      principal,
      interest: 0,
      fees,
      penalties: 0,
      credit: 0,
    })
    expect(residueWaiver(owing(40, 60))).toEqual([
      { part: 'fees', amount: -40 },
      { part: 'principal', amount: -60 },
    ])
    expect(residueWaiver(owing(41, 60))).toEqual([])
    expect(residueWaiver(owing(0, 0))).toEqual([])
    expect(residueWaiver(owing(0, 1))).toEqual([{ part: 'principal', amount: -1 }])
  })
})

// ---------------------------------------------------------------------------------------------------------
// Interest accrual

/** A loan's terms: ₱1 to ₱10,000,000 for 1 to 365 days, the contract's interest anywhere up to the principal. */
const termsArb: fc.Arbitrary<InterestTerms> = fc
  .record({
    principal: fc.integer({ min: 100, max: 1_000_000_000 }),
    term: fc.integer({ min: 1, max: 365 }),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ principal, term, share }) => ({ principal, term, interest: Math.floor(principal * share) }))

/** The exact pro-rata interest of a basis (Σ principal outstanding × days), floored, capped at the contract's. */
const proRata = (terms: InterestTerms, basis: bigint): number => {
  const exact = (basis * BigInt(terms.interest)) / (BigInt(terms.principal) * BigInt(terms.term))
  return Number(exact < BigInt(terms.interest) ? exact : BigInt(terms.interest))
}

const start: AccrualState = { accruedDays: 0, basis: 0n }

/** Books the accrual up to each of `targets` in turn on a constant principal; answers the total and the state. */
function bookTo(terms: InterestTerms, principal: number, targets: number[], from = start) {
  let state = from
  let total = 0
  for (const target of targets) {
    const { amount, next } = accrue(terms, state, principal, target)
    expect(amount).toBeGreaterThanOrEqual(0)
    total += amount
    state = next
  }
  return { total, state }
}

/** Cut points of 0..term, sorted (repeats and a target at or below the days accrued are allowed: they book 0). */
const splitArb = (term: number) =>
  fc
    .array(fc.integer({ min: 0, max: term }), { maxLength: 12 })
    .map((cuts) => [...cuts].sort((a, b) => a - b))

describe('interest accrual', () => {
  it('any split of the days into bookings (the principal constant) books the same total as one booking', () => {
    fc.assert(
      fc.property(
        termsArb.chain((terms) =>
          fc.record({
            terms: fc.constant(terms),
            principal: fc.integer({ min: 0, max: terms.principal }),
            target: fc.integer({ min: 0, max: terms.term }),
            cuts: splitArb(terms.term),
          }),
        ),
        ({ terms, principal, target, cuts }) => {
          const once = accrue(terms, start, principal, target)
          const split = bookTo(terms, principal, [...cuts.filter((c) => c < target), target])
          expect(split.total).toBe(once.amount)
          expect(split.state).toEqual(once.next)
          expect(once.next).toEqual({ accruedDays: target, basis: BigInt(principal) * BigInt(target) })
        },
      ),
      { numRuns: RUNS },
    )
  })

  it('an untouched loan accrues exactly the contract interest by its term, however the days were booked', () => {
    fc.assert(
      fc.property(
        termsArb.chain((terms) => fc.tuple(fc.constant(terms), splitArb(terms.term))),
        ([terms, cuts]) => {
          const { total, state } = bookTo(terms, terms.principal, [...cuts, terms.term])
          expect(total).toBe(terms.interest)
          expect(state.accruedDays).toBe(terms.term)
          // Past the term nothing more (bookings up to the term only; a later target is clamped by accrualDaysBy).
          expect(accrue(terms, state, terms.principal, terms.term).amount).toBe(0)
        },
      ),
      { numRuns: RUNS },
    )
  })

  /** Segments of the term with the principal outstanding in each, never more than the loan's principal. */
  const segmentsArb = termsArb.chain((terms) =>
    fc.record({
      terms: fc.constant(terms),
      segments: fc.array(
        fc.record({
          days: fc.integer({ min: 0, max: terms.term }),
          principal: fc.oneof(fc.constant(terms.principal), fc.integer({ min: 0, max: terms.principal })),
        }),
        { minLength: 1, maxLength: 10 },
      ),
      repaidOnly: fc.boolean(),
    }),
  )

  it('with principal repaid part-way the total is the floor of the exact pro-rata, never above the contract', () => {
    fc.assert(
      fc.property(segmentsArb, ({ terms, segments, repaidOnly }) => {
        // Repaid part-way: the principal outstanding only falls (sorted down); otherwise it may also rise again
        // (a reversed payment), but never above the loan's principal.
        const ordered = repaidOnly ? [...segments].sort((a, b) => b.principal - a.principal) : segments
        let state = start
        let total = 0
        let basis = 0n
        for (const { days, principal } of ordered) {
          const target = Math.min(terms.term, state.accruedDays + days)
          const { amount, next } = accrue(terms, state, principal, target)
          expect(amount).toBeGreaterThanOrEqual(0)
          basis += BigInt(principal) * BigInt(target - state.accruedDays)
          total += amount
          state = next
          expect(state.basis).toBe(basis)
          expect(total).toBe(proRata(terms, basis))
          expect(total).toBeLessThanOrEqual(terms.interest)
        }
        // The basis never passes principal × term, so the cap never has to cut.
        expect(basis <= BigInt(terms.principal) * BigInt(terms.term)).toBe(true)
      }),
      { numRuns: RUNS },
    )
  })

  it('interestForBasis never exceeds the contract interest, even for a basis above principal × term', () => {
    fc.assert(
      fc.property(termsArb, fc.bigInt({ min: 0n, max: 10n ** 15n }), (terms, basis) => {
        const interest = interestForBasis(terms, basis)
        expect(interest).toBe(proRata(terms, basis))
        expect(interest).toBeLessThanOrEqual(terms.interest)
        expect(interest).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: RUNS },
    )
    expect(interestForBasis({ principal: 0, interest: 100, term: 10 }, 1_000n)).toBe(0)
    expect(interestForBasis({ principal: 100, interest: 100, term: 0 }, 1_000n)).toBe(0)
  })

  it('a target at or before the days already accrued books nothing and keeps the state', () => {
    fc.assert(
      fc.property(
        termsArb.chain((terms) =>
          fc.record({
            terms: fc.constant(terms),
            accrued: fc.integer({ min: 0, max: terms.term }),
            back: fc.integer({ min: 0, max: 400 }),
          }),
        ),
        ({ terms, accrued, back }) => {
          const state = { accruedDays: accrued, basis: BigInt(terms.principal) * BigInt(accrued) }
          const { amount, next } = accrue(terms, state, terms.principal, accrued - back)
          expect(amount).toBe(0)
          expect(next).toBe(state)
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('accrualDaysBy', () => {
  /** A start date between 2020 and 2035, as the loan's Manila payout day. */
  const dayArb = fc.integer({ min: 0, max: 5_500 }).map((n) => addDays('2020-01-01', n))
  const daysBetween = (from: string, to: string) =>
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)

  it('is clamped to [0, term], counts the payout day, and does not count the days on hold', () => {
    fc.assert(
      fc.property(
        dayArb,
        fc.integer({ min: -30, max: 500 }),
        fc.integer({ min: 1, max: 365 }),
        fc.integer({ min: 0, max: 60 }),
        (startDate, offset, term, held) => {
          const today = addDays(startDate, offset)
          const days = accrualDaysBy(startDate, today, term, held)
          expect(Number.isSafeInteger(days)).toBe(true)
          expect(days).toBeGreaterThanOrEqual(0)
          expect(days).toBeLessThanOrEqual(term)
          expect(days).toBe(Math.max(0, Math.min(term, daysBetween(startDate, today) + 1 - held)))
        },
      ),
      { numRuns: RUNS },
    )
  })

  it('is monotonic in today (and never grows with more days on hold)', () => {
    fc.assert(
      fc.property(
        dayArb,
        fc.integer({ min: -30, max: 500 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 365 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (startDate, offset, later, term, held, moreHeld) => {
          const today = addDays(startDate, offset)
          const after = addDays(today, later)
          expect(accrualDaysBy(startDate, after, term, held)).toBeGreaterThanOrEqual(
            accrualDaysBy(startDate, today, term, held),
          )
          expect(accrualDaysBy(startDate, today, term, held + moreHeld)).toBeLessThanOrEqual(
            accrualDaysBy(startDate, today, term, held),
          )
        },
      ),
      { numRuns: RUNS },
    )
    // The payout day itself accrues one day; the day before none; the due day (start + term - 1) the whole term.
    expect(accrualDaysBy('2026-03-01', '2026-03-01', 14, 0)).toBe(1)
    expect(accrualDaysBy('2026-03-01', '2026-02-28', 14, 0)).toBe(0)
    expect(accrualDaysBy('2026-03-01', '2026-03-14', 14, 0)).toBe(14)
    expect(accrualDaysBy('2026-03-01', '2026-06-14', 14, 0)).toBe(14)
  })
})
