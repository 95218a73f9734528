/**
 * Debt sales and write-offs (issue 18, items 3 and 4; spec sections 2 (/profile/debt-sold), 4 (status codes 9
 * and 10), 6 (sold debt); docs/decisions/0029-debt-sale-and-write-off.md): the collection agencies, selling
 * overdue loans to one (one or a batch), the payments to forward after a sale, writing a loan off, and what the
 * client's debt-sold page reads.
 */
import * as v from 'valibot'
import { idNumber, idString } from '../ids'
import { safeMultilineString, safeString } from '../safe-text'
import { approvalSchema } from './approvals'
import {
  collectionAgencySchema,
  debtForwardSchema,
  debtSaleSchema,
  defaultCandidateSchema,
  soldDebtSchema,
} from './debt-answers'
import { defineContract } from './define'
import { pagingQuery } from './reference'

const reason = v.pipe(
  safeString(),
  v.trim(),
  v.minLength(3, 'Give a reason of at least 3 characters.'),
  v.maxLength(500, 'At most 500 characters.'),
)
const text = (min: number, max: number, what: string) =>
  v.pipe(
    safeString(),
    v.trim(),
    v.minLength(min, `${what} needs at least ${min} characters.`),
    v.maxLength(max, `At most ${max} characters.`),
  )

/** The most loans one sale call takes (each is its own transaction). */
export const MAX_LOANS_PER_SALE = 500

export const agencyBodySchema = v.object({
  name: text(3, 120, 'The name'),
  phone: v.pipe(
    safeString(),
    v.trim(),
    v.regex(/^\+?[0-9][0-9 ()-]{5,23}$/, 'A phone number: digits, spaces, dashes, an optional leading +.'),
  ),
  email: v.pipe(
    safeString(),
    v.trim(),
    v.maxLength(254, 'At most 254 characters.'),
    v.regex(/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/, 'An e-mail address.'),
    v.toLowerCase(),
  ),
  paymentInstructions: v.pipe(
    safeMultilineString(),
    v.trim(),
    v.minLength(10, 'The payment instructions need at least 10 characters.'),
    v.maxLength(2000, 'At most 2000 characters.'),
  ),
})

export const listCollectionAgencies = defineContract({
  method: 'get',
  path: '/private/back-office/collection-agencies',
  summary:
    'The collection agencies debt can be sold to (active and inactive), by name (x-* pagination headers)',
  tags: ['back-office'],
  access: 'user',
  permission: 'debt.read',
  paginated: true,
  query: v.object(pagingQuery(100, 200)),
  response: v.array(collectionAgencySchema),
})

export const createCollectionAgency = defineContract({
  method: 'post',
  path: '/private/back-office/collection-agencies',
  summary: 'Add a collection agency: its name, contacts and the payment instructions its debtors are given',
  tags: ['back-office'],
  access: 'user',
  permission: 'agencies.manage',
  body: agencyBodySchema,
  response: collectionAgencySchema,
})

export const listDefaultCandidates = defineContract({
  method: 'get',
  path: '/private/back-office/debt-sales/candidates',
  summary:
    'Loans the back office may sell (active and overdue) or write off (overdue, or on hold), oldest overdue first',
  tags: ['back-office'],
  access: 'user',
  permission: 'debt.read',
  query: v.object(pagingQuery(100, 500)),
  paginated: true,
  response: v.array(defaultCandidateSchema),
})

export const sellDebt = defineContract({
  method: 'post',
  path: '/private/back-office/debt-sales',
  summary:
    "Propose selling overdue loans (1 to 500) to a collection agency (202 with the proposal): once another user holding debt.sell approves it (POST /approvals/{id}/approve), each loan is sold (status 9, its receivables booked to 0, the client notified) or refused on its own, in the approval's result",
  tags: ['back-office'],
  access: 'user',
  permission: 'debt.sell',
  body: v.object({
    agencyId: idNumber(),
    loanIds: v.pipe(
      v.array(idNumber()),
      v.minLength(1, 'Choose at least one loan.'),
      v.maxLength(MAX_LOANS_PER_SALE, `At most ${MAX_LOANS_PER_SALE} loans in one sale.`),
    ),
    reason: v.optional(reason),
  }),
  /** The proposal, pending; its result, once approved, is a `debtSaleResultSchema`. */
  response: approvalSchema,
})

const salesList = defineContract({
  method: 'get',
  path: '/private/back-office/debt-sales',
  summary:
    'The debt sales, newest first, with their loans and what each owed at the sale (x-* pagination headers)',
  tags: ['back-office'],
  access: 'user',
  permission: 'debt.read',
  paginated: true,
  query: v.object(pagingQuery(20, 100)),
  response: v.array(debtSaleSchema),
})
export const listDebtSales = salesList as typeof salesList & { paginated: true }

const forwardsList = defineContract({
  method: 'get',
  path: '/private/back-office/debt-forwards',
  summary:
    'Payments that reached Hiram after their loan was sold, owed to the agency (Civil Code Art. 1626), newest first',
  tags: ['back-office'],
  access: 'user',
  permission: 'debt.read',
  paginated: true,
  query: v.object({
    ...pagingQuery(50, 200),
    status: v.optional(v.picklist(['pending', 'forwarded', 'cancelled'], 'pending, forwarded or cancelled.')),
  }),
  response: v.array(debtForwardSchema),
})
export const listDebtForwards = forwardsList as typeof forwardsList & { paginated: true }

export const markDebtForwarded = defineContract({
  method: 'post',
  path: '/private/back-office/debt-forwards/:id/forwarded',
  summary: 'Record that a payment owed to the agency was paid over to it',
  tags: ['back-office'],
  access: 'user',
  permission: 'debt.forward',
  params: v.object({ id: idString() }),
  response: debtForwardSchema,
})

export const writeOffLoan = defineContract({
  method: 'post',
  path: '/private/back-office/loan/:id/write-off',
  summary:
    'Propose writing a loan off as a loss with a reason (overdue, or on hold; 202 with the proposal): once another user holding loans.write-off approves it (POST /approvals/{id}/approve), status 10, what it owed leaves the books by ledger entries; later payments are recoveries',
  tags: ['back-office'],
  access: 'user',
  permission: 'loans.write-off',
  params: v.object({ id: idString() }),
  body: v.object({ reason }),
  /** The proposal, pending; its result, once approved, is a `writeOffResultSchema`. */
  response: approvalSchema,
})

export const getSoldDebt = defineContract({
  method: 'get',
  path: '/private/client/loan/sold-debt',
  summary:
    "The client's sold loans: who owns each debt now, how to pay them, what was owed at the sale (the debt-sold page)",
  tags: ['loan'],
  access: 'client',
  paginated: true,
  query: v.object(pagingQuery(10, 50)),
  response: v.array(soldDebtSchema),
})
