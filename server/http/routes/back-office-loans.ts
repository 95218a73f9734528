/**
 * The back office's actions on one loan (issue 19 item 5): implements domain/contract/back-office-loans.ts.
 * An extension on the client's behalf sends and checks the client's own signing code here, as the client's
 * routes do (servicing.ts): the code goes to the client's phone, never to the agent; the agent types what the
 * client reads out. docs/decisions/0037-back-office-loan-actions.md.
 */
import * as loans from '../../../domain/contract/back-office-loans'
import {
  assertSignable,
  chooseOnBehalf,
  extensionOptions,
  loanClient,
  loanRefunds,
  refundCredit,
  signOnBehalf,
} from '../../services/back-office/loan-actions'
import { clientAccount } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { prepareExtensionSignature } from '../../services/servicing/extensions'
import { deliverCode } from '../code-delivery'
import { ok } from '../envelope'
import { callerOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const backOfficeLoanRoutes: AnyRoute[] = [
  implement(loans.getLoanExtensionOptions, async (c, { params }) =>
    ok(c, await extensionOptions(deps(c), params.id)),
  ),

  implement(loans.chooseExtensionOnBehalf, async (c, { params, body }) => {
    const owner = await loanClient(db(c), params.id)
    const chosen = await chooseOnBehalf(deps(c), params.id, body.type, callerOf(c))
    // Outside the loan's transaction: rendering the PDFs and the SMS must not hold the loan's lock.
    const documents = await prepareExtensionSignature(
      deps(c),
      owner.clientId,
      params.id,
      chosen.rollover.id,
      chosen.applicationId,
    )
    // The client's own limits apply (a minute between codes, a day's budget): a 429 when reached.
    const sent = await deliverCode(c, {
      purpose: 'amendment',
      channel: 'sms',
      target: owner.phone,
      owner: clientAccount(owner.clientId),
    })
    return ok(c, {
      sent: true as const,
      nextCodeAt: sent.nextCodeAt.toISOString(),
      codeExpiresAt: sent.expiresAt.toISOString(),
      rollover: chosen.rollover,
      applicationId: chosen.applicationId,
      documents,
    })
  }),

  implement(loans.signExtensionOnBehalf, async (c, { params, body }) => {
    const owner = await loanClient(db(c), params.id)
    await assertSignable(db(c), params.id, params.rid)
    const { secrets, now } = deps(c)
    assertCode(
      await checkCode(
        db(c),
        secrets.codeKey,
        'amendment',
        owner.phone,
        body.code,
        now(),
        clientAccount(owner.clientId),
      ),
    )
    return ok(c, await signOnBehalf(deps(c), params.id, params.rid, callerOf(c)))
  }),

  implement(loans.getLoanRefunds, async (c, { params }) => ok(c, await loanRefunds(db(c), params.id))),

  implement(loans.refundLoanCredit, async (c, { params }) =>
    ok(c, await refundCredit(deps(c), params.id, callerOf(c)), 202),
  ),
]
