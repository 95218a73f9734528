/**
 * Where the browser shows a journey step (spec section 2, "Flow routing by step"). The journey statechart
 * (client-journey.machine.ts) names a destination for every step as metadata; this module says what the
 * destinations are and resolves one to a path for the facts the browser has. Pure: no router, no fetch.
 *
 * A destination is one of:
 * - a page: a route key of `journeyPages`;
 * - a choice: a named condition on the facts (`when`), the page when it holds (`yes`) and when not (`no`);
 * - an external site (the facebook step): an absolute address with the current query and the application id.
 *
 * Conditions are named (not functions) so that the generated diagram and the analysts' tables can say in words
 * why a step goes to one page or another; `destinationConditions` holds their meaning once.
 *
 * Choices the spec leaves open (docs/decisions/0011-journey-routing-from-statecharts.md):
 * - kontomatik goes to `/registration/bank-data` (the spec names a "bank-data linking screen" but no path).
 * - tmc_page with a cash-pickup payout and a cash-pickup number goes to `/application/accepted-cash` (the spec's
 *   "accepted-cash / cash-pickup page"): the accepted page of a cash payout, with the number, whose "how to claim"
 *   opens `/application/cash-pickup`, a companion page the step allows (`companionPages`). Without a number yet
 *   (the partner has not issued it), the client waits on `/application/accepted` like a transfer.
 * - no_loan_page goes to `/profile/no-loan` for a client with closed loans (the page whose calculator shows the
 *   repeat-client note) and to `/application/apply` for a client who never had a loan.
 */

/** The pages the journey routes to, by route key. */
export const journeyPages = {
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
  acceptedCash: '/application/accepted-cash',
  cashPickup: '/application/cash-pickup',
  manualVerification: '/application/manual-verification',
  offerIncrease: '/application/offer-increase',
  offerDecrease: '/application/offer-decrease',
  rejected: '/application/rejected',
  myLoan: '/profile/my-loan',
  noLoan: '/profile/no-loan',
  debtSold: '/profile/debt-sold',
} as const
export type JourneyPageKey = keyof typeof journeyPages
export type JourneyPath = (typeof journeyPages)[JourneyPageKey]

/** The client fields routing reads (spec section 3, Client). */
export interface RoutingClientFacts {
  firstName: string | null
  closedLoansCount: number
}

/** The actual application's fields routing reads (spec section 3, Application). */
export interface ApplicationFacts {
  id: string
  /** `disbursementType.type`: bank_transfer, ewallet, cash_card, cash_pickup. */
  disbursementType: string | null
  cashPickupNumber: string | null
}

/** What a destination is resolved against. */
export interface RoutingFacts {
  client: RoutingClientFacts | null
  application: ApplicationFacts | null
  /** The current location's query (`?a=1` or `a=1`), passed on to an external destination. */
  query?: string
  /** Where the facebook step goes; FACEBOOK_FLOW_URL unless configured. */
  facebookUrl?: string
}

export const FACEBOOK_FLOW_URL = 'https://www.facebook.com/'

export function hasFirstName(client: Pick<RoutingClientFacts, 'firstName'> | null): boolean {
  return (client?.firstName?.trim() ?? '') !== ''
}

/** The named conditions a choice may test, with their meaning in words (for diagrams) and in code. */
export const destinationConditions = {
  hasFirstName: {
    describe: 'the client has a first name',
    holds: ({ client }: RoutingFacts) => hasFirstName(client),
  },
  hasClosedLoans: {
    describe: 'the client has closed loans',
    holds: ({ client }: RoutingFacts) => (client?.closedLoansCount ?? 0) > 0,
  },
  cashPickupReady: {
    describe: 'the payout is a cash pickup and its pickup number exists',
    holds: ({ application }: RoutingFacts) =>
      application?.disbursementType === 'cash_pickup' && !!application.cashPickupNumber?.trim(),
  },
} as const
export type DestinationCondition = keyof typeof destinationConditions

export const externalSites = {
  facebook: {
    describe: 'the configured facebook address, with the current query and application_id',
    url: ({ query, facebookUrl, application }: RoutingFacts): string => {
      const url = new URL(facebookUrl ?? FACEBOOK_FLOW_URL)
      for (const [key, value] of new URLSearchParams(query ?? '')) url.searchParams.append(key, value)
      if (application) url.searchParams.set('application_id', application.id)
      return url.toString()
    },
  },
} as const
export type ExternalSite = keyof typeof externalSites

export type Destination =
  | { page: JourneyPageKey }
  | { when: DestinationCondition; yes: JourneyPageKey; no: JourneyPageKey }
  | { external: ExternalSite }

/** A path of the app, or an absolute address for an external destination. */
export function resolveDestination(destination: Destination, facts: RoutingFacts): string {
  if ('page' in destination) return journeyPages[destination.page]
  if ('external' in destination) return externalSites[destination.external].url(facts)
  const holds = destinationConditions[destination.when].holds(facts)
  return journeyPages[holds ? destination.yes : destination.no]
}

/**
 * Pages a client may open from a destination page while the step lasts, without the journey sending them back:
 * the cash-pickup instructions behind the accepted-cash page's "how to claim".
 */
export const companionPages: Partial<Record<JourneyPageKey, readonly JourneyPageKey[]>> = {
  acceptedCash: ['cashPickup'],
}

/** Whether `pathname` is `target` itself or one of its companion pages. */
export function isCompanionOf(target: string, pathname: string): boolean {
  const key = (Object.keys(journeyPages) as JourneyPageKey[]).find((k) => journeyPages[k] === target)
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p)
  return (key ? (companionPages[key] ?? []) : []).some((page) => journeyPages[page] === trim(pathname))
}

/** Every page a destination may lead to (for diagrams and for tests that every page exists as a route). */
export function pagesOf(destination: Destination): JourneyPageKey[] {
  const pages: JourneyPageKey[] =
    'page' in destination
      ? [destination.page]
      : 'external' in destination
        ? []
        : [destination.yes, destination.no]
  return pages.flatMap((page) => [page, ...(companionPages[page] ?? [])])
}

/** The destination in words, e.g. "/application/apply if the client has a first name, else /registration/details". */
export function describeDestination(destination: Destination): string {
  const page = (key: JourneyPageKey) => {
    const companions = (companionPages[key] ?? []).map((k) => journeyPages[k])
    return companions.length ? `${journeyPages[key]} (with ${companions.join(', ')})` : journeyPages[key]
  }
  if ('page' in destination) return page(destination.page)
  if ('external' in destination) return externalSites[destination.external].describe
  const { describe } = destinationConditions[destination.when]
  return `${page(destination.yes)} if ${describe}, else ${page(destination.no)}`
}

export function isExternalTarget(target: string): boolean {
  return /^https?:\/\//.test(target)
}
