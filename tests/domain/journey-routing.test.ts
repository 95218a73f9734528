/**
 * The journey rules of spec section 2 ("Flow routing by step", "Registration guard", "Flow guard") and
 * section 4 ("Sandbox"). The step table comes from the journey model's metadata (domain/journey/routing.ts);
 * here it is checked against the spec row by row, one `routes(step, path)` call per row, with the expected
 * paths spelled out as the spec lists them, so a wrong destination in the model fails here.
 */
import { describe, expect, it } from 'vitest'
import { flowSteps } from '../../domain/journey/client-journey.machine'
import { isExternalTarget } from '../../domain/journey/destinations'
import {
  type ApplicationFacts,
  type ClientFacts,
  decideJourney,
  type Flow,
  type FlowStep,
  flowGuard,
  flowReadsApplication,
  type GuardFacts,
  isSandbox,
  journeyPageOf,
  parseFlow,
  type RoutingFacts,
  readFlow,
  registrationGuard,
  routeForFlow,
} from '../../domain/journey/routing'

const client = (over: Partial<ClientFacts> = {}): ClientFacts => ({
  firstName: 'Maria',
  status: 1,
  soldDebt: false,
  closedLoansCount: 0,
  ...over,
})
const application = (over: Partial<ApplicationFacts> = {}): ApplicationFacts => ({
  id: 'app-42',
  disbursementType: 'bank_transfer',
  cashPickupNumber: null,
  ...over,
})
const routing = (over: Partial<RoutingFacts> = {}): RoutingFacts => ({
  client: client(),
  application: application(),
  ...over,
})
const active = (step: FlowStep): Flow => ({ step, status: 'active' })

describe('flow routing by step (spec section 2, one row each)', () => {
  const rows = new Set<FlowStep>()
  /** One row of the spec's table: an active `step` goes to `expected` (the default facts: a named client). */
  const routes = (step: FlowStep, expected: string) => {
    rows.add(step)
    it(`active ${step} -> ${expected}`, () => {
      expect(routeForFlow(active(step), routing())).toBe(expected)
    })
  }

  routes('kontomatik', '/registration/bank-data')
  routes('facebook', 'https://www.facebook.com/?application_id=app-42')
  routes('disbursement_type', '/registration/payment')
  routes('document_upload', '/registration/documents')
  routes('otp_agreement', '/registration/summary')
  routes('manual_page', '/application/manual-verification')
  routes('reject_page', '/application/rejected')
  routes('tmc_page', '/application/accepted')
  routes('loan_page', '/profile/my-loan')
  routes('no_loan_page', '/application/apply')
  routes('new_client_created', '/application/apply')
  routes('pre_approval_page', '/application/apply')
  routes('work_info', '/registration/employment')
  routes('relative_info', '/registration/reference')
  routes('address', '/registration/address')
  routes('veriff', '/registration/document-verification')
  routes('offer_increase', '/application/offer-increase')
  routes('offer_decrease', '/application/offer-decrease')
  // The server's waiting steps (ADR 0012): their status is always 'completed', but were one answered active,
  // the model still names the loading page.
  routes('application_processing', '/application/loading')
  routes('payout_processing', '/application/loading')

  it('every step of the model has a row', () => {
    expect(flowSteps.filter((step) => !rows.has(step))).toEqual([])
  })

  it.each(flowSteps)('completed %s -> the application loading page', (step) => {
    expect(routeForFlow({ step, status: 'completed' }, routing())).toBe('/application/loading')
  })

  describe('tmc_page: accepted, or the accepted-cash page for a cash pickup with a number', () => {
    it.each([
      [
        'cash pickup with a number',
        application({ disbursementType: 'cash_pickup', cashPickupNumber: 'CP-123' }),
        '/application/accepted-cash',
      ],
      [
        'cash pickup without a number',
        application({ disbursementType: 'cash_pickup', cashPickupNumber: null }),
        '/application/accepted',
      ],
      [
        'cash pickup with a blank number',
        application({ disbursementType: 'cash_pickup', cashPickupNumber: '  ' }),
        '/application/accepted',
      ],
      [
        'bank transfer with a stray number',
        application({ disbursementType: 'bank_transfer', cashPickupNumber: 'CP-1' }),
        '/application/accepted',
      ],
      ['e-wallet', application({ disbursementType: 'ewallet' }), '/application/accepted'],
      ['no payout chosen', application({ disbursementType: null }), '/application/accepted'],
      ['no application', null, '/application/accepted'],
    ])('%s', (_, app, expected) => {
      expect(routeForFlow(active('tmc_page'), routing({ application: app }))).toBe(expected)
    })
  })

  describe('no_loan_page: no-loan for a client with closed loans, apply otherwise', () => {
    it.each([
      ['closed loans', client({ closedLoansCount: 3 }), '/profile/no-loan'],
      ['one closed loan', client({ closedLoansCount: 1 }), '/profile/no-loan'],
      ['never had a loan', client({ closedLoansCount: 0 }), '/application/apply'],
      ['profile not loaded', null, '/application/apply'],
    ])('%s', (_, c, expected) => {
      expect(routeForFlow(active('no_loan_page'), routing({ client: c }))).toBe(expected)
    })
  })

  describe('new_client_created: details without a first name, apply with one', () => {
    it.each([
      ['a first name', client({ firstName: 'Jose' }), '/application/apply'],
      ['no first name', client({ firstName: null }), '/registration/details'],
      ['a blank first name', client({ firstName: '   ' }), '/registration/details'],
      ['no profile yet', null, '/registration/details'],
    ])('%s', (_, c, expected) => {
      expect(routeForFlow(active('new_client_created'), routing({ client: c }))).toBe(expected)
    })
  })

  describe('facebook: the external site with the query and the application id', () => {
    it('passes the current query on, with or without its question mark', () => {
      for (const query of ['?utm_source=fb&x=1', 'utm_source=fb&x=1']) {
        const url = new URL(routeForFlow(active('facebook'), routing({ query })))
        expect(url.origin + url.pathname).toBe('https://www.facebook.com/')
        expect(Object.fromEntries(url.searchParams)).toEqual({
          utm_source: 'fb',
          x: '1',
          application_id: 'app-42',
        })
      }
    })

    it('the application id wins over a query parameter of the same name', () => {
      const url = new URL(routeForFlow(active('facebook'), routing({ query: 'application_id=evil' })))
      expect(url.searchParams.getAll('application_id')).toEqual(['app-42'])
    })

    it('goes to a configured address, without an id when there is no application', () => {
      const target = routeForFlow(
        active('facebook'),
        routing({ application: null, facebookUrl: 'https://m.example.ph/flow?src=web', query: 'a=1' }),
      )
      expect(target).toBe('https://m.example.ph/flow?src=web&a=1')
      expect(isExternalTarget(target)).toBe(true)
    })
  })

  it('only facebook leaves the app', () => {
    for (const step of flowSteps) {
      expect(isExternalTarget(routeForFlow(active(step), routing())), step).toBe(step === 'facebook')
    }
  })
})

describe('parseFlow', () => {
  it('accepts the spec names', () => {
    expect(parseFlow({ step: 'veriff', status: 'completed', extra: 1 })).toEqual({
      step: 'veriff',
      status: 'completed',
    })
  })

  it.each([
    ['an unknown step', { step: 'lottery', status: 'active' }],
    ['an unknown status', { step: 'veriff', status: 'pending' }],
    ['a missing status', { step: 'veriff' }],
    ['null', null],
    ['a string', 'veriff'],
  ])('refuses %s', (_, raw) => {
    expect(parseFlow(raw)).toBeNull()
  })

  it('readFlow names what it did not recognise: the step and status only, cut short', () => {
    expect(readFlow({ step: 'lottery', status: 'active', firstName: 'Maria' })).toEqual({
      type: 'unrecognised',
      answer: { step: 'lottery', status: 'active' },
    })
    expect(readFlow({ step: 'veriff', status: 'pending' })).toEqual({
      type: 'unrecognised',
      answer: { step: 'veriff', status: 'pending' },
    })
    expect(readFlow({ step: 42 })).toEqual({ type: 'unrecognised', answer: { step: null, status: null } })
    expect(readFlow('veriff')).toEqual({ type: 'unrecognised', answer: { step: null, status: null } })
    const long = readFlow({ step: 'x'.repeat(500), status: 'active' })
    expect(long.type === 'unrecognised' && long.answer.step).toBe('x'.repeat(64))
    expect(readFlow({ step: 'veriff', status: 'active' })).toEqual({
      type: 'flow',
      flow: { step: 'veriff', status: 'active' },
    })
  })
})

describe('flowReadsApplication: the flows whose routing needs the actual application', () => {
  const reading = new Set<FlowStep>()
  const readsApplication = (step: FlowStep) => {
    reading.add(step)
    it(`active ${step} reads the application; completed does not`, () => {
      expect(flowReadsApplication(active(step))).toBe(true)
      expect(flowReadsApplication({ step, status: 'completed' })).toBe(false)
    })
  }
  // The cash-pickup choice, and the facebook step's application id.
  readsApplication('tmc_page')
  readsApplication('facebook')

  it('no other step does', () => {
    for (const step of flowSteps) expect(flowReadsApplication(active(step)), step).toBe(reading.has(step))
  })
})

describe('sandbox (spec section 4)', () => {
  it.each([
    [false, false, false],
    [true, false, true],
    [false, true, true],
    [true, true, true],
  ])('admin %s, qa cookie %s -> %s', (admin, qaDisableFlow, expected) => {
    expect(isSandbox({ admin, qaDisableFlow })).toBe(expected)
  })
})

const facts = (over: Partial<GuardFacts> = {}): GuardFacts => ({
  sandbox: false,
  loggedIn: true,
  client: client(),
  flow: null,
  storedQuery: null,
  singleLinkCookie: false,
  ...over,
})

describe('registration guard (spec section 2)', () => {
  it('sandbox: the sandbox starts instead of the normal flow, even for a visitor', () => {
    const expected = { redirect: null, effects: [{ type: 'startSandbox' }], followFlow: false }
    expect(registrationGuard(facts({ sandbox: true }))).toEqual(expected)
    expect(registrationGuard(facts({ sandbox: true, loggedIn: false, client: null }))).toEqual(expected)
  })

  it('not logged in: registration', () => {
    expect(registrationGuard(facts({ loggedIn: false, client: null, flow: active('work_info') }))).toEqual({
      redirect: { to: '/registration' },
      effects: [],
      followFlow: false,
    })
  })

  it.each([
    ['no first name', client({ firstName: null })],
    ['a blank first name', client({ firstName: ' ' })],
  ])('%s: registration details, before any step rule', (_, c) => {
    expect(registrationGuard(facts({ client: c, flow: active('work_info'), storedQuery: 'a=1' }))).toEqual({
      redirect: { to: '/registration/details' },
      effects: [],
      followFlow: false,
    })
  })

  it('a just-signed-up client whose phone is not verified stays on the sign-up page (its code step)', () => {
    const unverified = client({ firstName: null, phoneVerified: false })
    expect(registrationGuard(facts({ client: unverified, flow: active('new_client_created') }))).toEqual({
      redirect: { to: '/registration' },
      effects: [],
      followFlow: false,
    })
  })

  it('logged in without a profile yet: load the profile and the flow step first, no redirect', () => {
    expect(registrationGuard(facts({ client: null, flow: active('work_info') }))).toEqual({
      redirect: null,
      effects: [{ type: 'loadProfileAndFlow' }],
      followFlow: false,
    })
  })

  /** The steps with a rule of their own in the registration guard, each added by its own test below. */
  const guarded = new Set<FlowStep>()
  /** A step rule: active `step` goes to `to`; completed, it leaves the page to the step table (loading). */
  const guardRoutes = (step: FlowStep, to: string) => {
    guarded.add(step)
    it(`${step}: ${to}`, () => {
      expect(registrationGuard(facts({ flow: active(step) }))).toEqual({
        redirect: { to },
        effects: [],
        followFlow: false,
      })
    })
    it(`a completed ${step} leaves it to the step table (the loading page)`, () => {
      expect(registrationGuard(facts({ flow: { step, status: 'completed' }, storedQuery: 'a=1' }))).toEqual({
        redirect: null,
        effects: [],
        followFlow: true,
      })
    })
  }

  guardRoutes('work_info', '/registration/employment')
  guardRoutes('relative_info', '/registration/reference')
  guardRoutes('address', '/registration/address')

  it('work info: employment with the stored query, then the cookie is removed', () => {
    expect(
      registrationGuard(facts({ flow: active('work_info'), storedQuery: '?utm_source=sms&ref=7' })),
    ).toEqual({
      redirect: { to: '/registration/employment', search: 'utm_source=sms&ref=7' },
      effects: [{ type: 'removeCookie', name: 'analytics-query' }],
      followFlow: false,
    })
  })

  it.each([
    null,
    '',
    '?',
  ])('work info without a stored query (%j): employment, nothing to remove', (storedQuery) => {
    expect(registrationGuard(facts({ flow: active('work_info'), storedQuery }))).toEqual({
      redirect: { to: '/registration/employment' },
      effects: [],
      followFlow: false,
    })
  })

  it('any other step leaves it to the step table', () => {
    for (const step of flowSteps.filter((s) => !guarded.has(s))) {
      expect(registrationGuard(facts({ flow: active(step) })), step).toEqual({
        redirect: null,
        effects: [],
        followFlow: true,
      })
    }
  })

  it('no flow known yet leaves it to the step table', () => {
    expect(registrationGuard(facts())).toEqual({ redirect: null, effects: [], followFlow: true })
  })
})

describe('flow guard (spec section 2)', () => {
  it('unauthenticated with the single-link cookie: login', () => {
    expect(flowGuard(facts({ loggedIn: false, client: null, singleLinkCookie: true }))).toEqual({
      redirect: { to: '/login' },
      effects: [],
      followFlow: false,
    })
  })

  it('unauthenticated otherwise: progress 30 % and registration', () => {
    expect(flowGuard(facts({ loggedIn: false, client: null }))).toEqual({
      redirect: { to: '/registration' },
      effects: [{ type: 'setProgress30' }],
      followFlow: false,
    })
  })

  it('logged in without a profile yet: load the profile and the flow step first', () => {
    expect(flowGuard(facts({ client: null }))).toEqual({
      redirect: null,
      effects: [{ type: 'loadProfileAndFlow' }],
      followFlow: false,
    })
  })

  it('sold debt: the debt-sold page, before the blocked rule', () => {
    for (const status of [1, 2]) {
      expect(flowGuard(facts({ client: client({ soldDebt: true, status }) }))).toEqual({
        redirect: { to: '/profile/debt-sold' },
        effects: [],
        followFlow: false,
      })
    }
  })

  it('blocked client: logged out', () => {
    expect(flowGuard(facts({ client: client({ status: 2 }) }))).toEqual({
      redirect: { to: '/login' },
      effects: [{ type: 'logout' }],
      followFlow: false,
    })
  })

  it.each([1, 3, 4, 5])('status %i: load the loan and the active schedule, then the step table', (status) => {
    expect(flowGuard(facts({ client: client({ status }), flow: active('loan_page') }))).toEqual({
      redirect: null,
      effects: [{ type: 'loadLoanAndSchedule' }],
      followFlow: true,
    })
  })
})

describe('journey pages (spec section 4: registration, application and my-loan pages)', () => {
  it.each([
    ['/registration', 'registration'],
    ['/registration/', 'registration'],
    ['/registration/employment', 'registration'],
    ['/application/apply', 'application'],
    ['/application/loading', 'application'],
    ['/profile/my-loan', 'myLoan'],
    ['/profile/my-loan/', 'myLoan'],
    ['/', null],
    ['/registrations', null],
    ['/application', null],
    ['/profile', null],
    ['/profile/no-loan', null],
    ['/login', null],
  ])('%s -> %s', (path, page) => {
    expect(journeyPageOf(path)).toBe(page)
  })
})

describe('decideJourney: guard first, then the step table', () => {
  const decide = (pathname: string, guard: Partial<GuardFacts>, search = '', r = routing()) =>
    decideJourney({ pathname, search, guard: facts(guard), routing: r })

  it('pages outside the journey are left alone', () => {
    expect(decide('/faq', { flow: active('work_info') })).toEqual({ redirect: null, effects: [] })
    expect(decide('/profile/no-loan', { loggedIn: false, client: null })).toEqual({
      redirect: null,
      effects: [],
    })
  })

  it('the sandbox replaces the flow on every journey page', () => {
    expect(decide('/registration/address', { sandbox: true, flow: active('veriff') })).toEqual({
      redirect: null,
      effects: [{ type: 'startSandbox' }],
    })
    expect(decide('/application/apply', { sandbox: true, flow: active('veriff') })).toEqual({
      redirect: null,
      effects: [],
    })
  })

  it('a registration guard redirect wins over the step table', () => {
    expect(
      decide('/registration/documents', { client: client({ firstName: null }), flow: active('veriff') }),
    ).toEqual({
      redirect: { to: '/registration/details' },
      effects: [],
    })
  })

  it('a companion page of the destination is allowed while the step lasts, and only for that destination', () => {
    const cash = routing({
      application: application({ disbursementType: 'cash_pickup', cashPickupNumber: 'CP-123' }),
    })
    const transfer = routing({ application: application({ disbursementType: 'bank_transfer' }) })
    const tmc = { flow: active('tmc_page') }
    expect(decide('/application/cash-pickup', tmc, '', cash).redirect).toBeNull()
    expect(decide('/application/accepted-cash', tmc, '', cash).redirect).toBeNull()
    expect(decide('/application/apply', tmc, '', cash).redirect).toEqual({ to: '/application/accepted-cash' })
    expect(decide('/application/cash-pickup', tmc, '', transfer).redirect).toEqual({
      to: '/application/accepted',
    })
    expect(decide('/application/accepted-cash', tmc, '', transfer).redirect).toEqual({
      to: '/application/accepted',
    })
  })

  it('/flow, the journey entry, takes each user where the flow guard and the step table say', () => {
    expect(journeyPageOf('/flow')).toBe('flow')
    expect(decide('/flow', { loggedIn: false, client: null })).toEqual({
      redirect: { to: '/registration' },
      effects: [{ type: 'setProgress30' }],
    })
    expect(decide('/flow', { loggedIn: false, client: null, singleLinkCookie: true }).redirect).toEqual({
      to: '/login',
    })
    expect(decide('/flow', { flow: active('veriff') }).redirect).toEqual({
      to: '/registration/document-verification',
    })
    expect(decide('/flow', { flow: { step: 'payout_processing', status: 'completed' } }).redirect).toEqual({
      to: '/application/loading',
    })
    expect(
      decide('/flow', { client: client({ soldDebt: true }), flow: active('loan_page') }).redirect,
    ).toEqual({
      to: '/profile/debt-sold',
    })
    // Not known yet: the page waits (the machine route moves it once the flow is in); the sandbox stays.
    expect(decide('/flow', { flow: null }).redirect).toBeNull()
    expect(decide('/flow', { sandbox: true, flow: active('veriff') })).toEqual({
      redirect: null,
      effects: [],
    })
  })

  it('otherwise the active step decides', () => {
    expect(decide('/registration/details', { flow: active('veriff') })).toEqual({
      redirect: { to: '/registration/document-verification' },
      effects: [],
    })
    expect(decide('/application/apply', { flow: active('loan_page') })).toEqual({
      redirect: { to: '/profile/my-loan' },
      effects: [{ type: 'loadLoanAndSchedule' }],
    })
  })

  it('a completed step goes to the loading page, and the loading page stays', () => {
    const completed: Flow = { step: 'otp_agreement', status: 'completed' }
    expect(decide('/registration/summary', { flow: completed }).redirect).toEqual({
      to: '/application/loading',
    })
    expect(decide('/application/loading', { flow: completed }).redirect).toBeNull()
  })

  it('a step just completed on its own page goes to the loading page', () => {
    expect(decide('/registration/employment', { flow: { step: 'work_info', status: 'completed' } })).toEqual({
      redirect: { to: '/application/loading' },
      effects: [],
    })
  })

  it('no flow known yet: no redirect', () => {
    expect(decide('/registration/address', {})).toEqual({ redirect: null, effects: [] })
  })

  it('the page already being loaded is not a redirect (trailing slash included)', () => {
    expect(decide('/registration/documents/', { flow: active('document_upload') }).redirect).toBeNull()
    expect(decide('/profile/my-loan', { flow: active('loan_page') })).toEqual({
      redirect: null,
      effects: [{ type: 'loadLoanAndSchedule' }],
    })
  })

  it('on employment already, the stored query is neither passed nor removed', () => {
    expect(decide('/registration/employment', { flow: active('work_info'), storedQuery: 'a=1' })).toEqual({
      redirect: null,
      effects: [],
    })
    expect(decide('/registration/address', { flow: active('work_info'), storedQuery: 'a=1' })).toEqual({
      redirect: { to: '/registration/employment', search: 'a=1' },
      effects: [{ type: 'removeCookie', name: 'analytics-query' }],
    })
  })

  it('facebook is an external redirect carrying the current query', () => {
    expect(decide('/application/apply', { flow: active('facebook') }, '?utm_source=fb')).toEqual({
      redirect: { href: 'https://www.facebook.com/?utm_source=fb&application_id=app-42' },
      effects: [{ type: 'loadLoanAndSchedule' }],
    })
  })

  it('a flow guard redirect wins over the step table', () => {
    expect(decide('/application/apply', { client: client({ status: 2 }), flow: active('tmc_page') })).toEqual(
      {
        redirect: { to: '/login' },
        effects: [{ type: 'logout' }],
      },
    )
    expect(decide('/profile/my-loan', { loggedIn: false, client: null, flow: null })).toEqual({
      redirect: { to: '/registration' },
      effects: [{ type: 'setProgress30' }],
    })
  })
})
