/**
 * Where the client journey sends a client (spec section 2: "Flow routing by step", "Registration guard",
 * "Flow guard"; section 4: "Flow polling", "Sandbox"). Pure: no cookies, no router, no fetch. The journey
 * machine (machines/journey.machine.ts) keeps the facts; the router's `beforeLoad` asks these functions.
 *
 * Choices the spec leaves open (docs/decisions/0011-journey-routing-from-statecharts.md):
 * - kontomatik goes to `/registration/bank-data` (the spec names a "bank-data linking screen" but no path).
 * - tmc_page with a cash-pickup payout and a cash-pickup number goes to `/application/cash-pickup`: the flow
 *   logic's route keys name "cash pickup" and "accept" and no "accepted cash" key, so `/application/accepted-cash`
 *   is not a destination of the flow.
 * - no_loan_page goes to `/profile/no-loan` for a client with closed loans (the page whose calculator shows the
 *   repeat-client note) and to `/application/apply` for a client who never had a loan.
 * - facebook goes to a configured external address with the current query and `application_id`.
 * - The stored query of the work-info rule is the analytics-query cookie of spec section 9.
 */

export const journeyPaths = {
  home: '/',
  login: '/login',
  registration: '/registration',
  details: '/registration/details',
  employment: '/registration/employment',
  reference: '/registration/reference',
  address: '/registration/address',
  documents: '/registration/documents',
  documentVerification: '/registration/document-verification',
  bankData: '/registration/bank-data',
  payment: '/registration/payment',
  summary: '/registration/summary',
  apply: '/application/apply',
  loading: '/application/loading',
  accepted: '/application/accepted',
  cashPickup: '/application/cash-pickup',
  manualVerification: '/application/manual-verification',
  offerIncrease: '/application/offer-increase',
  offerDecrease: '/application/offer-decrease',
  rejected: '/application/rejected',
  myLoan: '/profile/my-loan',
  noLoan: '/profile/no-loan',
  debtSold: '/profile/debt-sold',
} as const
export type JourneyPath = (typeof journeyPaths)[keyof typeof journeyPaths]

/** The server's step names (issue 5 item 1), in the order a new client usually meets them. */
export const flowSteps = [
  'new_client_created',
  'work_info',
  'relative_info',
  'address',
  'document_upload',
  'veriff',
  'kontomatik',
  'disbursement_type',
  'otp_agreement',
  'manual_page',
  'reject_page',
  'tmc_page',
  'loan_page',
  'no_loan_page',
  'pre_approval_page',
  'offer_increase',
  'offer_decrease',
  'facebook',
  // The server's waiting steps while a decision or a payout runs (docs/decisions/0012): always answered with
  // status 'completed', which routes to the loading page.
  'application_processing',
  'payout_processing',
] as const
export type FlowStep = (typeof flowSteps)[number]

export const flowStatuses = ['active', 'completed'] as const
export type FlowStatus = (typeof flowStatuses)[number]

/** `GET /web/private/client/flow` and `/client-journey/current` answer this. */
export interface Flow {
  step: FlowStep
  status: FlowStatus
}

/** A server answer checked against the spec's names; null for anything else (treated as a failed fetch). */
export function parseFlow(raw: unknown): Flow | null {
  if (typeof raw !== 'object' || raw === null) return null
  const { step, status } = raw as Record<string, unknown>
  if (!(flowSteps as readonly unknown[]).includes(step)) return null
  if (!(flowStatuses as readonly unknown[]).includes(status)) return null
  return { step: step as FlowStep, status: status as FlowStatus }
}

/** Client status codes of spec section 4. */
export const clientStatus = {
  active: 1,
  blocked: 2,
  blacklisted: 3,
  verification: 4,
  bankAccountSelect: 5,
} as const

/** The client fields the journey rules read (spec section 3, Client). */
export interface ClientFacts {
  firstName: string | null
  status: number
  soldDebt: boolean
  closedLoansCount: number
  /**
   * False while the mobile number of a just-signed-up client is not verified yet: the sign-up page
   * (`/registration`) holds its code step, so the journey keeps the client there. Absent means verified.
   */
  phoneVerified?: boolean
}

/** The actual application's fields the journey rules read (spec section 3, Application). */
export interface ApplicationFacts {
  id: string
  /** `disbursementType.type`: bank_transfer, ewallet, cash_card, cash_pickup. */
  disbursementType: string | null
  cashPickupNumber: string | null
}

/** What the app knows about the session; the journey machine receives it with SESSION.CHANGED. */
export interface JourneyFacts {
  /** A back-office user (token type user). */
  admin: boolean
  /** The QA cookie `qa-disable-flow` is set. */
  qaDisableFlow: boolean
  /** Null until the profile is loaded, and for a visitor or an admin. */
  client: ClientFacts | null
  /** The actual application, if there is one. */
  application: ApplicationFacts | null
}

export const noJourneyFacts: JourneyFacts = {
  admin: false,
  qaDisableFlow: false,
  client: null,
  application: null,
}

export const SANDBOX_COOKIE = 'qa-disable-flow'
export const ANALYTICS_QUERY_COOKIE = 'analytics-query'
export const SINGLE_LINK_COOKIE = 'single-link'
export const FACEBOOK_FLOW_URL = 'https://www.facebook.com/'

/** Spec section 4, Sandbox: admins, or anyone holding the QA cookie. It replaces the normal flow. */
export function isSandbox(facts: Pick<JourneyFacts, 'admin' | 'qaDisableFlow'>): boolean {
  return facts.admin || facts.qaDisableFlow
}

export function hasFirstName(client: Pick<ClientFacts, 'firstName'> | null): boolean {
  return (client?.firstName?.trim() ?? '') !== ''
}

/** The facts `routeForFlow` reads; `JourneyFacts` has them all. */
export interface RoutingFacts {
  client: Pick<ClientFacts, 'firstName' | 'closedLoansCount'> | null
  application: ApplicationFacts | null
  /** The current location's query (`?a=1` or `a=1`), passed on to the facebook step. */
  query?: string
  /** Where the facebook step goes; FACEBOOK_FLOW_URL unless configured. */
  facebookUrl?: string
}

type StepRoute = JourneyPath | ((facts: RoutingFacts) => string)

function acceptedRoute({ application }: RoutingFacts): JourneyPath {
  const cashPickup = application?.disbursementType === 'cash_pickup' && !!application.cashPickupNumber?.trim()
  return cashPickup ? journeyPaths.cashPickup : journeyPaths.accepted
}

function facebookRoute({ query, facebookUrl, application }: RoutingFacts): string {
  const url = new URL(facebookUrl ?? FACEBOOK_FLOW_URL)
  for (const [key, value] of new URLSearchParams(query ?? '')) url.searchParams.append(key, value)
  if (application) url.searchParams.set('application_id', application.id)
  return url.toString()
}

/** Spec section 2, "Flow routing by step", as data: one row per step. */
export const flowRouteTable: Readonly<Record<FlowStep, StepRoute>> = {
  kontomatik: journeyPaths.bankData,
  facebook: facebookRoute,
  disbursement_type: journeyPaths.payment,
  document_upload: journeyPaths.documents,
  otp_agreement: journeyPaths.summary,
  manual_page: journeyPaths.manualVerification,
  reject_page: journeyPaths.rejected,
  tmc_page: acceptedRoute,
  loan_page: journeyPaths.myLoan,
  no_loan_page: ({ client }) =>
    (client?.closedLoansCount ?? 0) > 0 ? journeyPaths.noLoan : journeyPaths.apply,
  new_client_created: ({ client }) => (hasFirstName(client) ? journeyPaths.apply : journeyPaths.details),
  pre_approval_page: journeyPaths.apply,
  work_info: journeyPaths.employment,
  relative_info: journeyPaths.reference,
  address: journeyPaths.address,
  veriff: journeyPaths.documentVerification,
  offer_increase: journeyPaths.offerIncrease,
  offer_decrease: journeyPaths.offerDecrease,
  application_processing: journeyPaths.loading,
  payout_processing: journeyPaths.loading,
}

/**
 * The page for a flow: the step's row while the status is active, the loading page once it is completed.
 * Every internal destination is a path; facebook's is an absolute URL (see `isExternalTarget`).
 */
export function routeForFlow(flow: Flow, facts: RoutingFacts): string {
  if (flow.status === 'completed') return journeyPaths.loading
  const route = flowRouteTable[flow.step]
  return typeof route === 'function' ? route(facts) : route
}

export function isExternalTarget(target: string): boolean {
  return /^https?:\/\//.test(target)
}

// ---------------------------------------------------------------------------------------------------------
// Guards

/** What a guard asks the app to do besides (or instead of) redirecting. */
export type GuardEffect =
  | { type: 'startSandbox' }
  | { type: 'setProgress30' }
  | { type: 'removeCookie'; name: string }
  | { type: 'logout' }
  | { type: 'loadProfileAndFlow' }
  | { type: 'loadLoanAndSchedule' }

export interface GuardRedirect {
  to: JourneyPath
  /** A query string without `?` to append, or absent. */
  search?: string
}

export interface GuardDecision {
  redirect: GuardRedirect | null
  effects: GuardEffect[]
  /** Whether the step-to-route table applies after this guard (false when the guard settled the page). */
  followFlow: boolean
}

/** The facts a guard reads: the machine's session facts, the flow, and two cookies read on navigation. */
export interface GuardFacts {
  sandbox: boolean
  loggedIn: boolean
  client: ClientFacts | null
  flow: Flow | null
  /** The stored analytics query (ANALYTICS_QUERY_COOKIE), without `?`; null when absent. */
  storedQuery: string | null
  /** The single-link cookie is set. */
  singleLinkCookie: boolean
}

const stay = (effects: GuardEffect[] = []): GuardDecision => ({ redirect: null, effects, followFlow: true })
const go = (to: JourneyPath, effects: GuardEffect[] = [], search?: string): GuardDecision => ({
  redirect: search ? { to, search } : { to },
  effects,
  followFlow: false,
})

/** Logged in, profile not loaded: load the profile and the flow step before deciding anything. */
const loadFirst = (): GuardDecision => ({
  redirect: null,
  effects: [{ type: 'loadProfileAndFlow' }],
  followFlow: false,
})

/** Spec section 2, "Registration guard", on every /registration page. The first rule that applies wins. */
export function registrationGuard(facts: GuardFacts): GuardDecision {
  if (facts.sandbox) return { redirect: null, effects: [{ type: 'startSandbox' }], followFlow: false }
  if (!facts.loggedIn) return go(journeyPaths.registration)
  // Logged in but the profile is not known yet: "no first name" cannot be told from "not loaded".
  if (!facts.client) return loadFirst()
  if (facts.client.phoneVerified === false) return go(journeyPaths.registration)
  if (!hasFirstName(facts.client)) return go(journeyPaths.details)
  // Step rules act only on an active step, like the table: a completed step goes to the loading page.
  const step = facts.flow?.status === 'active' ? facts.flow.step : null
  switch (step) {
    case 'work_info': {
      const search = facts.storedQuery?.replace(/^\?/, '') || undefined
      const effects: GuardEffect[] = search ? [{ type: 'removeCookie', name: ANALYTICS_QUERY_COOKIE }] : []
      return go(journeyPaths.employment, effects, search)
    }
    case 'relative_info':
      return go(journeyPaths.reference)
    case 'address':
      return go(journeyPaths.address)
    default:
      return stay()
  }
}

/** Spec section 2, "Flow guard", on the application pages and my loan. The first rule that applies wins. */
export function flowGuard(facts: GuardFacts): GuardDecision {
  if (!facts.loggedIn) {
    if (facts.singleLinkCookie) return go(journeyPaths.login)
    return go(journeyPaths.registration, [{ type: 'setProgress30' }])
  }
  if (!facts.client) return loadFirst()
  if (facts.client.soldDebt) return go(journeyPaths.debtSold)
  if (facts.client.status === clientStatus.blocked) return go(journeyPaths.login, [{ type: 'logout' }])
  return stay([{ type: 'loadLoanAndSchedule' }])
}

/** The pages the journey governs (spec section 4, Flow polling): registration, application and my loan. */
export type JourneyPage = 'registration' | 'application' | 'myLoan'

export function journeyPageOf(pathname: string): JourneyPage | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  if (path === journeyPaths.registration || path.startsWith(`${journeyPaths.registration}/`)) {
    return 'registration'
  }
  if (path.startsWith('/application/')) return 'application'
  if (path === journeyPaths.myLoan) return 'myLoan'
  return null
}

/** Where a navigation must go instead: an app path (with an optional query) or an external address. */
export type JourneyRedirect = { to: string; search?: string } | { href: string }

export interface JourneyDecision {
  redirect: JourneyRedirect | null
  effects: GuardEffect[]
}

export interface JourneyDecisionInput {
  pathname: string
  /** The current query, with or without `?`. */
  search: string
  guard: GuardFacts
  routing: RoutingFacts
}

const nothing = (): JourneyDecision => ({ redirect: null, effects: [] })

function samePath(a: string, b: string): boolean {
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p)
  return trim(a) === trim(b)
}

/**
 * What a navigation to `pathname` must do: the page's guard first, then, if the guard lets it, the
 * step-to-route table for the last known flow. A redirect to the page already being loaded is dropped (and
 * with it the cookie removal that only makes sense once its query has been passed on).
 */
export function decideJourney({ pathname, search, guard, routing }: JourneyDecisionInput): JourneyDecision {
  const page = journeyPageOf(pathname)
  if (!page) return nothing()
  // The sandbox replaces the normal flow everywhere; only the registration guard names it (startSandbox).
  if (guard.sandbox && page !== 'registration') return nothing()
  const decision = page === 'registration' ? registrationGuard(guard) : flowGuard(guard)
  const fromFlow =
    decision.followFlow && guard.flow ? routeForFlow(guard.flow, { ...routing, query: search }) : null
  const target: JourneyRedirect | null =
    decision.redirect ??
    (fromFlow === null ? null : isExternalTarget(fromFlow) ? { href: fromFlow } : { to: fromFlow })
  if (target && 'to' in target && samePath(target.to, pathname)) {
    return { redirect: null, effects: decision.effects.filter((e) => e.type !== 'removeCookie') }
  }
  return { redirect: target, effects: decision.effects }
}
