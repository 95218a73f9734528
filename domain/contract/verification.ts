/**
 * Identity verification (Veriff-style, spec section 7) and bank data (Kontomatik-style). The server asks the
 * provider first and writes the outcome as a journey event after; linking a bank is optional, the client may
 * skip it (docs/decisions/0010).
 */
import * as v from 'valibot'
import { bankDataImportSchema } from '../journey/bank-data'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import { flowSchema, stepAnswerSchema } from './journey-answers'

export const verificationStatuses = ['created', 'approved', 'declined', 'resubmission_requested'] as const

/** A verification session: `url` is the provider's page for the check; `created` until a decision. */
export const verificationSessionSchema = v.object({
  id: v.string(),
  url: v.string(),
  status: v.picklist(verificationStatuses),
  reason: v.nullable(v.string()),
  createdAt: v.string(),
  decidedAt: v.nullable(v.string()),
})
export type VerificationSession = v.InferOutput<typeof verificationSessionSchema>

/** GET /kontomatik: the banks to link, the linked bank's code (or null), the failed logins and their limit. */
export const bankDataStateSchema = v.object({
  banks: v.array(v.object({ code: v.string(), name: v.string() })),
  bank: v.nullable(v.string()),
  failedLogins: v.number(),
  maxFailedLogins: v.number(),
})
export type BankDataState = v.InferOutput<typeof bankDataStateSchema>

export const startVerification = defineContract({
  method: 'post',
  path: '/private/client/veriff/session',
  summary: 'During veriff: open an identity-verification session (or answer the open one)',
  tags: ['verification'],
  access: 'client',
  response: verificationSessionSchema,
})

export const getVerificationSession = defineContract({
  method: 'get',
  path: '/private/client/veriff/session',
  summary: "The client's latest identity-verification session",
  tags: ['verification'],
  access: 'client',
  response: verificationSessionSchema,
})

export const getVerificationDecision = defineContract({
  method: 'get',
  path: '/private/client/veriff/decision/:id',
  summary:
    'The decision on a session: approved moves to kontomatik, declined to reject_page, resubmission stays',
  tags: ['verification'],
  access: 'client',
  params: v.object({ id: v.pipe(safeString(), v.uuid('Must be a session id.')) }),
  /** With the flow when this call decided the session (and so moved the journey). */
  response: v.object({ ...verificationSessionSchema.entries, flow: v.optional(flowSchema) }),
})

export const getBankData = defineContract({
  method: 'get',
  path: '/private/client/kontomatik',
  summary: 'Bank-data state: the banks to link, the linked bank, failed logins',
  tags: ['verification'],
  access: 'client',
  response: bankDataStateSchema,
})

export const importBankData = defineContract({
  method: 'post',
  path: '/private/client/kontomatik/import',
  summary: 'During kontomatik: sign in to a bank through the provider and import the accounts',
  tags: ['verification'],
  access: 'client',
  body: bankDataImportSchema,
  response: v.object({
    bank: v.string(),
    /** What the import brought back: the accounts and the 90-day inflow in centavos. */
    summary: v.object({ accounts: v.number(), inflow90d: v.number() }),
    flow: flowSchema,
  }),
})

export const skipBankData = defineContract({
  method: 'post',
  path: '/private/client/kontomatik/skip',
  summary: 'During kontomatik: continue without linking a bank (it is optional)',
  tags: ['verification'],
  access: 'client',
  response: stepAnswerSchema,
})
