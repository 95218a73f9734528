/**
 * Payout (spec section 7): the client's payout accounts (disbursement entries), choosing one, checking a bank
 * account number, and PUT /finish, which ends registration once one is chosen. After registration a change of
 * payout account needs the SMS code of POST /disbursement-type/send-code (issue 13, item 9;
 * docs/decisions/0012).
 */
import * as v from 'valibot'
import { messageKeys } from '../identity'
import { idString } from '../ids'
import { ibanValidateSchema, payoutSchema, payoutTypes } from '../journey/fields'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import { flowSchema, stepAnswerSchema } from './journey-answers'
import { pagingQuery } from './reference'

/** Payout accounts a client may keep: enough for every kind twice over, and a bound on what one client stores. */
export const MAX_PAYOUT_ACCOUNTS = 10

/** One payout account; `bankName` is the bank's or e-wallet's name, or the pickup partner's. */
export const disbursementEntrySchema = v.object({
  id: v.number(),
  type: v.picklist(payoutTypes),
  bankId: v.nullable(v.number()),
  bankName: v.nullable(v.string()),
  accountNumber: v.nullable(v.string()),
  provider: v.nullable(v.string()),
  selected: v.boolean(),
})
export type DisbursementEntry = v.InferOutput<typeof disbursementEntrySchema>

/** The SMS code that confirms a change of payout account after registration; none is needed before. */
const codeBody = v.object({
  code: v.optional(v.pipe(safeString(), v.regex(/^\d{3}$/, messageKeys.verificationCode))),
})

export const listDisbursements = defineContract({
  method: 'get',
  path: '/private/client/disbursement-type',
  summary: "The client's payout accounts (bank transfer, e-wallet, cash card, cash pickup); one is selected",
  tags: ['payout'],
  access: 'client',
  paginated: true,
  query: v.object(pagingQuery(MAX_PAYOUT_ACCOUNTS, 50)),
  response: v.array(disbursementEntrySchema),
})

export const addDisbursement = defineContract({
  method: 'post',
  path: '/private/client/disbursement-type',
  summary:
    'Add a payout account and select it (during disbursement_type; after registration with `code`, the SMS code of POST /disbursement-type/send-code)',
  tags: ['payout'],
  access: 'client',
  body: v.intersect([payoutSchema, codeBody]),
  response: v.object({ entry: disbursementEntrySchema, flow: flowSchema }),
})

export const sendPayoutCode = defineContract({
  method: 'post',
  path: '/private/client/disbursement-type/send-code',
  summary:
    'After registration: sends the SMS code that confirms adding or selecting a payout account (one a minute; nextCodeAt for the countdown)',
  tags: ['payout'],
  access: 'client',
  response: v.object({ sent: v.literal(true), nextCodeAt: v.string(), codeExpiresAt: v.string() }),
})

export const selectDisbursement = defineContract({
  method: 'put',
  path: '/private/client/disbursement-type/select/:id',
  summary:
    'Select one of the client payout accounts (after registration with `code`, the SMS code of POST /disbursement-type/send-code)',
  tags: ['payout'],
  access: 'client',
  params: v.object({ id: idString() }),
  body: codeBody,
  response: v.object({ entries: v.array(disbursementEntrySchema), flow: flowSchema }),
})

export const validateIban = defineContract({
  method: 'put',
  path: '/private/client/iban/validate',
  summary: 'Check a bank account number (10 to 18 digits, not already saved by this client)',
  tags: ['payout'],
  access: 'client',
  body: ibanValidateSchema,
  response: v.object({ valid: v.literal(true), iban: v.string() }),
})

export const finishRegistration = defineContract({
  method: 'put',
  path: '/private/client/finish',
  summary:
    'Finish registration (disbursement_type -> no_loan_page) once a payout account is selected; after a failed payout, retry it to the account selected now',
  tags: ['journey'],
  access: 'client',
  response: stepAnswerSchema,
})
