/**
 * Applications, offers, documents, signature and the active loan (spec section 7, Application, Loan, Documents;
 * docs/decisions/0012). Bodies are validated first (400 with violations), then each change runs as one journey
 * transaction: a call that does not fit the client's step is a 409 and writes nothing.
 */

import { and, desc, eq } from 'drizzle-orm'
import type { Context } from 'hono'
import * as v from 'valibot'
import { backOfficeDecisionSchema } from '../../../domain/back-office-decision'
import { campaignParams } from '../../../domain/campaign'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import { idString } from '../../../domain/ids'
import { offerSchema } from '../../../domain/offer'
import { promoCodeSchema } from '../../../domain/pricing/promo'
import { safeString } from '../../../domain/safe-text'
import { loanDocument } from '../../db/schema-lending'
import { clientAccount } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { journeyTransaction } from '../../services/journey/journey'
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
import { renderApplicationDocuments } from '../../services/lending/documents'
import { activeLoanView, documentTypes, signInTransaction } from '../../services/lending/payout'
import { reviewQueuePage } from '../../services/lending/review-queue'
import { deliverCode } from '../code-delivery'
import type { AppEnv } from '../context'
import { binary, ok, okPage, setHeader } from '../envelope'
import { okSlice, pagingSchema } from '../paging'
import { callerOf, clientIdOf, currentClient, db, deps } from '../request'
import { type AnyRoute, defineRoute } from '../route'

const positiveId = idString()
const idParams = v.object({ id: positiveId })
const applicationIdParams = v.object({ applicationId: positiveId })

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

/** POST /private/client/application, aligned with src/features/calculator/submit.ts. */
export const createApplicationSchema = v.object({
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

const changeSchema = v.pipe(
  v.object({
    amount: v.optional(moneyBody),
    term: v.optional(termBody),
    consents: v.optional(consentsBody),
  }),
  v.check((b) => Boolean(b.amount || b.term || b.consents), 'Send the amount, the term or the consents.'),
)

const offerAnswerSchema = v.object({ amount: v.optional(moneyBody), term: v.optional(termBody) })

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

async function payoutLabel(c: Context<AppEnv>) {
  const entries = await listDisbursements(db(c), clientIdOf(c))
  const entry = entries.find((e) => e.selected)
  if (!entry) return 'the payout account you choose'
  const account = entry.accountNumber ? ` account ending ${entry.accountNumber.slice(-4)}` : ''
  return `${entry.type.replace('_', ' ')} ${entry.bankName ?? ''}${account}`.replace(/\s+/g, ' ').trim()
}

const documentName: Record<string, string> = {
  loan_agreement: 'Loan agreement',
  disclosure_statement: 'Disclosure statement (Truth in Lending Act)',
}

const documentView = (d: Awaited<ReturnType<typeof documentsOf>>[number]) => ({
  id: d.id,
  applicationId: d.applicationId,
  type: d.type,
  name: documentName[d.type] ?? d.type,
  sha256: d.sha256,
  size: d.size,
  renderedAt: d.renderedAt.toISOString(),
  signed: d.signedAt !== null,
  signedAt: d.signedAt?.toISOString() ?? null,
  url: `/web/private/client/document/download/${d.type}`,
})

/** Accepting a lower offer (special offer 13 or yhat decrease 17): one contract, two paths (spec section 7). */
function lowerOfferAnswer(path: string, kind: 'special' | 'decrease', summary: string) {
  return defineRoute({
    method: 'put',
    path,
    summary,
    tags: ['application'],
    access: 'client',
    body: offerAnswerSchema,
    handler: async (c, { body }) => {
      const row = await answerOffer(
        deps(c),
        clientIdOf(c),
        kind,
        { amount: body.amount?.amount, term: body.term?.value },
        deps(c).now(),
        callerOf(c),
      )
      return ok(c, await viewOf(db(c), row))
    },
  })
}

export const lendingRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/private/client/application',
    summary:
      'Apply: amount and term checked against the calculator and the available amount; the decision follows asynchronously. An Idempotency-Key header makes a retry answer the first result.',
    tags: ['application'],
    access: 'client',
    body: createApplicationSchema,
    handler: async (c, { body }) => {
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
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/application/actual',
    summary: "The client's newest application (null when there is none)",
    tags: ['application'],
    access: 'client',
    handler: async (c) => {
      const row = await actualApplication(db(c), clientIdOf(c))
      return ok(c, row ? await viewOf(db(c), row) : null)
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/application/actual/status',
    summary: "The newest application's status code (spec section 4), for the loading page's polling",
    tags: ['application'],
    access: 'client',
    handler: async (c) => {
      const row = await actualApplication(db(c), clientIdOf(c))
      return ok(c, row ? { id: row.id, status: row.status } : null)
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/application/payment-method',
    summary: 'How the money will be paid out: the selected payout account of the client',
    tags: ['application'],
    access: 'client',
    handler: async (c) => {
      const entries = await listDisbursements(db(c), clientIdOf(c))
      const selected = entries.find((e) => e.selected) ?? null
      return ok(c, { paymentMethod: 'bank_transfer', disbursement: selected, entries })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/application/:id',
    summary:
      'Change amount, term or fee consent: any valid figures before the decision (decided again), at most the approved ones at signing',
    tags: ['application'],
    access: 'client',
    params: idParams,
    body: changeSchema,
    handler: async (c, { params, body }) => {
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
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/application/:id/cancel',
    summary: 'Cancel the application (status 5) before it is signed',
    tags: ['application'],
    access: 'client',
    params: idParams,
    handler: async (c, { params }) => {
      const row = await cancelApplication(deps(c), clientIdOf(c), params.id, deps(c).now(), callerOf(c))
      return ok(c, await viewOf(db(c), row))
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/application/:id/offer/actual',
    summary:
      "The Offer (pricing engine) for the application's figures; once signed, the signed offer unchanged",
    tags: ['application'],
    access: 'client',
    params: idParams,
    response: v.object({ ...offerSchema.entries }),
    handler: async (c, { params }) => {
      const row = await ownApplication(db(c), clientIdOf(c), params.id)
      return ok(c, await applicationOffer(db(c), row, deps(c).now()))
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/application/:applicationId/promocode',
    summary:
      'Apply a promo code to the application (before the signature); refused with error-promo-applied-wrong',
    tags: ['application'],
    access: 'client',
    params: applicationIdParams,
    body: v.object({ promoCode: promoCodeSchema }),
    handler: async (c, { params, body }) => {
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
    },
  }),

  lowerOfferAnswer(
    '/private/client/special/offer/approve',
    'special',
    'Accept the special offer (status 13): the offered amount, or a lower one on the grid',
  ),
  lowerOfferAnswer(
    '/private/client/yhat/offer/approve/decrease',
    'decrease',
    'Accept the decreased offer (status 17): the offered amount, or a lower one on the grid',
  ),

  defineRoute({
    method: 'put',
    path: '/private/client/yhat/offer/approve/increase',
    summary:
      'Answer the increase offer (status 18) with an amount from the original up to the offered limit; the original amount and term refuse it',
    tags: ['application'],
    access: 'client',
    body: v.object({ amount: moneyBody, term: termBody }),
    handler: async (c, { body }) => {
      const row = await answerOffer(
        deps(c),
        clientIdOf(c),
        'increase',
        { amount: body.amount.amount, term: body.term.value },
        deps(c).now(),
        callerOf(c),
      )
      return ok(c, await viewOf(db(c), row))
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/render/document',
    summary:
      'Render the loan agreement and the Truth-in-Lending disclosure statement (PDF) for the approved application',
    tags: ['documents'],
    access: 'client',
    handler: async (c) => {
      const result = await renderApplicationDocuments(
        deps(c),
        clientIdOf(c),
        deps(c).now(),
        await payoutLabel(c),
        callerOf(c),
      )
      const docs = await documentsOf(db(c), clientIdOf(c), [result.application.id])
      return ok(c, { documents: docs.map(documentView), offer: result.offer }, 201)
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/document',
    summary: "The documents of the client's newest application",
    tags: ['documents'],
    access: 'client',
    // One application's documents: one of each type, so one page always holds them.
    paginated: true,
    query: pagingSchema(10, 10),
    handler: async (c, { query }) => {
      const row = await actualApplication(db(c), clientIdOf(c))
      const docs = row ? await documentsOf(db(c), clientIdOf(c), [row.id]) : []
      return okSlice(c, docs.map(documentView), query)
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/document/list',
    summary: 'Every loan document of the client, newest first, a page at a time (page, perPage up to 100)',
    tags: ['documents'],
    access: 'client',
    paginated: true,
    query: pagingSchema(50, 100),
    handler: async (c, { query }) => {
      const { items, total } = await documentsPage(db(c), clientIdOf(c), query)
      return okPage(c, items.map(documentView), { ...query, total })
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/document/download/:type',
    summary: "A loan document of the client's newest application, as the PDF rendered (and signed) unchanged",
    tags: ['documents'],
    access: 'client',
    params: v.object({
      type: v.picklist(documentTypes, 'The type is loan_agreement or disclosure_statement.'),
    }),
    handler: async (c, { params }) => {
      const [doc] = await db(c)
        .select()
        .from(loanDocument)
        .where(and(eq(loanDocument.clientId, clientIdOf(c)), eq(loanDocument.type, params.type)))
        .orderBy(desc(loanDocument.renderedAt))
        .limit(1)
      if (!doc) throw notFound('Document')
      return binary(c, doc.content as Uint8Array<ArrayBuffer>, {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${params.type}-${doc.applicationId}.pdf"`,
        'x-content-sha256': doc.sha256,
      })
    },
  }),

  defineRoute({
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
    handler: async (c, { params, body }) => {
      const { secrets, now } = deps(c)
      const me = await currentClient(c)
      const row = await ownApplication(db(c), me.id, params.id)
      if (body.code === undefined) {
        // The step must accept the signature preparation, and the documents must exist, before a code is sent.
        await journeyTransaction(
          deps(c),
          me.id,
          { type: 'PREPARE_SIGNATURE' },
          callerOf(c),
          now(),
          async (tx) => {
            const [doc] = await tx
              .select({ version: loanDocument.applicationVersion })
              .from(loanDocument)
              .where(eq(loanDocument.applicationId, row.id))
            if (row.status !== 2 || !doc || doc.version !== row.version)
              throw new DomainError(
                'conflict',
                'documentsOutdated',
                'Render the documents before asking for the code.',
              )
          },
        )
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
        await checkCode(
          db(c),
          secrets.codeKey,
          'agreement',
          me.phone,
          body.code,
          now(),
          clientAccount(me.id),
        ),
      )
      const change = await journeyTransaction(deps(c), me.id, { type: 'SIGN' }, callerOf(c), now(), (tx) =>
        signInTransaction(tx, me.id, row.id, now()),
      )
      return ok(c, { application: await viewOf(db(c), change.result), flow: change.flow })
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/loan/active',
    summary:
      'The active loan: principal, amount due with its parts, due date and days left (repaymentInvoice.dueDays); null when none',
    tags: ['loan'],
    access: 'client',
    singleLink: true,
    handler: async (c) => ok(c, await activeLoanView(db(c), clientIdOf(c), deps(c).now())),
  }),

  defineRoute({
    method: 'put',
    path: '/private/back-office/application/:id/decision',
    summary:
      'Back office: approve or reject an application in manual verification (14) or decision error (401)',
    tags: ['back-office'],
    access: 'user',
    params: idParams,
    body: backOfficeDecisionSchema,
    handler: async (c, { params, body }) => {
      const row = await backOfficeDecision(
        deps(c),
        params.id,
        c.get('principal').id,
        body,
        deps(c).now(),
        callerOf(c),
      )
      return ok(c, await viewOf(db(c), row))
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/back-office/review-queue',
    summary:
      "Back office: applications waiting for a person (manual verification 14, decision error 401), oldest first, with the latest decision's rules and reasons",
    tags: ['back-office'],
    access: 'user',
    paginated: true,
    query: pagingSchema(100, 200),
    handler: async (c, { query }) => {
      const { items, total } = await reviewQueuePage(db(c), query)
      return okPage(c, items, { ...query, total })
    },
  }),
]
