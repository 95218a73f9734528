/**
 * Offer decisions and application updates (spec section 4 "Offer decisions", "Application update"; section 7
 * "Application"). Pure: which call a client's answer to a counter-offer makes and with which body, and whether
 * an edited application must be sent at all. The offer-decision machine and the screens only compose these.
 */

/** Application status codes of spec section 4. */
export const applicationStatus = {
  new: 1,
  signing: 2,
  accepted: 3,
  completed: 4,
  canceled: 5,
  rejected: 6,
  verification: 7,
  specialOffer: 13,
  manualVerification: 14,
  yhatDecrease: 17,
  yhatIncrease: 18,
  terminated: 23,
  decisionError: 401,
} as const
export type ApplicationStatusCode = (typeof applicationStatus)[keyof typeof applicationStatus]

const inactiveStatuses: readonly number[] = [
  applicationStatus.canceled,
  applicationStatus.completed,
  applicationStatus.rejected,
  applicationStatus.terminated,
]

/** "An application is active unless it is canceled, completed, rejected or terminated." */
export function isActiveApplication(status: number): boolean {
  return !inactiveStatuses.includes(status)
}

/** An amount (centavos) and a term (days). */
export interface LoanFigures {
  amount: number
  term: number
}

/** What an offer decision needs to know about the application. */
export interface DecisionApplication {
  id: number
  status: number
  /** What the client asked for. */
  desired: LoanFigures
  /** What the decision engine offers. */
  offered: LoanFigures
  /** The principal of the application: the least an increase may go back to. */
  principal: number
  /** The borrowers advantage package fee consent the application holds now. */
  feeConsent: boolean
}

export type OfferKind = 'decrease' | 'increase'

/** Special offer (13) and yhat decrease (17) offer less; yhat increase (18) offers more. */
export function offerKindOf(status: number): OfferKind | null {
  if (status === applicationStatus.specialOffer || status === applicationStatus.yhatDecrease)
    return 'decrease'
  if (status === applicationStatus.yhatIncrease) return 'increase'
  return null
}

export const offerCallPaths = {
  specialOfferApprove: '/private/client/special/offer/approve',
  yhatDecreaseApprove: '/private/client/yhat/offer/approve/decrease',
  yhatIncreaseApprove: '/private/client/yhat/offer/approve/increase',
} as const
export type OfferCallName = keyof typeof offerCallPaths | 'cancelApplication'

/** POST /private/client/application/{id}/cancel: the application is given up (status 5). */
export const cancelApplicationPath = (id: number) => `/private/client/application/${id}/cancel`

/** The body shape of spec section 7 (application update): amount{amount,currency}, term{value,unit day}. */
export interface LoanFiguresBody {
  amount: { amount: number; currency: 'PHP' }
  term: { value: number; unit: 'day' }
}

export function loanFiguresBody(figures: LoanFigures): LoanFiguresBody {
  return {
    amount: { amount: figures.amount, currency: 'PHP' },
    term: { value: figures.term, unit: 'day' },
  }
}

/** One call the client's answer makes. `body` is null when the server already knows the figures. */
export interface OfferCall {
  name: OfferCallName
  method: 'PUT' | 'POST'
  path: string
  body: LoanFiguresBody | null
}

function call(name: keyof typeof offerCallPaths, body: LoanFiguresBody | null): OfferCall {
  return { name, method: 'PUT', path: offerCallPaths[name], body }
}

/** The client's answer: approve (with the chosen figures for an increase) or refuse. */
export type OfferAnswer = { type: 'approve'; choice?: LoanFigures } | { type: 'refuse' }

export type OfferDecision =
  | { ok: true; call: OfferCall }
  | { ok: false; reason: 'no-offer' | 'choice-required' | 'choice-out-of-range' | 'choice-not-allowed' }

/** The call that approves the offer of this kind for this status (special offer has its own endpoint). */
function approvalCallName(status: number, kind: OfferKind): keyof typeof offerCallPaths {
  if (kind === 'increase') return 'yhatIncreaseApprove'
  return status === applicationStatus.specialOffer ? 'specialOfferApprove' : 'yhatDecreaseApprove'
}

/**
 * An increase may be taken anywhere from the application's principal up to the offered amount, for a whole
 * number of days (the calculator keeps the term within the configured limits). The calculator's sliders
 * already clamp to these bounds; this is the last word before money is asked for.
 */
export function isIncreaseChoiceAllowed(application: DecisionApplication, choice: LoanFigures): boolean {
  return (
    Number.isSafeInteger(choice.amount) &&
    Number.isSafeInteger(choice.term) &&
    choice.amount >= application.principal &&
    choice.amount <= application.offered.amount &&
    choice.term >= 1
  )
}

/**
 * Spec section 4, Offer decisions:
 * - approving a decrease: special offer approve when the status is special offer (13), otherwise yhat decrease
 *   approve; no body (the server takes the offered figures);
 * - approving an increase: yhat increase approve with the chosen amount and term;
 * - refusing an increase: yhat increase approve with the ORIGINAL desired amount and term (the client keeps
 *   what they asked for; the server reads those figures as the refusal);
 * - refusing a decrease: the desired amount is above what the decrease approvals accept (the server refuses
 *   any amount above the offer), so the only honest refusal is giving the application up:
 *   POST /private/client/application/{id}/cancel (the journey goes to no_loan_page). ADR 0013.
 */
export function decideOffer(application: DecisionApplication, answer: OfferAnswer): OfferDecision {
  const kind = offerKindOf(application.status)
  if (!kind) return { ok: false, reason: 'no-offer' }
  const name = approvalCallName(application.status, kind)
  if (answer.type === 'refuse') {
    if (kind === 'increase') return { ok: true, call: call(name, loanFiguresBody(application.desired)) }
    return {
      ok: true,
      call: {
        name: 'cancelApplication',
        method: 'POST',
        path: cancelApplicationPath(application.id),
        body: null,
      },
    }
  }
  if (kind === 'decrease') {
    if (answer.choice) return { ok: false, reason: 'choice-not-allowed' }
    return { ok: true, call: call(name, null) }
  }
  if (!answer.choice) return { ok: false, reason: 'choice-required' }
  if (!isIncreaseChoiceAllowed(application, answer.choice))
    return { ok: false, reason: 'choice-out-of-range' }
  return { ok: true, call: call(name, loanFiguresBody(answer.choice)) }
}

// ---------------------------------------------------------------------------------------------------------
// Application update (spec section 4): PUT /private/client/application/{id} only when something changed.

/** PUT /private/client/application/{id} with the consent only: the answer call already set the figures. */
export interface ApplicationConsentUpdate {
  id: number
  body: { consents: { acceptBorrowersAdvantagePackageFee: boolean } }
}

/**
 * The application update an offer answer needs afterwards (spec section 4, Application update): the consent the
 * client chose on the offer screen, when it differs from the application's and the answer keeps the application
 * going (a cancel gives it up: nothing to update). Null when nothing changed.
 */
export function consentUpdateAfterAnswer(
  application: DecisionApplication,
  call: OfferCall | null,
  feeConsent: boolean,
): ApplicationConsentUpdate | null {
  if (!call || call.name === 'cancelApplication') return null
  if (feeConsent === application.feeConsent) return null
  return { id: application.id, body: { consents: { acceptBorrowersAdvantagePackageFee: feeConsent } } }
}
