// @vitest-environment happy-dom
/**
 * Routes from the flow-sync machine's state (issue 5 item 2): a tiny TanStack memory router whose registration,
 * application and my-loan routes carry `journeyBeforeLoad`, and whose pages are plain headings that never
 * call `navigate`. Every move below comes from the machine's state through `beforeLoad`, either on a
 * navigation or when `followMachines` with the journey's registration (as src/main.tsx does) re-runs the guards after
 * a poll answer. A step the app does not know shows the router's error page.
 */
import {
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import type { ApplicationFacts } from '../../domain/journey/destinations'
import { type Flow, type FlowAnswer, readFlow, type SessionFacts } from '../../domain/journey/routing'
import { flowSyncMachine } from '../../machines/flow-sync.machine'
import {
  type JourneyRouting,
  journeyBeforeLoad,
  journeyMachineRoute,
  journeyRedirect,
  UnrecognisedFlowError,
} from '../../src/app/journey-routing'
import { followMachines } from '../../src/app/machine-routing'

const clientFacts: SessionFacts = {
  admin: false,
  qaDisableFlow: false,
  client: { firstName: 'Maria', status: 1, soldDebt: false, closedLoansCount: 0 },
}
const bankTransfer: ApplicationFacts = {
  id: 'app-9',
  disbursementType: 'bank_transfer',
  cashPickupNumber: null,
}

function Page({ path }: { path: string }) {
  return <h1>{path}</h1>
}

function buildRouter(journey: JourneyRouting, start: string) {
  const root = createRootRouteWithContext<{ journey: JourneyRouting }>()({ component: () => <Outlet /> })
  const layout = (path: string, children: string[]) => {
    const parent = createRoute({
      getParentRoute: () => root,
      path,
      beforeLoad: journeyBeforeLoad,
      component: () => <Outlet />,
    })
    return parent.addChildren(
      children.map((child) =>
        createRoute({
          getParentRoute: () => parent,
          path: child,
          component: () => <Page path={child === '/' ? `/${path}` : `/${path}/${child}`} />,
        }),
      ),
    )
  }
  const routeTree = root.addChildren([
    layout('registration', [
      '/',
      'details',
      'employment',
      'reference',
      'address',
      'documents',
      'document-verification',
    ]),
    layout('application', ['apply', 'loading', 'accepted', 'accepted-cash', 'cash-pickup']),
    createRoute({
      getParentRoute: () => root,
      path: 'profile/my-loan',
      beforeLoad: journeyBeforeLoad,
      component: () => <Page path="/profile/my-loan" />,
    }),
    createRoute({ getParentRoute: () => root, path: 'faq', component: () => <Page path="/faq" /> }),
    createRoute({ getParentRoute: () => root, path: 'login', component: () => <Page path="/login" /> }),
  ])
  return createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [start] }),
    context: { journey },
    defaultErrorComponent: ({ error }) => <h1>{`error: ${(error as Error).name}`}</h1>,
  })
}

const stops: (() => void)[] = []
afterEach(() => {
  cleanup()
  for (const stop of stops.splice(0)) stop()
})

/** A journey actor whose flow fetches the test answers, with spies for every guard effect. */
function journeyWith(
  session: { loggedIn: boolean; facts: SessionFacts } | null,
  cookies: Record<string, string> = {},
  application: ApplicationFacts | null = bankTransfer,
) {
  const answers: ((answer: FlowAnswer) => void)[] = []
  const actor = createActor(
    flowSyncMachine.provide({
      actors: {
        fetchFlow: fromPromise<FlowAnswer, void>(
          () => new Promise<FlowAnswer>((resolve) => answers.push(resolve)),
        ),
        fetchApplication: fromPromise<ApplicationFacts | null, void>(async () => application),
      },
    }),
  ).start()
  stops.push(() => actor.stop())
  if (session) actor.send({ type: 'SESSION.CHANGED', ...session })
  const effects = {
    startSandbox: vi.fn(),
    setProgress30: vi.fn(),
    removeCookie: vi.fn(),
    logout: vi.fn(),
    loadProfileAndFlow: vi.fn(),
    loadLoanAndSchedule: vi.fn(),
  }
  const journey: JourneyRouting = { actor, readCookie: (name) => cookies[name] ?? null, effects }
  return {
    journey,
    effects,
    actor,
    /** The server's answer, read against the model as the app reads it. */
    async answer(flow: Flow | { step: string; status: string }) {
      await act(async () => {
        answers.at(-1)?.(readFlow(flow))
        await new Promise((resolve) => setTimeout(resolve, 0))
      })
    },
  }
}

async function show(journey: JourneyRouting, start: string) {
  const router = buildRouter(journey, start)
  stops.push(followMachines(router, [journeyMachineRoute(journey)]))
  render(<RouterProvider router={router} />)
  await screen.findByRole('heading')
  return router
}

async function expectPage(router: ReturnType<typeof buildRouter>, path: string, search = '') {
  expect(await screen.findByRole('heading', { name: path })).toBeTruthy()
  expect(router.state.location.pathname).toBe(path)
  expect(router.state.location.searchStr).toBe(search)
}

describe('journey routes from machine state', () => {
  it('a client on the wrong registration step lands on the step the server named', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts })
    await j.answer({ step: 'document_upload', status: 'active' })
    const router = await show(j.journey, '/registration/details')
    await expectPage(router, '/registration/documents')
  })

  it('a poll answer moves the page on screen, with no page calling navigate', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts })
    await j.answer({ step: 'document_upload', status: 'active' })
    const router = await show(j.journey, '/registration/documents')
    await expectPage(router, '/registration/documents')

    j.actor.send({ type: 'FLOW.REFRESH' })
    await j.answer({ step: 'otp_agreement', status: 'completed' })
    await expectPage(router, '/application/loading')

    j.actor.send({ type: 'FLOW.REFRESH' })
    await j.answer({ step: 'tmc_page', status: 'active' })
    await expectPage(router, '/application/accepted')
    expect(j.effects.loadLoanAndSchedule).toHaveBeenCalled()
  })

  it('logging out sends a registration page back to /registration; pages outside the journey stay', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts })
    await j.answer({ step: 'relative_info', status: 'active' })
    const router = await show(j.journey, '/registration/reference')
    await expectPage(router, '/registration/reference')
    act(() =>
      j.actor.send({ type: 'SESSION.CHANGED', loggedIn: false, facts: { ...clientFacts, client: null } }),
    )
    await expectPage(router, '/registration')

    const visitor = journeyWith({ loggedIn: false, facts: { ...clientFacts, client: null } })
    cleanup()
    await expectPage(await show(visitor.journey, '/faq'), '/faq')
  })

  it('a reload before the session is known stays, then follows the session once it is', async () => {
    const j = journeyWith(null)
    const router = await show(j.journey, '/registration/address')
    await expectPage(router, '/registration/address')
    act(() => j.actor.send({ type: 'SESSION.CHANGED', loggedIn: true, facts: clientFacts }))
    await j.answer({ step: 'veriff', status: 'active' })
    await expectPage(router, '/registration/document-verification')
  })

  it('a visitor on my loan goes to registration and the progress is set to 30 %', async () => {
    const j = journeyWith({ loggedIn: false, facts: { ...clientFacts, client: null } })
    const router = await show(j.journey, '/profile/my-loan')
    await expectPage(router, '/registration')
    expect(j.effects.setProgress30).toHaveBeenCalledTimes(1)
  })

  it('work info passes the stored analytics query to employment, then removes the cookie', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts }, { 'analytics-query': 'utm_source=sms' })
    await j.answer({ step: 'work_info', status: 'active' })
    const router = await show(j.journey, '/registration/address')
    await expectPage(router, '/registration/employment', '?utm_source=sms')
    expect(j.effects.removeCookie).toHaveBeenCalledWith({ type: 'removeCookie', name: 'analytics-query' })
  })

  it('preloading a journey link performs no effect', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts }, { 'analytics-query': 'utm_source=sms' })
    await j.answer({ step: 'work_info', status: 'active' })
    const router = buildRouter(j.journey, '/faq')
    await router.load()
    await router.preloadRoute({ to: '/registration/address' as never }).catch(() => undefined)
    expect(j.effects.removeCookie).not.toHaveBeenCalled()
    expect(router.state.location.pathname).toBe('/faq')
  })

  it('a blocked client is logged out from an application page', async () => {
    const facts = { ...clientFacts, client: { ...clientFacts.client!, status: 2 } }
    const j = journeyWith({ loggedIn: true, facts })
    await j.answer({ step: 'tmc_page', status: 'active' })
    const router = buildRouter(j.journey, '/application/accepted')
    await router.load()
    expect(router.state.location.pathname).toBe('/login')
    expect(j.effects.logout).toHaveBeenCalledTimes(1)
  })

  it('in the sandbox an admin stays where they are', async () => {
    const j = journeyWith({ loggedIn: true, facts: { ...clientFacts, admin: true, client: null } })
    const router = await show(j.journey, '/registration/address')
    await expectPage(router, '/registration/address')
    expect(j.effects.startSandbox).toHaveBeenCalled()
  })

  it('the facebook step leaves the app with the query and the application id', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts })
    await j.answer({ step: 'facebook', status: 'active' })
    expect(
      journeyRedirect(
        j.actor.getSnapshot(),
        { pathname: '/application/apply', searchStr: '?utm_source=fb' },
        {
          analyticsQuery: null,
          singleLink: false,
        },
      ),
    ).toEqual({ href: 'https://www.facebook.com/?utm_source=fb&application_id=app-9' })
  })

  it('a cash pickup with its number lands on the accepted-cash page (the application is loaded for it), which may open the cash-pickup page', async () => {
    const pickup = { id: 'app-9', disbursementType: 'cash_pickup', cashPickupNumber: 'CP0000000009' }
    const j = journeyWith({ loggedIn: true, facts: clientFacts }, {}, pickup)
    await j.answer({ step: 'payout_processing', status: 'completed' })
    const router = await show(j.journey, '/application/loading')
    await expectPage(router, '/application/loading')
    j.actor.send({ type: 'FLOW.REFRESH' })
    await j.answer({ step: 'tmc_page', status: 'active' })
    await expectPage(router, '/application/accepted-cash')
    // Its "how to claim" page is a companion of the step: the journey lets the client stay there.
    await router.navigate({ to: '/application/cash-pickup' })
    await expectPage(router, '/application/cash-pickup')
  })

  it('a step the app does not know shows the error page on a journey page, and a known one recovers', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts })
    await j.answer({ step: 'document_upload', status: 'active' })
    const router = await show(j.journey, '/registration/documents')
    await expectPage(router, '/registration/documents')

    j.actor.send({ type: 'FLOW.REFRESH' })
    await j.answer({ step: 'lottery', status: 'active' })
    expect(await screen.findByRole('heading', { name: 'error: UnrecognisedFlowError' })).toBeTruthy()

    j.actor.send({ type: 'FLOW.REFRESH' })
    await j.answer({ step: 'veriff', status: 'active' })
    await expectPage(router, '/registration/document-verification')
  })

  it('pages outside the journey are not affected by an unrecognised step', async () => {
    const j = journeyWith({ loggedIn: true, facts: clientFacts })
    await j.answer({ step: 'lottery', status: 'active' })
    const router = await show(j.journey, '/faq')
    await expectPage(router, '/faq')
    expect(() =>
      journeyBeforeLoad({ context: { journey: j.journey }, location: { pathname: '/application/apply' } }),
    ).toThrow(UnrecognisedFlowError)
  })
})
