/**
 * Extensions (rollovers) and payment schedules (issue 17; spec sections 3 Loan and Payment schedule, 4 rollover
 * availability and Overdue, 7 Loan calls). docs/decisions/0025-extensions-and-payment-schedules.md.
 *
 * The sign calls follow the loan agreement's (lending.ts `signAgreement`): without a code they render the
 * documents and send the signing code by SMS; with the code they sign.
 *
 * Note the spec's two signs of `dueDays`: an instalment's counts the days PAST its due date (an unpaid one is
 * overdue above 0), the loan's `repaymentInvoice.dueDays` the days LEFT (overdue below 0).
 */
import * as v from 'valibot'
import { idString } from '../ids'
import { extensionTypes } from '../loan/servicing-config'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import { codeSentSchema } from './identity-answers'
import {
  amendmentDocumentSchema,
  paymentScheduleSchema,
  rolloverApplicationSchema,
  rolloverSchema,
  scheduleOfferSchema,
} from './servicing-answers'

const codeBody = v.object({
  code: v.optional(v.pipe(safeString(), v.regex(/^\d{3}$/, 'error-verification-code'))),
})

export const chooseRollover = defineContract({
  method: 'put',
  path: '/private/client/loan/active/rollover',
  summary:
    "Choose an extension of the active loan: its invoice becomes unpaid at today's fee (a choice of the other type goes back to draft); refused (409) with the reason when a cap, maxCount or the window does not allow it",
  tags: ['loan'],
  access: 'client',
  body: v.object({
    type: v.picklist(extensionTypes, `The type is one of ${extensionTypes.join(', ')}.`),
  }),
  response: rolloverSchema,
})

export const createRolloverApplication = defineContract({
  method: 'post',
  path: '/private/client/loan/:id/rollover/:rid/application',
  summary:
    'The extension application of a chosen extension (one per extension: asking again answers the same one)',
  tags: ['loan'],
  access: 'client',
  params: v.object({ id: idString(), rid: idString() }),
  response: rolloverApplicationSchema,
})

export const signRolloverDocument = defineContract({
  method: 'post',
  path: '/private/client/loan/:loanId/rollover/:rid/application/:appId/document',
  summary:
    'The extension agreement and its Truth-in-Lending disclosure: without a code, renders both as PDF and sends the signing code by SMS; with the code, signs them (the fee is then payable)',
  tags: ['loan', 'documents'],
  access: 'client',
  params: v.object({ loanId: idString(), rid: idString(), appId: idString() }),
  body: codeBody,
  response: v.union([
    v.object({ ...codeSentSchema.entries, documents: v.array(amendmentDocumentSchema) }),
    rolloverApplicationSchema,
  ]),
})

export const getPaymentSchedule = defineContract({
  method: 'get',
  path: '/private/client/loan/active/payment-schedule',
  summary:
    "The active loan's payment schedule in force, with each payment's status and dueDays (days past its due date); null when there is none",
  tags: ['loan'],
  access: 'client',
  singleLink: true,
  response: v.nullable(paymentScheduleSchema),
})

export const getScheduleOffer = defineContract({
  method: 'get',
  path: '/private/client/loan/active/payment-schedule/special-offer/submit/:id',
  summary:
    'A payment-schedule special offer as it would be agreed today: the instalments, the interest, the decision and the documents',
  tags: ['loan'],
  access: 'client',
  params: v.object({ id: idString() }),
  response: scheduleOfferSchema,
})

export const submitScheduleOffer = defineContract({
  method: 'post',
  path: '/private/client/loan/active/payment-schedule/special-offer/submit/:id',
  summary:
    'Accept a payment-schedule special offer: without a code, renders the amendment and its disclosure and sends the signing code by SMS; with the code, signs them and puts the loan on the schedule',
  tags: ['loan', 'documents'],
  access: 'client',
  params: v.object({ id: idString() }),
  body: codeBody,
  response: v.union([
    v.object({ ...codeSentSchema.entries, documents: v.array(amendmentDocumentSchema) }),
    paymentScheduleSchema,
  ]),
})

export const downloadAmendmentDocument = defineContract({
  method: 'get',
  path: '/private/client/loan/:id/amendment-document/:docId/download',
  summary: 'An extension or schedule document of one of the client’s loans, as a PDF',
  tags: ['loan', 'documents'],
  access: 'client',
  params: v.object({ id: idString(), docId: idString() }),
  answer: 'binary',
})
