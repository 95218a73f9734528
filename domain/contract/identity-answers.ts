/**
 * What the identity calls answer, apart from their contracts in identity.ts: pages parse or read these in the browser,
 * and a module is bundled whole, so a page that only makes a call does not carry them (ADR 0023).
 */
import * as v from 'valibot'
import { additionalLoanFactsSchema } from '../loan/additional-loan'
/** The Client of spec section 3, as GET /private/client answers it and every call that changes it. */
export const clientViewSchema = v.object({
  id: v.number(),
  uuid: v.string(),
  /** The same id, under the name the analytics scripts read. */
  userID: v.number(),
  hashedUserId: v.string(),
  firstName: v.nullable(v.string()),
  email: v.string(),
  /** Spec section 4 status codes: 1 active, 2 blocked, 3 blacklisted, 4 verification, 5 bank account select. */
  status: v.number(),
  phoneVerified: v.boolean(),
  emailVerified: v.boolean(),
  /**
   * Centavos the client may borrow now: the limit from the repayment history less the principal owed on open
   * loans (domain/loan/limits.ts, ADR 0030); 0 with two loans open or after a sold or written-off debt.
   */
  availableLoanAmount: v.object({ amount: v.number() }),
  closedLoansCount: v.number(),
  hasActiveLoan: v.boolean(),
  hasActualApplication: v.boolean(),
  hasActiveRefinancing: v.boolean(),
  soldDebt: v.boolean(),
  /**
   * The client's own sandbox mode, switched on by an administrator (domain/contract/sandbox-mode.ts): the client is
   * in sandbox mode while logged in. Always false on a production server without the sandbox switch.
   */
  sandbox: v.boolean(),
  /** What the additional-loan rule needs (domain/loan/additional-loan.ts); the calculator adds its own max. */
  additionalLoan: v.optional(additionalLoanFactsSchema),
  info: v.object({ mobilePhone: v.object({ number: v.string() }) }),
})
export type ClientView = v.InferOutput<typeof clientViewSchema>

/** A code went out (or, for a target nobody owns, was issued and sent nowhere: the answer is the same). */
export const codeSentSchema = v.object({
  sent: v.literal(true),
  /** When another code may be asked for. */
  nextCodeAt: v.string(),
  /** When this code stops working. */
  codeExpiresAt: v.string(),
})
export type CodeSentAnswer = v.InferOutput<typeof codeSentSchema>

/** The older phone-code calls answer only that the code went out; their `-ts` twins add the timing. */
export const sentOnlySchema = v.object({ sent: v.literal(true) })

export const clientChangedSchema = v.object({ client: clientViewSchema })
export const verifiedSchema = v.object({ verified: v.literal(true), client: clientViewSchema })

/** A login that needs no second factor answers the client; a risky one says when the SMS code may be resent. */
export const clientLoginAnswerSchema = v.variant('mfa', [
  v.object({ mfa: v.literal(false), client: clientViewSchema }),
  v.object({ mfa: v.literal(true), client: v.null(), nextCodeAt: v.nullable(v.string()) }),
])
