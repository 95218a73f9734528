/**
 * Applications, offers, documents, signature and the active loan (spec section 7, Application, Loan, Documents;
 * docs/decisions/0012), implementing the contracts of domain/contract/lending.ts. Bodies are validated first
 * (400 with violations), then each change runs as one journey transaction in the lending services: a call that
 * does not fit the client's step is a 409 and writes nothing.
 */
import type { Context } from 'hono'
import * as lending from '../../../domain/contract/lending'
import { invalid, notFound } from '../../../domain/errors'
import { clientAccount } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { listDisbursements } from '../../services/journey/payout'
import {
  actualApplication,
  answerOffer,
  applicationOffer,
  applyPromo,
  cancelApplication,
  changeApplication,
  createApplication,
  documentsOf,
  documentsPage,
  ownApplication,
  viewOf,
} from '../../services/lending/applications'
import { backOfficeDecision } from '../../services/lending/decision'
import {
  documentView,
  latestDocument,
  payoutLabel,
  renderApplicationDocuments,
} from '../../services/lending/documents'
import { prepareSignature, signApplication } from '../../services/lending/payout'
import {
  assignReview,
  reviewConfig,
  reviewQueueItem,
  reviewQueuePage,
} from '../../services/lending/review-queue'
import { activeLoanView } from '../../services/payments/views'
import { deliverCode } from '../code-delivery'
import type { AppEnv } from '../context'
import { binary, ok, okPage, setHeader } from '../envelope'
import { okSlice } from '../paging'
import { callerOf, clientIdOf, currentClient, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

const IDEMPOTENCY = /^[A-Za-z0-9_.:-]{8,128}$/

function idempotencyKeyOf(c: Context<AppEnv>): string | null {
  const key = c.req.header('idempotency-key')
  if (key === undefined) return null
  if (!IDEMPOTENCY.test(key))
    throw invalid([
      { propertyPath: 'headers.Idempotency-Key', message: '8 to 128 letters, digits or _ . : - characters.' },
    ])
  return key
}

/** Accepting a lower offer (special offer 13 or yhat decrease 17): the same answer on either contract. */
function lowerOfferAnswer(
  contract: typeof lending.approveSpecialOffer | typeof lending.approveDecreasedOffer,
  kind: 'special' | 'decrease',
) {
  return implement(contract, async (c, { body }) => {
    const row = await answerOffer(
      deps(c),
      clientIdOf(c),
      kind,
      { amount: body.amount?.amount, term: body.term?.value },
      deps(c).now(),
      callerOf(c),
    )
    return ok(c, await viewOf(db(c), row))
  })
}

export const lendingRoutes: AnyRoute[] = [
  implement(lending.createApplication, async (c, { body }) => {
    const key = idempotencyKeyOf(c)
    const marketing = {
      ...(body.marketing ?? {}),
      ...(body.hotjarUserId ? { hotjarUserId: body.hotjarUserId } : {}),
      ...(body.juicySessionId ? { juicySessionId: body.juicySessionId } : {}),
      ...(body.seonSession ? { seonSession: body.seonSession } : {}),
    }
    const { row, created } = await createApplication(
      deps(c),
      clientIdOf(c),
      {
        amount: body.loanAmount.amount,
        term: body.term.value,
        withPackageFee: body.consents.acceptBorrowersAdvantagePackageFee,
        paymentMethod: body.paymentMethod,
        promoCode: body.promoCode,
        iovation: body.iovation?.ioBB,
        affiliate: body.affiliate,
        marketing: Object.keys(marketing).length ? marketing : undefined,
      },
      key,
      deps(c).now(),
      callerOf(c),
    )
    if (!created) setHeader(c, 'idempotent-replayed', 'true')
    return ok(c, await viewOf(db(c), row), 201)
  }),

  implement(lending.getActualApplication, async (c) => {
    const row = await actualApplication(db(c), clientIdOf(c))
    return ok(c, row ? await viewOf(db(c), row) : null)
  }),

  implement(lending.getActualApplicationStatus, async (c) => {
    const row = await actualApplication(db(c), clientIdOf(c))
    return ok(c, row ? { id: row.id, status: row.status } : null)
  }),

  implement(lending.getPaymentMethod, async (c) => {
    const entries = await listDisbursements(db(c), clientIdOf(c))
    const selected = entries.find((e) => e.selected) ?? null
    return ok(c, { paymentMethod: 'bank_transfer', disbursement: selected, entries })
  }),

  implement(lending.changeApplication, async (c, { params, body }) => {
    const row = await changeApplication(
      deps(c),
      clientIdOf(c),
      params.id,
      {
        amount: body.amount?.amount,
        term: body.term?.value,
        withPackageFee: body.consents?.acceptBorrowersAdvantagePackageFee,
      },
      deps(c).now(),
      callerOf(c),
    )
    return ok(c, await viewOf(db(c), row))
  }),

  implement(lending.cancelApplication, async (c, { params }) => {
    const row = await cancelApplication(deps(c), clientIdOf(c), params.id, deps(c).now(), callerOf(c))
    return ok(c, await viewOf(db(c), row))
  }),

  implement(lending.getApplicationOffer, async (c, { params }) => {
    const row = await ownApplication(db(c), clientIdOf(c), params.id)
    return ok(c, await applicationOffer(db(c), row, deps(c).now()))
  }),

  implement(lending.applyApplicationPromo, async (c, { params, body }) => {
    const result = await applyPromo(
      deps(c),
      clientIdOf(c),
      params.applicationId,
      body.promoCode,
      deps(c).now(),
      callerOf(c),
    )
    return ok(c, {
      application: await viewOf(db(c), result.application),
      offer: result.offer,
      promo: result.promo,
    })
  }),

  lowerOfferAnswer(lending.approveSpecialOffer, 'special'),
  lowerOfferAnswer(lending.approveDecreasedOffer, 'decrease'),

  implement(lending.answerIncreasedOffer, async (c, { body }) => {
    const row = await answerOffer(
      deps(c),
      clientIdOf(c),
      'increase',
      { amount: body.amount.amount, term: body.term.value },
      deps(c).now(),
      callerOf(c),
    )
    return ok(c, await viewOf(db(c), row))
  }),

  implement(lending.renderDocuments, async (c) => {
    const clientId = clientIdOf(c)
    const result = await renderApplicationDocuments(
      deps(c),
      clientId,
      deps(c).now(),
      await payoutLabel(db(c), clientId),
      callerOf(c),
    )
    const docs = await documentsOf(db(c), clientId, [result.application.id])
    return ok(c, { documents: docs.map(documentView), offer: result.offer }, 201)
  }),

  implement(lending.getApplicationDocuments, async (c, { query }) => {
    const row = await actualApplication(db(c), clientIdOf(c))
    const docs = row ? await documentsOf(db(c), clientIdOf(c), [row.id]) : []
    return okSlice(c, docs.map(documentView), query)
  }),

  implement(lending.listDocuments, async (c, { query }) => {
    const { items, total } = await documentsPage(db(c), clientIdOf(c), query)
    return okPage(c, items.map(documentView), { ...query, total })
  }),

  implement(lending.downloadDocument, async (c, { params }) => {
    const doc = await latestDocument(db(c), clientIdOf(c), params.type)
    return binary(c, doc.content as Uint8Array<ArrayBuffer>, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${params.type}-${doc.applicationId}.pdf"`,
      'x-content-sha256': doc.sha256,
    })
  }),

  implement(lending.signAgreement, async (c, { params, body }) => {
    const { secrets, now } = deps(c)
    const me = await currentClient(c)
    const row = await ownApplication(db(c), me.id, params.id)
    if (body.code === undefined) {
      await prepareSignature(deps(c), me.id, row, now(), callerOf(c))
      // The owner's trusted device has its own code budget, and a limit answers 429 with Retry-After, which
      // the sign screen counts down (deliverCode, docs/decisions/0006).
      const sent = await deliverCode(c, {
        purpose: 'agreement',
        channel: 'sms',
        target: me.phone,
        owner: clientAccount(me.id),
      })
      return ok(c, {
        sent: true,
        nextCodeAt: sent.nextCodeAt.toISOString(),
        codeExpiresAt: sent.expiresAt.toISOString(),
      })
    }
    assertCode(
      await checkCode(db(c), secrets.codeKey, 'agreement', me.phone, body.code, now(), clientAccount(me.id)),
    )
    const change = await signApplication(deps(c), me.id, row.id, now(), callerOf(c))
    return ok(c, { application: await viewOf(db(c), change.result), flow: change.flow })
  }),

  implement(lending.getActiveLoan, async (c) =>
    ok(c, await activeLoanView(db(c), clientIdOf(c), deps(c).now())),
  ),

  implement(lending.decideApplication, async (c, { params, body }) => {
    const { row } = await backOfficeDecision(
      deps(c),
      params.id,
      c.get('principal').id,
      body,
      deps(c).now(),
      callerOf(c),
      await reviewConfig(db(c)),
    )
    return ok(c, await viewOf(db(c), row))
  }),

  implement(lending.getReviewQueue, async (c, { query }) => {
    const { items, total } = await reviewQueuePage(
      db(c),
      query,
      c.get('principal').id,
      await reviewConfig(db(c)),
    )
    return okPage(c, items, { ...query, total })
  }),

  implement(lending.assignApplication, async (c, { params, body }) => {
    const principal = c.get('principal')
    await assignReview(
      deps(c).database.db,
      { applicationId: params.id, actor: { id: principal.id, roles: principal.roles }, userId: body.userId },
      deps(c).now(),
    )
    const item = await reviewQueueItem(db(c), params.id, await reviewConfig(db(c)))
    if (!item) throw notFound('Application')
    return ok(c, item)
  }),
]
