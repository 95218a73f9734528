/**
 * What the lending calls answer (spec section 3: Application, Loan, Documents), apart from the contracts in
 * lending.ts: the screens parse these answers in the browser, and a module is bundled whole, so the home page,
 * which only creates an application and polls it, does not carry them (docs/decisions/0023-one-contract.md).
 */
import * as v from 'valibot'
import { pricedOfferSchema } from './pricing-answers'
import { rolloverSchema, scheduleOfferSummarySchema } from './servicing-answers'

const integer = v.pipe(v.number(), v.integer())
const money = v.looseObject({ amount: integer })
const optionalMoney = v.optional(v.nullable(money))
const term = v.looseObject({ value: integer, unit: v.optional(v.string()) })

/** The Application of spec section 3. */
export const applicationSchema = v.looseObject({
  id: integer,
  hashedId: v.optional(v.nullable(v.string())),
  status: integer,
  desiredLoanAmount: money,
  principalAmount: optionalMoney,
  term,
  /** Not in spec section 3: the term the client asked for, when the offer changed it. */
  desiredTerm: v.optional(v.nullable(term)),
  loanAmount: v.looseObject({ amount: integer, currency: v.optional(v.string()) }),
  /** The counter-offer: the lower amount (13, 17) or the upper limit of an increase (18). */
  offeredAmount: optionalMoney,
  borrowersAdvantagePackageFeeConsent: v.optional(v.boolean()),
  promoCode: v.nullable(v.string()),
  paymentMethod: v.string(),
  /** Spec section 3 names the type; the provider lets the cash-pickup page name the partner. */
  disbursementType: v.optional(
    v.nullable(v.looseObject({ type: v.string(), provider: v.optional(v.nullable(v.string())) })),
  ),
  cashPickupNumber: v.optional(v.nullable(v.string())),
  /** Not in spec section 3: for a rejected application, when a new one may be made (ISO date or instant). */
  reapplyFrom: v.optional(v.nullable(v.string())),
  /** UTC, ISO 8601. */
  createdAt: v.string(),
  signedAt: v.nullable(v.string()),
})
export type Application = v.InferOutput<typeof applicationSchema>

/** The newest application's status code (spec section 4); null when the client has none. */
export const applicationStatusSchema = v.nullable(
  v.looseObject({ status: integer, id: v.optional(v.nullable(v.number())) }),
)
export type ApplicationStatusAnswer = v.InferOutput<typeof applicationStatusSchema>

/** The two documents a client reads before signing (issue 6 item 4). */
export const documentTypes = ['loan_agreement', 'disclosure_statement'] as const
export type DocumentType = (typeof documentTypes)[number]

/** A loan document's description (never the file: that is `downloadDocument`). */
export const loanDocumentSchema = v.looseObject({
  type: v.string(),
  name: v.optional(v.string()),
  id: v.pipe(v.string(), v.uuid()),
  applicationId: v.number(),
  sha256: v.string(),
  /** Bytes. */
  size: v.number(),
  /** UTC, ISO 8601. */
  renderedAt: v.string(),
  signed: v.boolean(),
  signedAt: v.nullable(v.string()),
  /** Where the PDF is downloaded from. */
  url: v.string(),
})
export type LoanDocument = v.InferOutput<typeof loanDocumentSchema>

/** The documents rendered for the approved application, and the offer their figures come from. */
export const renderedDocumentsSchema = v.looseObject({
  documents: v.array(loanDocumentSchema),
  offer: pricedOfferSchema,
})
export type RenderedDocuments = v.InferOutput<typeof renderedDocumentsSchema>

/** The active Loan (spec section 3) with the amount due and its parts; null when there is none. */
export const activeLoanSchema = v.nullable(
  v.looseObject({
    id: v.optional(v.number()),
    applicationId: v.number(),
    status: integer,
    /** The Manila day the loan started on. */
    createdAtDate: v.optional(v.string()),
    createdAt: v.string(),
    principal: money,
    /** The loan number (L00000012) and the client's payment reference for life (10 digits; issue 16). */
    loanNumber: v.optional(v.string()),
    paymentReference: v.optional(v.string()),
    /** The client's InstaPay / PESONet virtual account (8801 + the payment reference). */
    virtualAccount: v.optional(v.string()),
    /** The lifecycle's state (domain/loan/loan-lifecycle.machine.ts): draft, active, on_hold, paid... */
    state: v.optional(v.string()),
    /** Today's payoff, by part: penalties, fees, interest accrued up to today, principal. */
    amountDue: v.looseObject({
      amount: integer,
      parts: v.optional(
        v.looseObject({
          principal: optionalMoney,
          interest: optionalMoney,
          fees: optionalMoney,
          penalty: optionalMoney,
          penalties: optionalMoney,
        }),
      ),
    }),
    /** Overpaid money held for the client (refunded to the payout account). */
    credit: v.optional(money),
    /** Paid so far, and the interest the contract allows in all (what is still to come shrinks when paying early). */
    paidTotal: v.optional(money),
    contractInterest: v.optional(money),
    feeLines: v.record(v.string(), v.number()),
    term,
    /** YYYY-MM-DD on the Manila calendar. */
    dueDate: v.pipe(v.string(), v.minLength(10)),
    finalClosingDate: v.string(),
    /** `dueDays`: whole days from Manila's today to the due date, negative when overdue. */
    repaymentInvoice: v.looseObject({
      dueDays: integer,
      dueDate: v.string(),
      amount: money,
    }),
    /** Spec section 3: the extensions, one inactive per type while one may be chosen, and those in effect. */
    rollovers: v.array(rolloverSchema),
    /** How the loan is being repaid (issue 17): on its contract terms, or on a payment schedule. */
    plan: v.optional(v.picklist(['on_terms', 'scheduled'])),
    /** 100% of principal minus every cost so far and to come: what extensions and schedules may still cost. */
    legalRoom: v.optional(money),
    extensions: v.optional(v.object({ taken: v.number(), max: v.number() })),
    /** Payment-schedule special offers made to this loan today (empty when none). */
    specialOffers: v.optional(v.array(scheduleOfferSummarySchema)),
    /**
     * Whether the loan is paid as agreed (issue 18; spec section 4, Overdue): 'overdue' once its due date (or an
     * instalment's) has passed unpaid; `overdueDays` counts the days since (0 while current).
     */
    standing: v.optional(v.picklist(['current', 'overdue'])),
    overdueDays: v.optional(integer),
    /** The penalty terms in force: grace days and the daily rate (ppm of the overdue amount), for My loan. */
    penaltyTerms: v.optional(v.object({ graceDays: integer, ratePpmPerDay: integer, enabled: v.boolean() })),
    /**
     * The client's other open loan (an additional loan, ADR 0030), each its own contract with its own payoff and
     * due date; payments go to the loan above first.
     */
    otherLoans: v.optional(
      v.array(
        v.object({
          id: v.number(),
          loanNumber: v.string(),
          status: v.number(),
          principal: money,
          amountDue: money,
          dueDate: v.string(),
          dueDays: integer,
          standing: v.picklist(['current', 'overdue']),
          overdueDays: integer,
        }),
      ),
    ),
  }),
)
export type ActiveLoan = NonNullable<v.InferOutput<typeof activeLoanSchema>>

/** One application in the back office's review queue, with the latest decision (why a person must look). */
export const reviewItemSchema = v.object({
  id: v.number(),
  status: v.number(),
  clientId: v.number(),
  clientName: v.string(),
  phone: v.string(),
  /** Centavos. */
  amount: v.number(),
  term: v.number(),
  /** UTC, ISO 8601. */
  createdAt: v.string(),
  decision: v.nullable(
    v.object({
      outcome: v.string(),
      reasons: v.array(v.string()),
      rules: v.array(v.object({ rule: v.string(), passed: v.boolean() })),
      createdAt: v.string(),
    }),
  ),
})
