/**
 * The back office's actions on one loan (issue 19 item 5; docs/decisions/0037-back-office-loan-actions.md):
 * an extension taken on the client's behalf during a recorded call, and the refund of a loan's credit.
 *
 * An extension on behalf is still the client's own consent (RA 8792): staff choose one of the options the client
 * is offered today; the server prepares the amendment documents and sends the signing code to the client's phone
 * exactly as the client's own flow does; the client reads the code out and the agent enters it. The extension
 * then waits for its fee like any other. A refund queues the loan's credit for the payout account the client
 * selected, through the same refund the automatic posting queues.
 */
import * as v from 'valibot'
import { idString } from '../ids'
import { extensionTypes } from '../loan/servicing-config'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import { codeSentSchema } from './identity-answers'
import { amendmentDocumentSchema, rolloverApplicationSchema, rolloverSchema } from './servicing-answers'

// ---------------------------------------------------------------------------------------------------------
// Forms (the admin screen's form uses the same schemas)

export const extensionTypeSchema = v.picklist(
  extensionTypes,
  `The type is one of ${extensionTypes.join(', ')}.`,
)

/** The three digits the client reads out to the agent. */
export const signingCodeSchema = v.pipe(
  safeString('Enter the code the client reads out.'),
  v.trim(),
  v.regex(/^\d{3}$/, 'The code is the 3 digits the client received by SMS.'),
)

export const chooseExtensionBody = v.object({ type: extensionTypeSchema })
export const signExtensionBody = v.object({ code: signingCodeSchema })

// ---------------------------------------------------------------------------------------------------------
// Answers

/** Why a loan cannot be extended on the client's behalf now (null when it can). */
export const loanActionRefusalSchema = v.nullable(v.object({ code: v.string(), message: v.string() }))

export const backOfficeExtensionsSchema = v.object({
  loanId: v.number(),
  clientId: v.number(),
  /** The loan's state (active, on_hold, paid...). */
  state: v.string(),
  dueDate: v.string(),
  /** Whether an extension may be chosen on the client's behalf now; when not, `refusal` says why. */
  extendable: v.boolean(),
  refusal: loanActionRefusalSchema,
  /** The client's rollovers as the client's own screen shows them (drafts priced live, chosen, past). */
  options: v.array(rolloverSchema),
})
export type BackOfficeExtensions = v.InferOutput<typeof backOfficeExtensionsSchema>

export const extensionChosenSchema = v.object({
  ...codeSentSchema.entries,
  rollover: rolloverSchema,
  applicationId: v.number(),
  documents: v.array(amendmentDocumentSchema),
})
export type ExtensionChosen = v.InferOutput<typeof extensionChosenSchema>

export const refundStatuses = ['queued', 'sending', 'succeeded', 'failed'] as const

export const creditRefundSchema = v.object({
  id: v.number(),
  loanId: v.number(),
  /** Centavos: the credit when queued, the amount sent once sending. */
  amount: v.number(),
  status: v.picklist(refundStatuses),
  failureReason: v.nullable(v.string()),
  providerRef: v.nullable(v.string()),
  createdAt: v.string(),
  completedAt: v.nullable(v.string()),
})
export type CreditRefund = v.InferOutput<typeof creditRefundSchema>

export const loanRefundsSchema = v.object({
  loanId: v.number(),
  clientId: v.number(),
  state: v.string(),
  /** The loan's credit now, centavos. */
  credit: v.number(),
  /** Whether a refund may be queued now; when not, `refusal` says why. */
  refundable: v.boolean(),
  refusal: loanActionRefusalSchema,
  /** Newest first. */
  refunds: v.array(creditRefundSchema),
})
export type LoanRefunds = v.InferOutput<typeof loanRefundsSchema>

// ---------------------------------------------------------------------------------------------------------
// Contracts

const loanParams = v.object({ id: idString() })

export const getLoanExtensionOptions = defineContract({
  method: 'get',
  path: '/private/back-office/loans/:id/extensions',
  summary:
    "The extension options the client is offered today for this loan (the client's own rollovers), and whether one may be chosen on the client's behalf now",
  tags: ['back-office'],
  access: 'user',
  permission: 'loans.read',
  params: loanParams,
  response: backOfficeExtensionsSchema,
})

export const chooseExtensionOnBehalf = defineContract({
  method: 'post',
  path: '/private/back-office/loans/:id/extensions',
  summary:
    "On a recorded call, choose an extension on the client's behalf: the amendment documents are prepared and the signing code is sent to the client's phone as in the client's own flow (asking again sends a new code); refused (409) when the loan is not active, an extension is already signed and waiting for its fee, or none is available",
  tags: ['back-office'],
  access: 'user',
  permission: 'loans.extend',
  params: loanParams,
  body: chooseExtensionBody,
  response: extensionChosenSchema,
})

export const signExtensionOnBehalf = defineContract({
  method: 'post',
  path: '/private/back-office/loans/:id/extensions/:rid/signature',
  summary:
    "Sign the chosen extension with the code the client received and read out (the client's e-signature, RA 8792); the fee is then payable and the extension takes effect when it is paid",
  tags: ['back-office'],
  access: 'user',
  permission: 'loans.extend',
  params: v.object({ id: idString(), rid: idString() }),
  body: signExtensionBody,
  response: rolloverApplicationSchema,
})

export const getLoanRefunds = defineContract({
  method: 'get',
  path: '/private/back-office/loans/:id/refunds',
  summary:
    "A loan's credit now and its refunds to the client's payout account, newest first, with their status",
  tags: ['back-office'],
  access: 'user',
  permission: 'payments.read',
  params: loanParams,
  response: loanRefundsSchema,
})

export const refundLoanCredit = defineContract({
  method: 'post',
  path: '/private/back-office/loans/:id/refunds',
  summary:
    "Refund the loan's credit to the client's selected payout account (202, queued; the servicing worker sends it); refused (409) when there is no credit, a refund is already queued or sending, the loan is not paid, or the client has no payout account. Retries a failed refund",
  tags: ['back-office'],
  access: 'user',
  permission: 'payments.refund',
  params: loanParams,
  response: creditRefundSchema,
})
