/**
 * Getting paid back (issue 16; spec sections 2 Repayment and Profile, 3 Loan, 7 Loan "payment-intention"):
 * the client's payment intention, statement and payment history, the gateways' webhook, the sandbox gateway's
 * checkout, the sandbox clock and payments QA drives, and the back office's payments.
 * docs/decisions/0024-ledger-payments-and-allocation.md. Money is integer centavos.
 */
import * as v from 'valibot'
import { idNumber, idString } from '../ids'
import { ledgerKinds, ledgerParts } from '../loan/ledger'
import { paymentChannelCodes } from '../payments/channels'
import { calendarDaySchema, safeString } from '../safe-text'
import { approvalSchema } from './approvals'
import { defineContract } from './define'
import { pagingQuery } from './reference'

const centavos = v.pipe(
  v.number('The amount must be a number of centavos.'),
  v.integer('The amount must be a whole number of centavos.'),
  v.minValue(1, 'The amount must be positive.'),
  v.maxValue(100_000_000_00, 'The amount is too large.'),
)
const channelSchema = v.picklist(
  paymentChannelCodes,
  `The channel is one of ${paymentChannelCodes.join(', ')}.`,
)
const reason = v.pipe(
  safeString(),
  v.trim(),
  v.minLength(3, 'Give a reason of at least 3 characters.'),
  v.maxLength(500, 'At most 500 characters.'),
)
/** A reference as a payer may type it: digits, spaces and dashes. */
const referenceInput = v.pipe(
  safeString(),
  v.trim(),
  v.regex(/^[0-9 -]{1,32}$/, 'A payment reference is digits (spaces and dashes allowed).'),
)
const isoDate = calendarDaySchema()

export const paymentPurposes = ['full_repayment', 'custom_amount', 'extension_fee', 'instalment'] as const
export type PaymentPurpose = (typeof paymentPurposes)[number]

// ---------------------------------------------------------------------------------------------------------
// Answers

export const channelInstructionsSchema = v.object({
  code: v.picklist(paymentChannelCodes),
  name: v.string(),
  kind: v.string(),
  posting: v.string(),
  /** With the client's reference, amount and virtual account filled in. */
  steps: v.array(v.string()),
})

export const paymentIntentionSchema = v.object({
  id: v.number(),
  purpose: v.picklist(paymentPurposes),
  loanId: v.number(),
  amount: v.number(),
  reference: v.string(),
  virtualAccount: v.string(),
  channel: v.nullable(v.picklist(paymentChannelCodes)),
  instructions: v.nullable(channelInstructionsSchema),
  /** E-wallets: the gateway's checkout page. */
  checkoutUrl: v.nullable(v.string()),
  /** A pay-in-full quote holds until 23:59 Manila of the day it was made. */
  expiresAt: v.string(),
  status: v.string(),
})
export type PaymentIntention = v.InferOutput<typeof paymentIntentionSchema>

export const paymentViewSchema = v.object({
  id: v.number(),
  amount: v.number(),
  channel: v.string(),
  status: v.picklist(['posted', 'unmatched', 'reversed']),
  paidAt: v.string(),
  postedAt: v.nullable(v.string()),
  /** How it was applied (posted payments): centavos by part, and the credit it left. */
  allocation: v.object({
    penalties: v.number(),
    fees: v.number(),
    interest: v.number(),
    principal: v.number(),
    credit: v.number(),
  }),
})
export type PaymentView = v.InferOutput<typeof paymentViewSchema>

export const balancesSchema = v.object({
  principal: v.number(),
  interest: v.number(),
  fees: v.number(),
  penalties: v.number(),
  credit: v.number(),
})

export const statementSchema = v.object({
  loanId: v.number(),
  loanNumber: v.string(),
  paymentReference: v.string(),
  status: v.number(),
  state: v.string(),
  principal: v.number(),
  startDate: v.nullable(v.string()),
  dueDate: v.string(),
  /** Manila's business day the statement was made on. */
  asOf: v.string(),
  entries: v.array(
    v.object({
      id: v.number(),
      date: v.string(),
      kind: v.picklist(ledgerKinds),
      part: v.picklist(ledgerParts),
      amount: v.number(),
      memo: v.nullable(v.string()),
      paymentId: v.nullable(v.number()),
      /** What the client owed after this entry (receivable parts), and the credit held. */
      outstandingAfter: v.number(),
      creditAfter: v.number(),
    }),
  ),
  balances: balancesSchema,
  /** Today's payoff: the balances plus interest accrued up to today not yet booked. */
  payoff: v.number(),
})
export type Statement = v.InferOutput<typeof statementSchema>

export const clockSchema = v.object({
  /** Real time, UTC. */
  now: v.string(),
  instanceOffsetDays: v.number(),
  clientOffsetDays: v.nullable(v.number()),
  /** The business day (Manila) for the instance, and for the client when one was named. */
  today: v.string(),
  clientToday: v.nullable(v.string()),
  /** Servicing days run on the way. */
  daysRun: v.number(),
})

export const backOfficePaymentSchema = v.object({
  id: v.number(),
  provider: v.string(),
  providerPaymentId: v.string(),
  reference: v.string(),
  channel: v.string(),
  amount: v.number(),
  status: v.picklist(['posted', 'unmatched', 'reversed']),
  source: v.string(),
  loanId: v.nullable(v.number()),
  loanNumber: v.nullable(v.string()),
  clientId: v.nullable(v.number()),
  paidAt: v.string(),
  receivedAt: v.string(),
  postedAt: v.nullable(v.string()),
  postedBy: v.nullable(v.number()),
  reversedAt: v.nullable(v.string()),
  reversedBy: v.nullable(v.number()),
  reversalReason: v.nullable(v.string()),
  note: v.nullable(v.string()),
})
export type BackOfficePayment = v.InferOutput<typeof backOfficePaymentSchema>

export const checkoutSchema = v.object({
  id: v.string(),
  merchant: v.string(),
  amount: v.number(),
  reference: v.string(),
  channel: v.string(),
  channelName: v.string(),
  status: v.picklist(['pending', 'paid', 'failed', 'expired']),
  /** Where the payer goes back to (a path of this site). */
  returnPath: v.string(),
})
export type Checkout = v.InferOutput<typeof checkoutSchema>

// ---------------------------------------------------------------------------------------------------------
// The client

export const createPaymentIntention = defineContract({
  method: 'post',
  path: '/private/client/payment-intention',
  summary:
    "Say how much the client will pay, for what and how: answers the amount (today's payoff for full_repayment, until 23:59 Manila), the payment reference, the channel's steps and, for e-wallets, the gateway's checkout",
  tags: ['loan'],
  access: 'client',
  singleLink: true,
  body: v.object({
    purpose: v.picklist(paymentPurposes, `The purpose is one of ${paymentPurposes.join(', ')}.`),
    amount: v.optional(centavos),
    channel: v.optional(channelSchema),
  }),
  response: paymentIntentionSchema,
})

export const getLoanStatement = defineContract({
  method: 'get',
  path: '/private/client/loan/:id/statement',
  summary:
    'The statement of account of one of the client’s loans: every ledger entry with the balance after it',
  tags: ['loan'],
  access: 'client',
  singleLink: true,
  params: v.object({ id: idString() }),
  response: statementSchema,
})

export const downloadLoanStatement = defineContract({
  method: 'get',
  path: '/private/client/loan/:id/statement/download',
  summary: 'The statement of account as a PDF',
  tags: ['loan'],
  access: 'client',
  singleLink: true,
  params: v.object({ id: idString() }),
  answer: 'binary',
})

const clientPayments = defineContract({
  method: 'get',
  path: '/private/client/payments',
  summary: "The client's payments, newest first, with how each was applied (x-* pagination headers)",
  tags: ['loan'],
  access: 'client',
  singleLink: true,
  paginated: true,
  query: v.object(pagingQuery(20, 100)),
  response: v.array(paymentViewSchema),
})
export const listClientPayments = clientPayments as typeof clientPayments & { paginated: true }

// ---------------------------------------------------------------------------------------------------------
// Gateways

/** A sandbox gateway event (PayMongo/Xendit-like). Real providers get their own body schemas. */
export const gatewayEventSchema = v.object({
  id: v.pipe(
    safeString(),
    v.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'An event id is 1 to 128 letters, digits or _ . : -.'),
  ),
  type: v.picklist(['payment.paid', 'payment.failed', 'payment.expired'], 'Unknown event type.'),
  createdAt: v.pipe(safeString(), v.isoTimestamp('An ISO timestamp.')),
  data: v.object({
    paymentId: v.pipe(
      safeString(),
      v.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'A payment id is 1 to 128 letters, digits or _ . : -.'),
    ),
    reference: referenceInput,
    amount: centavos,
    currency: v.literal('PHP', 'The currency is PHP.'),
    channel: channelSchema,
    paidAt: v.optional(v.pipe(safeString(), v.isoTimestamp('An ISO timestamp.'))),
  }),
})
export type GatewayEvent = v.InferOutput<typeof gatewayEventSchema>

export const gatewayWebhook = defineContract({
  method: 'post',
  path: '/public/payments/webhook/:provider',
  summary:
    'A payment gateway reports a payment (paid, failed, expired). Signed: sandbox header Hiram-Signature "t=<unix seconds>,v1=<hex HMAC-SHA256 of t.rawBody>", 5-minute window; 401 without a valid signature. The same event id posts once.',
  tags: ['payments'],
  access: 'public',
  params: v.object({ provider: v.picklist(['sandbox'], 'Unknown payment provider.') }),
  bodyType: 'raw',
  body: gatewayEventSchema,
  response: v.object({ received: v.literal(true), outcome: v.string() }),
})

export const getSandboxCheckout = defineContract({
  method: 'get',
  path: '/public/sandbox/checkout/:id',
  summary: "Sandbox gateway: a checkout page's charge (the e-wallet payment a client was sent to)",
  tags: ['sandbox'],
  access: 'public',
  params: v.object({ id: v.pipe(safeString(), v.regex(/^chg_[A-Za-z0-9]{8,40}$/, 'Not a checkout id.')) }),
  response: checkoutSchema,
})

export const completeSandboxCheckout = defineContract({
  method: 'post',
  path: '/public/sandbox/checkout/:id',
  summary: 'Sandbox gateway: the payer presses Pay or Fail; the gateway then sends its signed webhook',
  tags: ['sandbox'],
  access: 'public',
  params: v.object({ id: v.pipe(safeString(), v.regex(/^chg_[A-Za-z0-9]{8,40}$/, 'Not a checkout id.')) }),
  body: v.object({ outcome: v.picklist(['pay', 'fail'], 'The outcome is pay or fail.') }),
  response: checkoutSchema,
})

// ---------------------------------------------------------------------------------------------------------
// The sandbox, for QA and tests (absent in production)

export const moveSandboxClock = defineContract({
  method: 'post',
  path: '/private/back-office/sandbox/clock',
  summary:
    'Sandbox: move the business clock forward by whole days, for the instance or one client; runs every servicing day skipped, then answers',
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  body: v.object({
    days: v.pipe(
      v.number('Days must be a number.'),
      v.integer('Days must be whole.'),
      v.minValue(0, 'The clock never goes back.'),
      v.maxValue(400, 'At most 400 days at a time.'),
    ),
    clientId: v.optional(idNumber()),
  }),
  response: clockSchema,
})

export const sendSandboxPayment = defineContract({
  method: 'post',
  path: '/private/back-office/sandbox/payments',
  summary:
    'Sandbox: make a payment arrive at a channel; the sandbox gateway sends its signed webhook to our endpoint (retried with backoff)',
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  body: v.object({ reference: referenceInput, amount: centavos, channel: channelSchema }),
  response: v.object({
    chargeId: v.string(),
    eventId: v.string(),
    delivered: v.boolean(),
    status: v.nullable(v.number()),
  }),
})

// ---------------------------------------------------------------------------------------------------------
// The back office

const paymentsList = defineContract({
  method: 'get',
  path: '/private/back-office/payments',
  summary:
    'Payments, newest first, filtered by received date (Manila days), channel, status, reference (x-* pagination headers)',
  tags: ['back-office'],
  access: 'user',
  permission: 'payments.read',
  paginated: true,
  query: v.object({
    from: v.optional(isoDate),
    to: v.optional(isoDate),
    channel: v.optional(channelSchema),
    status: v.optional(v.picklist(['posted', 'unmatched', 'reversed'], 'posted, unmatched or reversed.')),
    reference: v.optional(referenceInput),
    ...pagingQuery(50, 200),
  }),
  response: v.array(backOfficePaymentSchema),
})
export const listPayments = paymentsList as typeof paymentsList & { paginated: true }

export const postManualPayment = defineContract({
  method: 'post',
  path: '/private/back-office/payments',
  summary:
    'Post a payment by hand (a deposit slip, a counter report): to the loan of the reference; the idempotency key makes a repeat post nothing',
  tags: ['back-office'],
  access: 'user',
  permission: 'payments.post',
  body: v.object({
    reference: referenceInput,
    amount: centavos,
    channel: channelSchema,
    idempotencyKey: v.pipe(
      safeString(),
      v.regex(/^[A-Za-z0-9_.:-]{8,128}$/, '8 to 128 letters, digits or _ . : -.'),
    ),
    note: v.optional(v.pipe(safeString(), v.maxLength(500, 'At most 500 characters.'))),
  }),
  response: backOfficePaymentSchema,
})

export const assignPayment = defineContract({
  method: 'post',
  path: '/private/back-office/payments/:id/assign',
  summary: 'Assign an unmatched payment to a loan by hand; it is then posted to it',
  tags: ['back-office'],
  access: 'user',
  permission: 'payments.post',
  params: v.object({ id: idString() }),
  body: v.object({ loanId: idNumber(), reason }),
  response: backOfficePaymentSchema,
})

export const reversePayment = defineContract({
  method: 'post',
  path: '/private/back-office/payments/:id/reversal',
  summary:
    'Propose reversing a posted payment with a reason (a chargeback, a bounced deposit; 202 with the proposal): once another user holding payments.reverse approves it (POST /approvals/{id}/approve), compensating entries are booked and a paid loan reopens',
  tags: ['back-office'],
  access: 'user',
  permission: 'payments.reverse',
  params: v.object({ id: idString() }),
  body: v.object({ reason }),
  /** The proposal, pending; its result, once approved, is the reversed payment. */
  response: approvalSchema,
})

const loanAction = (action: 'hold' | 'release' | 'cancel', summary: string) =>
  defineContract({
    method: 'post',
    path: `/private/back-office/loan/:id/${action}`,
    summary,
    tags: ['back-office'],
    access: 'user',
    permission: action === 'cancel' ? 'loans.cancel' : 'loans.hold',
    params: v.object({ id: idString() }),
    body: v.object({ reason }),
    response: v.object({ loanId: v.number(), state: v.string(), status: v.number() }),
  })

export const holdLoan = loanAction(
  'hold',
  'Put an active loan on hold (6): a dispute or suspected fraud; accrual stops',
)
export const releaseLoan = loanAction('release', 'Release a loan from hold: it is active again')
export const cancelLoan = loanAction(
  'cancel',
  'Cancel a signed loan whose money never left (draft, status 1): it becomes cancelled (2)',
)

export const reconcilePayments = defineContract({
  method: 'post',
  path: '/private/back-office/payments/reconcile',
  summary: "Compare the gateway's paid payments with our postings now and post what a lost webhook missed",
  tags: ['back-office'],
  access: 'user',
  permission: 'payments.post',
  response: v.object({ checked: v.number(), posted: v.number() }),
})
