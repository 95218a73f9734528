/**
 * What the extension and schedule rules (domain/loan/extension.ts, schedule.ts) know of a loan on a business day,
 * read from its row and ledger, and the servicing configuration they run with. Reads only: the interest due
 * but not yet booked is computed, as the views do, so a GET never writes.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { LoanFacts } from '../../../domain/loan/extension'
import { type Balances, chargeKinds } from '../../../domain/loan/ledger'
import { type ServicingConfig, servicingConfigSchema } from '../../../domain/loan/servicing-config'
import { type PricingConfig, pricingConfigShapeSchema } from '../../../domain/pricing/config'
import type { DbOrTx } from '../../db/client'
import { loanLedgerEntry } from '../../db/schema-payments'
import { loanExtension } from '../../db/schema-servicing'
import { readConfig } from '../config'
import {
  balancesOfLoan,
  dueAccrual,
  dueScheduleInterest,
  type LoanRow,
  leafOfRow,
  scheduleInterestTotals,
} from '../payments/loans'

export interface ServicingTerms {
  extensions: PricingConfig['extensions']
  servicing: ServicingConfig
}

/** The extension prices (pricing) and the servicing rules in force. */
export async function servicingTerms(db: DbOrTx): Promise<ServicingTerms> {
  const [pricing, servicing] = await Promise.all([
    readConfig(db, 'pricing', pricingConfigShapeSchema),
    readConfig(db, 'servicing', servicingConfigSchema),
  ])
  return { extensions: pricing.extensions, servicing }
}

export interface LoanSnapshot {
  facts: LoanFacts
  /** Today's balances: booked plus interest due and not booked. */
  balances: Balances
}

/** A loan's facts on `today`, from its row and ledger. */
export async function loanSnapshot(db: DbOrTx, row: LoanRow, today: string): Promise<LoanSnapshot> {
  const booked = await balancesOfLoan(db, row.id)
  const scheduleDue = await dueScheduleInterest(db, row, today)
  const withSchedule = { ...booked, interest: booked.interest + scheduleDue }
  const accrual = dueAccrual(row, withSchedule, today)
  const balances = accrual
    ? { ...withSchedule, interest: withSchedule.interest + accrual.amount }
    : withSchedule
  const charges = await db
    .select({ kind: loanLedgerEntry.kind, total: sql<string>`coalesce(sum(${loanLedgerEntry.amount}), 0)` })
    .from(loanLedgerEntry)
    .where(and(eq(loanLedgerEntry.loanId, row.id), inArray(loanLedgerEntry.kind, [...chargeKinds])))
    .groupBy(loanLedgerEntry.kind)
  const byKind = new Map(charges.map((c) => [c.kind, Number(c.total)]))
  const contractInterestBooked = (byKind.get('interest_accrual') ?? 0) + (accrual?.amount ?? 0)
  const charged = [...byKind.values()].reduce((a, b) => a + b, 0) + scheduleDue + (accrual?.amount ?? 0)
  const [taken] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loanExtension)
    .where(and(eq(loanExtension.loanId, row.id), eq(loanExtension.status, 'active')))
  const accruedDays = accrual?.next.accruedDays ?? row.accruedDays
  const schedule = row.plan === 'scheduled' ? await scheduleInterestTotals(db, row.id, today) : null
  return {
    balances,
    facts: {
      leaf: leafOfRow(row),
      principal: row.principal,
      principalOutstanding: Math.max(0, balances.principal),
      charged,
      // The contract's interest not charged yet (all of it stops at the term: ADR 0005), and a schedule's.
      interestToCome:
        Math.max(0, (accruedDays >= row.term ? 0 : row.interest) - contractInterestBooked) +
        (schedule ? Math.max(0, schedule.all - schedule.started) : 0),
      dueDate: row.dueDate,
      today,
      extensionsTaken: taken?.n ?? 0,
    },
  }
}
