/**
 * What the debt-sale and write-off calls answer (issue 18, items 3 and 4; docs/decisions/0029), apart from their
 * contracts in debt.ts. Money is integer centavos (`{ amount }` where the client reads it); dates are Manila
 * calendar dates (YYYY-MM-DD), times ISO 8601.
 */
import * as v from 'valibot'

export const collectionAgencySchema = v.object({
  id: v.number(),
  name: v.string(),
  phone: v.string(),
  email: v.string(),
  paymentInstructions: v.string(),
  active: v.boolean(),
})
export type CollectionAgency = v.InferOutput<typeof collectionAgencySchema>

/** A loan the back office may sell (active and overdue) or write off (overdue, or on hold). */
export const defaultCandidateSchema = v.object({
  loanId: v.number(),
  loanNumber: v.string(),
  clientId: v.number(),
  /** The loan's leaf in the statechart ('active.on_terms.overdue', 'on_hold.scheduled'). */
  state: v.string(),
  status: v.number(),
  dueDate: v.string(),
  overdueSince: v.nullable(v.string()),
  /** What the ledger says the loan owes now (principal, interest, fees, penalties). */
  outstanding: v.number(),
  sellable: v.boolean(),
})
export type DefaultCandidate = v.InferOutput<typeof defaultCandidateSchema>

export const debtSaleRefusalSchema = v.object({
  loanId: v.number(),
  /** loanStateMismatch (not overdue, already sold, paid...), notFound. */
  code: v.string(),
  message: v.string(),
})

export const soldLoanSchema = v.object({
  loanId: v.number(),
  loanNumber: v.string(),
  clientId: v.number(),
  /** What the loan owed at the sale. */
  amount: v.number(),
})

/** One sale call: the loans it sold (all-or-nothing each) and those it refused, with why. */
export const debtSaleResultSchema = v.object({
  /** Null when every loan was refused (no sale is recorded then). */
  saleId: v.nullable(v.number()),
  agencyId: v.number(),
  sold: v.array(soldLoanSchema),
  refused: v.array(debtSaleRefusalSchema),
})
export type DebtSaleResult = v.InferOutput<typeof debtSaleResultSchema>

export const debtSaleSchema = v.object({
  id: v.number(),
  agency: v.object({ id: v.number(), name: v.string() }),
  userId: v.number(),
  reason: v.nullable(v.string()),
  at: v.string(),
  loans: v.array(soldLoanSchema),
  /** What the sale's loans owed in all at the sale. */
  total: v.number(),
})
export type DebtSale = v.InferOutput<typeof debtSaleSchema>

export const debtForwardSchema = v.object({
  id: v.number(),
  paymentId: v.number(),
  loanId: v.number(),
  loanNumber: v.string(),
  agency: v.object({ id: v.number(), name: v.string() }),
  amount: v.number(),
  status: v.picklist(['pending', 'forwarded', 'cancelled']),
  createdAt: v.string(),
  forwardedAt: v.nullable(v.string()),
})
export type DebtForward = v.InferOutput<typeof debtForwardSchema>

export const writeOffResultSchema = v.object({
  loanId: v.number(),
  state: v.string(),
  status: v.number(),
  /** What left the books. */
  amount: v.number(),
})

const money = v.object({ amount: v.number() })

/** The debt-sold page (spec section 2, /profile/debt-sold): whom the client owes now and how to pay them. */
export const soldDebtSchema = v.object({
  loanId: v.number(),
  loanNumber: v.string(),
  soldOn: v.string(),
  /** What the loan owed at the sale: what the agency collects (it may add its own lawful charges). */
  amountAtSale: money,
  agency: v.object({
    name: v.string(),
    phone: v.string(),
    email: v.string(),
    paymentInstructions: v.string(),
  }),
  /** Payments that reached Hiram after the sale: kept and passed on to the agency (Civil Code Art. 1626). */
  paidToHiramAfterSale: money,
})
export type SoldDebt = v.InferOutput<typeof soldDebtSchema>
