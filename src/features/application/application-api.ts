/**
 * The calls behind the application, offer, signing and loan screens (spec section 7 "Application", "Loan",
 * "Documents"), made through their contracts (domain/contract/lending.ts), with the answers checked against the
 * contracts' schemas so a screen never renders a guess. Money is integer centavos, terms are days (ADR 0002).
 */
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import * as lending from '../../../domain/contract/lending'
import type {
  ActiveLoan,
  Application,
  ApplicationStatusAnswer,
  DocumentType,
  RenderedDocuments,
} from '../../../domain/contract/lending-answers'
import * as answers from '../../../domain/contract/lending-answers'
import { type PricedOffer, pricedOfferSchema } from '../../../domain/contract/pricing-answers'
import type { ApplicationConsentUpdate, DecisionApplication, OfferCall } from '../../../domain/offer-decision'
import type { ApplicationStatusFacts } from '../../../machines/application-wait.machine'
import type { CodeSent } from '../../../machines/code-request.machine'
import type { ApiClient } from '../../api/client'
import { fetchActiveLoan } from '../../app/servicing'

export const applicationQueryKeys = {
  actual: ['application', 'actual'] as const,
  status: ['application', 'actual', 'status'] as const,
  offer: (id: number) => ['application', id, 'offer'] as const,
}

/** A missing application is an error the screens show (`applicationNotFound`), not an empty page. */
export async function getActualApplication(api: ApiClient, signal?: AbortSignal): Promise<Application> {
  const answer = await api.call(lending.getActualApplication, {}, { signal })
  if (answer === null || answer === undefined) {
    throw Object.assign(new Error('No application'), { code: 'applicationNotFound' })
  }
  return v.parse(answers.applicationSchema, answer)
}

export async function getActualStatus(
  api: ApiClient,
  signal?: AbortSignal,
): Promise<ApplicationStatusAnswer> {
  return v.parse(
    answers.applicationStatusSchema,
    await api.call(lending.getActualApplicationStatus, {}, { signal }),
  )
}

export async function getActualOffer(api: ApiClient, id: number, signal?: AbortSignal): Promise<PricedOffer> {
  return v.parse(
    pricedOfferSchema,
    await api.call(lending.getApplicationOffer, { params: { id } }, { signal }),
  )
}

/** The active loan, or null (src/app/servicing.ts: My loan, the repayment page and the repay pages share it). */
export function getActiveLoan(api: ApiClient, signal?: AbortSignal): Promise<ActiveLoan | null> {
  return fetchActiveLoan(api, { signal })
}

/** Renders the agreement and the disclosure statement for the approved application (status 2). */
export async function renderDocuments(api: ApiClient): Promise<RenderedDocuments> {
  return v.parse(answers.renderedDocumentsSchema, await api.call(lending.renderDocuments))
}

/** A PDF of the newest application, as rendered (and signed). */
export function downloadDocument(api: ApiClient, type: DocumentType): Promise<Blob> {
  // The call answers a Blob for a binary contract; defineContract does not keep `answer: 'binary'` in the type yet.
  return api.call(lending.downloadDocument, { params: { type } }) as Promise<Blob>
}

/** Without a code: the server sends the signing code by SMS, and says when the next may be asked for. */
export async function sendSigningCode(api: ApiClient, applicationId: number): Promise<CodeSent | null> {
  const answer = await api.call(lending.signAgreement, { params: { id: applicationId }, body: {} })
  return answer && 'nextCodeAt' in answer ? answer : null
}

/** Signs the agreement with the 3-digit SMS code (the otp_agreement step). */
export function signAgreement(api: ApiClient, applicationId: number, code: string) {
  return api.call(lending.signAgreement, { params: { id: applicationId }, body: { code } })
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
    // Accepted by default unless refused (spec section 9): an answer without the field holds the default.
    feeConsent: application.borrowersAdvantagePackageFeeConsent ?? true,
  }
}

/** The contract of each answer to a counter-offer domain/offer-decision.ts decides on. */
const offerAnswers = {
  specialOfferApprove: lending.approveSpecialOffer,
  yhatDecreaseApprove: lending.approveDecreasedOffer,
  yhatIncreaseApprove: lending.answerIncreasedOffer,
} as const

/**
 * The application a refusal cancels. decideOffer names it only in the call's path (the cancel contract's path with
 * the id filled in), so it is read back from there.
 */
function cancelledIdOf(call: OfferCall): number {
  const id = Number(/\/(\d+)\/cancel$/.exec(call.path)?.[1])
  if (!Number.isSafeInteger(id)) throw new Error(`No application id in ${call.path}`)
  return id
}

/** The actors the offer-decision machine invokes, made with the app's API client. */
export function offerDecisionActors(api: ApiClient, onReloaded?: (application: Application) => void) {
  return {
    sendDecision: fromPromise<void, OfferCall>(async ({ input, signal }) => {
      if (input.name === 'cancelApplication') {
        await api.call(lending.cancelApplication, { params: { id: cancelledIdOf(input) } }, { signal })
        return
      }
      // No figures is an empty JSON object: the server validates every body it reads.
      await api.call(offerAnswers[input.name], { body: input.body ?? {} }, { signal })
    }),
    updateApplication: fromPromise<void, ApplicationConsentUpdate>(async ({ input, signal }) => {
      await api.call(lending.changeApplication, { params: { id: input.id }, body: input.body }, { signal })
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
