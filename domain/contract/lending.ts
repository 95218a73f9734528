/**
 * Applications, counter-offers, the loan documents and their signature, the active loan, and the back office's
 * review of applications waiting for a person (spec section 7 "Application", "Loan", "Documents"; docs/decisions
 * 0012 and 0013). Money is integer centavos and terms are days, in bodies as in answers (ADR 0002).
 *
 * The answers the screens parse (an application, its status, the rendered documents, the active loan) are
 * `looseObject`s, so a field the server adds later does not break a screen; a field the screens have always
 * done without (the spec's ERP may not send it) stays optional.
 */
import * as v from 'valibot'
import { assignBodySchema, reviewFilterEntries, reviewQueueItemSchema } from '../back-office/review'
import { backOfficeDecisionSchema } from '../back-office-decision'
import { campaignParams } from '../campaign'
import { idString } from '../ids'
import { promoCodeSchema } from '../pricing/promo'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import { codeSentSchema } from './identity-answers'
import { flowSchema } from './journey-answers'
import {
  activeLoanSchema,
  applicationSchema,
  applicationStatusSchema,
  documentTypes,
  loanDocumentSchema,
  renderedDocumentsSchema,
} from './lending-answers'
import { disbursementEntrySchema } from './payout'
import { pricedOfferSchema, promoAnswerSchema } from './pricing-answers'
import { pagingQuery } from './reference'

const idParams = v.object({ id: idString() })

// ---------------------------------------------------------------------------------------------------------
// Bodies

const centavos = v.pipe(
  v.number('The amount must be a number of centavos.'),
  v.integer('The amount must be a whole number of centavos.'),
  v.minValue(1, 'The amount must be positive.'),
  v.maxValue(1_000_000_000, 'The amount is too large.'),
)
const moneyBody = v.object({
  amount: centavos,
  currency: v.optional(v.literal('PHP', 'The currency is PHP.'), 'PHP'),
})
const termBody = v.object({
  value: v.pipe(
    v.number('The term must be a number of days.'),
    v.integer('The term must be a whole number of days.'),
    v.minValue(1, 'The term must be at least 1 day.'),
    v.maxValue(3650, 'The term is too long.'),
  ),
  unit: v.optional(v.literal('day', 'The term unit is day.'), 'day'),
})
const shortText = v.pipe(safeString(), v.maxLength(200, 'At most 200 characters.'))
const consentsBody = v.object({ acceptBorrowersAdvantagePackageFee: v.boolean('Must be true or false.') })

const affiliateBody = v.pipe(
  v.record(safeString(), shortText),
  v.check(
    (r) => Object.keys(r).every((k) => (campaignParams as readonly string[]).includes(k)),
    'Unknown campaign parameter.',
  ),
)

/** The body of POST /private/client/application: the calculator's figures, the campaign and the fraud tools' ids. */
export const createApplicationBodySchema = v.object({
  loanAmount: moneyBody,
  term: termBody,
  paymentMethod: v.optional(
    v.literal('bank_transfer', 'The payment method is bank_transfer.'),
    'bank_transfer',
  ),
  consents: v.optional(consentsBody, { acceptBorrowersAdvantagePackageFee: true }),
  promoCode: v.optional(promoCodeSchema),
  iovation: v.optional(
    v.object({ ioBB: v.pipe(safeString(), v.maxLength(8192, 'The blackbox is too long.')) }),
  ),
  affiliate: v.optional(affiliateBody),
  hotjarUserId: v.optional(shortText),
  seonSession: v.optional(v.pipe(safeString(), v.maxLength(8192, 'The session is too long.'))),
  juicySessionId: v.optional(shortText),
  marketing: v.optional(v.record(v.pipe(safeString(), v.maxLength(64, 'At most 64 characters.')), shortText)),
})
/** What the browser sends to create an application (defaults such as the currency may be left out). */
export type CreateApplicationBody = v.InferInput<typeof createApplicationBodySchema>

const changeApplicationBodySchema = v.pipe(
  v.object({
    amount: v.optional(moneyBody),
    term: v.optional(termBody),
    consents: v.optional(consentsBody),
  }),
  v.check((b) => Boolean(b.amount || b.term || b.consents), 'Send the amount, the term or the consents.'),
)

/** A lower offer's answer: the offered figures when left out, or a lower amount (and term) on the grid. */
const lowerOfferAnswerSchema = v.object({ amount: v.optional(moneyBody), term: v.optional(termBody) })

// ---------------------------------------------------------------------------------------------------------
// The application

export const createApplication = defineContract({
  method: 'post',
  path: '/private/client/application',
  summary:
    'Apply: amount and term checked against the calculator and the available amount; the decision follows asynchronously. An Idempotency-Key header makes a retry answer the first result.',
  tags: ['application'],
  access: 'client',
  body: createApplicationBodySchema,
  response: applicationSchema,
})

export const getActualApplication = defineContract({
  method: 'get',
  path: '/private/client/application/actual',
  summary: "The client's newest application (null when there is none)",
  tags: ['application'],
  access: 'client',
  response: v.nullable(applicationSchema),
})

export const getActualApplicationStatus = defineContract({
  method: 'get',
  path: '/private/client/application/actual/status',
  summary: "The newest application's status code (spec section 4), for the loading page's polling",
  tags: ['application'],
  access: 'client',
  response: applicationStatusSchema,
})

export const getPaymentMethod = defineContract({
  method: 'get',
  path: '/private/client/application/payment-method',
  summary: 'How the money will be paid out: the selected payout account of the client',
  tags: ['application'],
  access: 'client',
  response: v.object({
    paymentMethod: v.literal('bank_transfer'),
    disbursement: v.nullable(disbursementEntrySchema),
    entries: v.array(disbursementEntrySchema),
  }),
})

export const changeApplication = defineContract({
  method: 'put',
  path: '/private/client/application/:id',
  summary:
    'Change amount, term or fee consent: any valid figures before the decision (decided again), at most the approved ones at signing',
  tags: ['application'],
  access: 'client',
  params: idParams,
  body: changeApplicationBodySchema,
  response: applicationSchema,
})

export const cancelApplication = defineContract({
  method: 'post',
  path: '/private/client/application/:id/cancel',
  summary: 'Cancel the application (status 5) before it is signed',
  tags: ['application'],
  access: 'client',
  params: idParams,
  response: applicationSchema,
})

export const getApplicationOffer = defineContract({
  method: 'get',
  path: '/private/client/application/:id/offer/actual',
  summary:
    "The Offer (pricing engine) for the application's figures; once signed, the signed offer unchanged",
  tags: ['application'],
  access: 'client',
  params: idParams,
  response: pricedOfferSchema,
})

export const applyApplicationPromo = defineContract({
  method: 'post',
  path: '/private/client/application/:applicationId/promocode',
  summary:
    'Apply a promo code to the application (before the signature); refused with error-promo-applied-wrong',
  tags: ['application'],
  access: 'client',
  params: v.object({ applicationId: idString() }),
  body: v.object({ promoCode: promoCodeSchema }),
  response: v.object({ application: applicationSchema, offer: pricedOfferSchema, promo: promoAnswerSchema }),
})

// ---------------------------------------------------------------------------------------------------------
// Counter-offers: a lower offer (special offer 13, yhat decrease 17) takes the same answer on its own path

export const approveSpecialOffer = defineContract({
  method: 'put',
  path: '/private/client/special/offer/approve',
  summary: 'Accept the special offer (status 13): the offered amount, or a lower one on the grid',
  tags: ['application'],
  access: 'client',
  body: lowerOfferAnswerSchema,
  response: applicationSchema,
})

export const approveDecreasedOffer = defineContract({
  method: 'put',
  path: '/private/client/yhat/offer/approve/decrease',
  summary: 'Accept the decreased offer (status 17): the offered amount, or a lower one on the grid',
  tags: ['application'],
  access: 'client',
  body: lowerOfferAnswerSchema,
  response: applicationSchema,
})

export const answerIncreasedOffer = defineContract({
  method: 'put',
  path: '/private/client/yhat/offer/approve/increase',
  summary:
    'Answer the increase offer (status 18) with an amount from the original up to the offered limit; the original amount and term refuse it',
  tags: ['application'],
  access: 'client',
  body: v.object({ amount: moneyBody, term: termBody }),
  response: applicationSchema,
})

// ---------------------------------------------------------------------------------------------------------
// Documents and the signature

export const renderDocuments = defineContract({
  method: 'post',
  path: '/private/client/render/document',
  summary:
    'Render the loan agreement and the Truth-in-Lending disclosure statement (PDF) for the approved application',
  tags: ['documents'],
  access: 'client',
  response: renderedDocumentsSchema,
})

export const getApplicationDocuments = defineContract({
  method: 'get',
  path: '/private/client/document',
  summary: "The documents of the client's newest application",
  tags: ['documents'],
  access: 'client',
  // One application's documents: one of each type, so one page always holds them.
  paginated: true,
  query: v.object(pagingQuery(10, 10)),
  response: v.array(loanDocumentSchema),
})

export const listDocuments = defineContract({
  method: 'get',
  path: '/private/client/document/list',
  summary: 'Every loan document of the client, newest first, a page at a time (page, perPage up to 100)',
  tags: ['documents'],
  access: 'client',
  paginated: true,
  query: v.object(pagingQuery(50, 100)),
  response: v.array(loanDocumentSchema),
})

export const downloadDocument = defineContract({
  method: 'get',
  path: '/private/client/document/download/:type',
  summary: "A loan document of the client's newest application, as the PDF rendered (and signed) unchanged",
  tags: ['documents'],
  access: 'client',
  params: v.object({
    type: v.picklist(documentTypes, 'The type is loan_agreement or disclosure_statement.'),
  }),
  answer: 'binary',
})

export const signAgreement = defineContract({
  method: 'post',
  path: '/private/client/application/agreement/:id',
  summary:
    'Sign the agreement: without a code, sends the signing code by SMS; with the code, signs the rendered documents and queues the payout',
  tags: ['documents'],
  access: 'client',
  params: idParams,
  body: v.object({
    code: v.optional(v.pipe(safeString(), v.regex(/^\d{3}$/, 'error-verification-code'))),
  }),
  /** Without a code, the code sent; with it, the signed application and the journey's flow after it. */
  response: v.union([codeSentSchema, v.object({ application: applicationSchema, flow: flowSchema })]),
})

// ---------------------------------------------------------------------------------------------------------
// The loan

export const getActiveLoan = defineContract({
  method: 'get',
  path: '/private/client/loan/active',
  summary:
    'The active loan: principal, amount due with its parts, due date and days left (repaymentInvoice.dueDays); null when none',
  tags: ['loan'],
  access: 'client',
  singleLink: true,
  response: activeLoanSchema,
})

// ---------------------------------------------------------------------------------------------------------
// The back office's review

export const decideApplication = defineContract({
  method: 'put',
  path: '/private/back-office/application/:id/decision',
  summary:
    'Back office: approve or reject an application in manual verification (14) or decision error (401); an approval above the configured amount (config review.fourEyesAboveCentavos) needs two different underwriters: the first is recorded and the application stays in the queue, the second completes it',
  tags: ['back-office'],
  access: 'user',
  permission: 'applications.decide',
  params: idParams,
  body: backOfficeDecisionSchema,
  response: applicationSchema,
})

export const getReviewQueue = defineContract({
  method: 'get',
  path: '/private/back-office/review-queue',
  summary:
    "Back office: applications waiting for a person (manual verification 14, decision error 401), oldest first, with the latest decision's rules and reasons, who works on each and any first signature of a four-eyes approval; filtered by kind (manual, error, second), assignee (anyone, me, unassigned), amount (centavos) and the Manila day it was received",
  tags: ['back-office'],
  access: 'user',
  permission: 'applications.read',
  paginated: true,
  query: v.pipe(
    v.object({ ...pagingQuery(50, 200), ...reviewFilterEntries }),
    v.check(
      (f) => f.minAmount === undefined || f.maxAmount === undefined || f.minAmount <= f.maxAmount,
      'The lowest amount must not be above the highest.',
    ),
    v.check((f) => !f.from || !f.to || f.from <= f.to, 'The first day must not be after the last.'),
  ),
  response: v.array(reviewQueueItemSchema),
})

export const assignApplication = defineContract({
  method: 'post',
  path: '/private/back-office/application/:id/assign',
  summary:
    'Back office: take an application of the review queue (no userId), release it (userId null), or give it to a named user (administrators only)',
  tags: ['back-office'],
  access: 'user',
  permission: 'applications.assign',
  params: idParams,
  body: assignBodySchema,
  response: reviewQueueItemSchema,
})
