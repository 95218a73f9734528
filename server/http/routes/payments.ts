/**
 * Getting paid back (issue 16): the client's payment intention, statement and payment history; the sandbox clock;
 * the back office's payments and loan actions. Implements the contracts of domain/contract/payments.ts (the
 * gateway's webhook and the sandbox checkout are in payment-gateway.ts). docs/decisions/0024.
 */
import * as payments from '../../../domain/contract/payments'
import { proposeReversal } from '../../services/approvals/servicing-actions'
import { approvalView } from '../../services/approvals/store'
import {
  assignToLoan,
  loanAction,
  loanStateView,
  paymentById,
  paymentsPage,
  postManually,
} from '../../services/payments/back-office'
import { assertClockMovable } from '../../services/payments/clock'
import { createIntention } from '../../services/payments/intention'
import { afterPosting } from '../../services/payments/jobs'
import { moveClock } from '../../services/payments/servicing'
import { renderStatement } from '../../services/payments/statement-pdf'
import { clientPayments, ownLoan, statementOf } from '../../services/payments/views'
import { binary, ok, okPage } from '../envelope'
import { clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const paymentRoutes: AnyRoute[] = [
  implement(payments.createPaymentIntention, async (c, { body }) =>
    ok(c, await createIntention(deps(c), clientIdOf(c), body), 201),
  ),

  implement(payments.getLoanStatement, async (c, { params }) => {
    const row = await ownLoan(db(c), clientIdOf(c), params.id)
    return ok(c, await statementOf(db(c), row, deps(c).now()))
  }),

  implement(payments.downloadLoanStatement, async (c, { params }) => {
    const row = await ownLoan(db(c), clientIdOf(c), params.id)
    const now = deps(c).now()
    const statement = await statementOf(db(c), row, now)
    const pdf = await renderStatement(statement, now)
    return binary(c, pdf as Uint8Array<ArrayBuffer>, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="statement-${statement.loanNumber}.pdf"`,
      'cache-control': 'no-store',
    })
  }),

  implement(payments.listClientPayments, async (c, { query }) => {
    const { items, total } = await clientPayments(db(c), clientIdOf(c), query.page, query.perPage)
    return okPage(c, items, { ...query, total })
  }),

  implement(payments.moveSandboxClock, async (c, { body }) => {
    assertClockMovable(deps(c))
    return ok(c, await moveClock(deps(c), body))
  }),

  implement(payments.listPayments, async (c, { query }) => {
    const { items, total } = await paymentsPage(db(c), query)
    return okPage(c, items, { ...query, total })
  }),

  implement(payments.postManualPayment, async (c, { body }) => {
    const { paymentId, outcome } = await postManually(deps(c), clientIdOf(c), body)
    if (outcome === 'posted') await afterPosting(deps(c), paymentId)
    return ok(c, await paymentById(db(c), paymentId), outcome === 'duplicate' ? 200 : 201)
  }),

  implement(payments.assignPayment, async (c, { params, body }) => {
    await assignToLoan(deps(c), clientIdOf(c), params.id, body.loanId, body.reason)
    await afterPosting(deps(c), params.id)
    return ok(c, await paymentById(db(c), params.id))
  }),

  // Maker-checker (issue 19 item 5): 202 with the proposal; another user's approval reverses.
  implement(payments.reversePayment, async (c, { params, body }) => {
    const proposal = await proposeReversal(db(c), clientIdOf(c), {
      paymentId: params.id,
      reason: body.reason,
    })
    return ok(c, (await approvalView(db(c), proposal.id))!, 202)
  }),

  ...(['hold', 'release', 'cancel'] as const).map((action) =>
    implement(
      { hold: payments.holdLoan, release: payments.releaseLoan, cancel: payments.cancelLoan }[action],
      async (c, { params, body }) => {
        await loanAction(deps(c), clientIdOf(c), params.id, action, body.reason)
        return ok(c, await loanStateView(db(c), params.id))
      },
    ),
  ),
]
