/**
 * Where the client journey sends a client (spec section 2: "Flow routing by step", "Registration guard",
 * "Flow guard"; section 4: "Flow polling", "Sandbox"). Pure: no cookies, no router, no fetch. The browser's
 * flow-sync machine (machines/flow-sync.machine.ts) keeps the facts; the router's `beforeLoad` asks these
 * functions.
 *
 * The step table is not written here: each step of the journey model (client-journey.machine.ts) carries its
 * status and destination as metadata, and `routeForFlow` resolves them (destinations.ts). So this file names
 * no list of steps; a step added to the model is routed as soon as it has its metadata.
 *
 * Choices the spec leaves open (docs/decisions/0011-journey-routing-from-statecharts.md; the destinations'
 * choices are in destinations.ts):
 * - The stored query of the work-info rule is the analytics-query cookie of spec section 9.
 * - An answer naming a step or status the model does not know is not a flow: `readFlow` says so, with the
 *   names it got, so the app reports it instead of counting a failed fetch.
 */
import { type Flow, type FlowStep, flowSteps, journeyStatuses, stepMeta } from './client-journey.machine'
import {
  type ApplicationFacts,
  type Destination,
  type DestinationCondition,
  type ExternalSite,
  hasFirstName,
  isCompanionOf,
  isExternalTarget,
  type JourneyPath,
  journeyPages,
  type RoutingClientFacts,
  type RoutingFacts,
  resolveDestination,
} from './destinations'

export type { Flow, FlowStep } from './client-journey.machine'
export type { ApplicationFacts, JourneyPath, RoutingFacts } from './destinations'

// ---------------------------------------------------------------------------------------------------------
// The flow answer

/** The longest step or status name an unrecognised answer reports (longer is cut): a name, not a payload. */
const REPORTED_NAME_LENGTH = 64

/** A flow answer the model does not know: the names it carried (cut short), for the report. */
export interface UnrecognisedFlow {
  step: string | null
  status: string | null
}

export type FlowAnswer = { type: 'flow'; flow: Flow } | { type: 'unrecognised'; answer: UnrecognisedFlow }

const nameOf = (value: unknown): string | null =>
  typeof value === 'string' ? value.slice(0, REPORTED_NAME_LENGTH) : null

/**
 * A server answer checked against the model's steps and statuses. Anything else is unrecognised, with the step
 * and status names it carried (only those: a flow answer holds nothing else the report may need).
 */
export function readFlow(raw: unknown): FlowAnswer {
  const { step, status } = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {}
  const known =
    (flowSteps as readonly unknown[]).includes(step) &&
    (journeyStatuses as readonly unknown[]).includes(status)
  if (known) return { type: 'flow', flow: { step, status } as Flow }
  return { type: 'unrecognised', answer: { step: nameOf(step), status: nameOf(status) } }
}

/** The flow of a server answer, or null when the model does not know its step or status. */
export function parseFlow(raw: unknown): Flow | null {
  const answer = readFlow(raw)
  return answer.type === 'flow' ? answer.flow : null
}

// ---------------------------------------------------------------------------------------------------------
// The step table: the model's metadata

/**
 * The page for a flow: the loading page once the status is completed, else the step's destination in the model
 * resolved for the facts. Every internal destination is a path; an external one an absolute URL
 * (`isExternalTarget`).
 */
export function routeForFlow(flow: Flow, facts: RoutingFacts): string {
  if (flow.status === 'completed') return journeyPages.loading
  return resolveDestination(stepMeta(flow.step).destination, facts)
}

/** Which conditions and external sites read the actual application (typed: a new one must be classified). */
const conditionReadsApplication: Record<DestinationCondition, boolean> = {
  hasFirstName: false,
  hasClosedLoans: false,
  cashPickupReady: true,
}
const externalReadsApplication: Record<ExternalSite, boolean> = { facebook: true }

export function destinationReadsApplication(destination: Destination): boolean {
  if ('page' in destination) return false
  if ('external' in destination) return externalReadsApplication[destination.external]
  return conditionReadsApplication[destination.when]
}

/**
 * Whether routing this flow needs the actual application (the cash-pickup choice, the facebook step's id): the
 * app loads it before routing such a flow.
 */
export function flowReadsApplication(flow: Flow): boolean {
  return flow.status === 'active' && destinationReadsApplication(stepMeta(flow.step).destination)
}

// ---------------------------------------------------------------------------------------------------------
// Facts

/** Client status codes of spec section 4. */
export const clientStatus = {
  active: 1,
  blocked: 2,
  blacklisted: 3,
  verification: 4,
  bankAccountSelect: 5,
} as const

/** The client fields the journey rules read (spec section 3, Client). */
export interface ClientFacts extends RoutingClientFacts {
  status: number
  soldDebt: boolean
  /**
   * False while the mobile number of a just-signed-up client is not verified yet: the sign-up page
   * (`/registration`) holds its code step, so the journey keeps the client there. Absent means verified.
   */
  phoneVerified?: boolean
  /**
   * The client's own sandbox mode, switched on by an administrator (GET /private/client `sandbox`): the client is
   * in sandbox mode while logged in. Absent means off.
   */
  sandbox?: boolean
}

/**
 * What the app knows about the session; the flow-sync machine receives it with SESSION.CHANGED. The actual
 * application is not a session fact: the flow-sync machine loads it when a flow's routing reads it.
 */
export interface SessionFacts {
  /** A back-office user (token type user). */
  admin: boolean
  /** The QA cookie `qa-disable-flow` is set. */
  qaDisableFlow: boolean
  /**
   * The instance's sandbox mode is on (GET /public/environment `sandboxMode`): every visitor is in sandbox mode, as
   * if they held the QA cookie. Absent means off (also while the answer is not in yet).
   */
  instanceSandbox?: boolean
  /** Null until the profile is loaded, and for a visitor or an admin. */
  client: ClientFacts | null
}

export const noSessionFacts: SessionFacts = { admin: false, qaDisableFlow: false, client: null }

/** The routing facts of a session and the application loaded for its flow. */
export function routingFactsOf(session: SessionFacts, application: ApplicationFacts | null): RoutingFacts {
  return { client: session.client, application }
}

export const SANDBOX_COOKIE = 'qa-disable-flow'
export const ANALYTICS_QUERY_COOKIE = 'analytics-query'
export const SINGLE_LINK_COOKIE = 'single-link'

/**
 * Spec section 4, Sandbox: admins, or anyone holding the QA cookie. It replaces the normal flow. The back office's
 * two switches (docs/decisions/0039) count as the cookie: the instance's for every visitor, a client's for that
 * client once their profile is known.
 */
export function isSandbox(
  facts: Pick<SessionFacts, 'admin' | 'qaDisableFlow'> &
    Partial<Pick<SessionFacts, 'instanceSandbox' | 'client'>>,
): boolean {
  return (
    facts.admin || facts.qaDisableFlow || facts.instanceSandbox === true || facts.client?.sandbox === true
  )
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

/** The active step, or null (step rules act only on an active step, like the table). */
const activeStep = (flow: Flow | null): FlowStep | null => (flow?.status === 'active' ? flow.step : null)

/** Spec section 2, "Registration guard", on every /registration page. The first rule that applies wins. */
export function registrationGuard(facts: GuardFacts): GuardDecision {
  if (facts.sandbox) return { redirect: null, effects: [{ type: 'startSandbox' }], followFlow: false }
  if (!facts.loggedIn) return go(journeyPages.registration)
  // Logged in but the profile is not known yet: "no first name" cannot be told from "not loaded".
  if (!facts.client) return loadFirst()
  if (facts.client.phoneVerified === false) return go(journeyPages.registration)
  if (!hasFirstName(facts.client)) return go(journeyPages.details)
  // A completed step goes to the loading page through the table.
  const step = activeStep(facts.flow)
  if (step === 'work_info') {
    const search = facts.storedQuery?.replace(/^\?/, '') || undefined
    const effects: GuardEffect[] = search ? [{ type: 'removeCookie', name: ANALYTICS_QUERY_COOKIE }] : []
    return go(journeyPages.employment, effects, search)
  }
  if (step === 'relative_info') return go(journeyPages.reference)
  if (step === 'address') return go(journeyPages.address)
  return stay()
}

/** Spec section 2, "Flow guard", on the application pages and my loan. The first rule that applies wins. */
export function flowGuard(facts: GuardFacts): GuardDecision {
  if (!facts.loggedIn) {
    if (facts.singleLinkCookie) return go(journeyPages.login)
    return go(journeyPages.registration, [{ type: 'setProgress30' }])
  }
  if (!facts.client) return loadFirst()
  if (facts.client.soldDebt) return go(journeyPages.debtSold)
  if (facts.client.status === clientStatus.blocked) return go(journeyPages.login, [{ type: 'logout' }])
  return stay([{ type: 'loadLoanAndSchedule' }])
}

/**
 * The pages the journey governs (spec section 4, Flow polling): registration, application and my loan; and
 * `/flow` (spec section 2, public routes), the journey's entry: a link or a bookmark to "where I am" that the flow
 * guard and the step table send on, with no page of its own.
 */
export type JourneyPage = 'registration' | 'application' | 'myLoan' | 'flow'

/** The journey's entry route (spec section 2, public routes). */
export const FLOW_ENTRY_PATH = '/flow'

export function journeyPageOf(pathname: string): JourneyPage | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  if (path === FLOW_ENTRY_PATH) return 'flow'
  if (path === journeyPages.registration || path.startsWith(`${journeyPages.registration}/`)) {
    return 'registration'
  }
  if (path.startsWith('/application/')) return 'application'
  if (path === journeyPages.myLoan) return 'myLoan'
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
  // The page itself, or a page the step lets the client open from it (destinations.ts, companionPages).
  if (target && 'to' in target && (samePath(target.to, pathname) || isCompanionOf(target.to, pathname))) {
    return { redirect: null, effects: decision.effects.filter((e) => e.type !== 'removeCookie') }
  }
  return { redirect: target, effects: decision.effects }
}
