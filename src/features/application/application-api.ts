/**
 * The calls behind the application, offer, signing and loan screens (spec section 7 "Application", "Loan",
 * "Documents"), with the answers checked by valibot so a screen never renders a guess. Money is integer
 * centavos, terms are days (ADR 0002). The shapes follow the issue 6 server (server/http/routes/lending.ts):
 * the spec's fields plus `desiredTerm`, `offeredAmount` (the counter-offer) and the loan's `amountDue` parts.
 * `reapplyFrom` and the payout `provider` are optional: the server does not send them yet (ADR 0013).
 */
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { type Offer, offerSchema } from '../../../domain/offer'
import type { DecisionApplication, OfferCall } from '../../../domain/offer-decision'
import type { ApplicationStatusFacts } from '../../../machines/application-wait.machine'
import type { ApiClient } from '../../api/client'

const money = v.looseObject({ amount: v.pipe(v.number(), v.integer()) })
const optionalMoney = v.optional(v.nullable(money))
const term = v.looseObject({ value: v.pipe(v.number(), v.integer()), unit: v.optional(v.string()) })

/** The Application of spec section 3. */
export const applicationSchema = v.looseObject({
  id: v.pipe(v.number(), v.integer()),
  hashedId: v.optional(v.nullable(v.string())),
  status: v.pipe(v.number(), v.integer()),
  desiredLoanAmount: money,
  principalAmount: optionalMoney,
  term,
  /** Not in spec section 3: the term the client asked for, when the offer changed it. */
  desiredTerm: v.optional(v.nullable(term)),
  loanAmount: v.looseObject({ amount: v.pipe(v.number(), v.integer()), currency: v.optional(v.string()) }),
  /** The counter-offer: the lower amount (13, 17) or the upper limit of an increase (18). */
  offeredAmount: optionalMoney,
  borrowersAdvantagePackageFeeConsent: v.optional(v.boolean()),
  disbursementType: v.optional(
    v.nullable(v.looseObject({ type: v.string(), provider: v.optional(v.nullable(v.string())) })),
  ),
  cashPickupNumber: v.optional(v.nullable(v.string())),
  /** Not in spec section 3: for a rejected application, when a new one may be made (ISO date or instant). */
  reapplyFrom: v.optional(v.nullable(v.string())),
})
export type Application = v.InferOutput<typeof applicationSchema>

/** The newest application's status; null when the client has none. */
export const applicationStatusSchema = v.nullable(
  v.looseObject({
    status: v.pipe(v.number(), v.integer()),
    id: v.optional(v.nullable(v.number())),
  }),
)
export type ApplicationStatusAnswer = v.InferOutput<typeof applicationStatusSchema>

/** The active Loan (spec section 3) with the amount due and its parts; null when there is none. */
export const activeLoanSchema = v.nullable(
  v.looseObject({
    id: v.optional(v.number()),
    createdAtDate: v.optional(v.string()),
    principal: money,
    amountDue: v.looseObject({
      amount: v.pipe(v.number(), v.integer()),
      parts: v.optional(
        v.looseObject({
          principal: optionalMoney,
          interest: optionalMoney,
          fees: optionalMoney,
          penalty: optionalMoney,
        }),
      ),
    }),
    dueDate: v.pipe(v.string(), v.minLength(10)),
    repaymentInvoice: v.looseObject({ dueDays: v.pipe(v.number(), v.integer()) }),
  }),
)
export type ActiveLoan = NonNullable<v.InferOutput<typeof activeLoanSchema>>

export const paths = {
  actual: '/private/client/application/actual',
  actualStatus: '/private/client/application/actual/status',
  offer: (id: number) => `/private/client/application/${id}/offer/actual`,
  agreement: (id: number) => `/private/client/application/agreement/${id}`,
  render: '/private/client/render/document',
  activeLoan: '/private/client/loan/active',
  download: (type: DocumentType) => `/private/client/document/download/${type}`,
} as const

/** The two documents a client reads before signing (issue 6 item 4), as the server names them. */
export const documentTypes = ['loan_agreement', 'disclosure_statement'] as const
export type DocumentType = (typeof documentTypes)[number]

export const applicationQueryKeys = {
  actual: ['application', 'actual'] as const,
  status: ['application', 'actual', 'status'] as const,
  offer: (id: number) => ['application', id, 'offer'] as const,
  activeLoan: ['loan', 'active'] as const,
}

/** A missing application is an error the screens show (`applicationNotFound`), not an empty page. */
export async function getActualApplication(api: ApiClient, signal?: AbortSignal): Promise<Application> {
  const answer = await api.get<unknown>(paths.actual, { signal })
  if (answer === null || answer === undefined) {
    throw Object.assign(new Error('No application'), { code: 'applicationNotFound' })
  }
  return v.parse(applicationSchema, answer)
}

export async function getActualStatus(
  api: ApiClient,
  signal?: AbortSignal,
): Promise<ApplicationStatusAnswer> {
  return v.parse(applicationStatusSchema, await api.get<unknown>(paths.actualStatus, { signal }))
}

export async function getActualOffer(api: ApiClient, id: number, signal?: AbortSignal): Promise<Offer> {
  return v.parse(offerSchema, await api.get<unknown>(paths.offer(id), { signal }))
}

export async function getActiveLoan(api: ApiClient, signal?: AbortSignal): Promise<ActiveLoan | null> {
  return v.parse(activeLoanSchema, await api.get<unknown>(paths.activeLoan, { signal }))
}

/** Renders the agreement and the disclosure statement for the approved application (status 2). */
export const renderedDocumentsSchema = v.looseObject({
  documents: v.array(v.looseObject({ type: v.string(), name: v.optional(v.string()) })),
  offer: offerSchema,
})
export type RenderedDocuments = v.InferOutput<typeof renderedDocumentsSchema>

export async function renderDocuments(api: ApiClient): Promise<RenderedDocuments> {
  return v.parse(renderedDocumentsSchema, await api.post<unknown>(paths.render))
}

/** Without a code: the server sends the signing code by SMS, and says when the next may be asked for. */
export function sendSigningCode(api: ApiClient, applicationId: number) {
  return api.post<{ nextCodeAt?: string } | null>(paths.agreement(applicationId), {})
}

/** Signs the agreement with the 3-digit SMS code (the otp_agreement step). */
export function signAgreement(api: ApiClient, applicationId: number, code: string) {
  return api.post<unknown>(paths.agreement(applicationId), { code })
}

/** The decision facts of an application: desired, offered and principal figures (domain/offer-decision.ts). */
export function decisionApplicationOf(application: Application): DecisionApplication {
  return {
    id: application.id,
    status: application.status,
    desired: {
      amount: application.desiredLoanAmount.amount,
      term: application.desiredTerm?.value ?? application.term.value,
    },
    offered: {
      amount: application.offeredAmount?.amount ?? application.loanAmount.amount,
      term: application.term.value,
    },
    principal: application.principalAmount?.amount ?? application.desiredLoanAmount.amount,
  }
}

/** The actors the offer-decision machine invokes, made with the app's API client. */
export function offerDecisionActors(api: ApiClient, onReloaded?: (application: Application) => void) {
  return {
    sendDecision: fromPromise<void, OfferCall>(async ({ input, signal }) => {
      // No figures is an empty JSON object: the server validates every body it reads.
      const body = input.body ?? {}
      if (input.method === 'POST') await api.post<unknown>(input.path, body, { signal })
      else await api.put<unknown>(input.path, body, { signal })
    }),
    reloadApplication: fromPromise<DecisionApplication, { id: number }>(async ({ signal }) => {
      const application = await getActualApplication(api, signal)
      onReloaded?.(application)
      return decisionApplicationOf(application)
    }),
  }
}

/** The actor the application-wait machine invokes: the newest application's status, with the app's API client. */
export function applicationWaitActors(api: ApiClient) {
  return {
    fetchStatus: fromPromise<ApplicationStatusFacts | null>(({ signal }) => getActualStatus(api, signal)),
  }
}
