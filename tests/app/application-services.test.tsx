// @vitest-environment happy-dom
/**
 * The calculator's submit routed from machine state (src/app/application-services.ts): a memory router whose
 * home page has `calculatorSubmitBeforeLoad`, followed by `followMachines` with `applicationMachineRoutes`. A
 * SUBMIT moves the app's submit machine while home stays on screen; the mechanism re-runs the guard, which
 * takes the client to the decision's page and tells the machine (ROUTED), so coming home again does not bounce.
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
import type { SubmitTarget } from '../../domain/calculator-rules'
import type { SubmitDecision } from '../../machines/calculator.machine'
import type { ApiClient } from '../../src/api/client'
import {
  type ApplicationServices,
  applicationMachineRoutes,
  calculatorSubmitBeforeLoad,
  createApplicationServices,
} from '../../src/app/application-services'
import { followMachines } from '../../src/app/machine-routing'
import { flush } from '../support/deferred'
import { withCall } from '../support/fake-api'

const decision = (target: SubmitTarget): SubmitDecision => ({
  target,
  amount: 700_000,
  term: 21,
  optionalFee: true,
  promoCode: null,
})

function setup(post: (path: string, body: unknown) => Promise<unknown> = async () => ({ id: 9 })) {
  const api = withCall({ post: vi.fn(post) })
  const refreshJourney = vi.fn()
  const application = createApplicationServices({ api, refreshJourney })
  const root = createRootRouteWithContext<{ application: ApplicationServices }>()({
    component: () => <Outlet />,
  })
  const page = (path: string) =>
    createRoute({ getParentRoute: () => root, path, component: () => <h1>{path}</h1> })
  const home = createRoute({
    getParentRoute: () => root,
    path: '/',
    beforeLoad: calculatorSubmitBeforeLoad,
    component: () => <h1>home</h1>,
  })
  const router = createRouter({
    routeTree: root.addChildren([
      home,
      page('/registration'),
      page('/login'),
      page('/application/apply'),
      page('/application/loading'),
    ]),
    context: { application },
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  const stop = followMachines(router, applicationMachineRoutes(application))
  render(<RouterProvider router={router} />)
  return { api, refreshJourney, application, router, stop }
}

afterEach(() => cleanup())

describe('the calculator submit, routed by its machine', () => {
  it.each([
    ['registration', '/registration'],
    ['login', '/login'],
    ['apply', '/application/apply'],
  ] as const)('%s: home goes to %s, and home is home again afterwards', async (target, path) => {
    const { api, application, router, stop } = setup()
    expect(await screen.findByRole('heading', { name: 'home' })).toBeTruthy()
    act(() => application.submit.send({ type: 'SUBMIT', decision: decision(target) }))
    expect(await screen.findByRole('heading', { name: path })).toBeTruthy()
    expect(application.submit.getSnapshot().value).toBe('idle')
    expect(api.post).not.toHaveBeenCalled()

    // A redirect replaces the history entry it leaves (TanStack's followRedirect), so this is a link back home.
    await act(() => router.navigate({ to: '/' }))
    expect(await screen.findByRole('heading', { name: 'home' })).toBeTruthy()
    await act(flush)
    expect(router.state.location.pathname).toBe('/')
    stop()
  })

  it('the additional loan: the application is made, the journey told, then the loading page', async () => {
    const { api, refreshJourney, application, stop } = setup()
    await screen.findByRole('heading', { name: 'home' })
    act(() =>
      application.submit.send({ type: 'SUBMIT', decision: decision('create-application-then-loading') }),
    )
    expect(await screen.findByRole('heading', { name: '/application/loading' })).toBeTruthy()
    expect(api.post).toHaveBeenCalledTimes(1)
    expect(api.post.mock.calls[0]?.[0]).toBe('/private/client/application')
    expect(api.post.mock.calls[0]?.[1]).toMatchObject({
      loanAmount: { amount: 700_000, currency: 'PHP' },
      term: { value: 21, unit: 'day' },
      consents: { acceptBorrowersAdvantagePackageFee: true },
    })
    expect(refreshJourney).toHaveBeenCalledTimes(1)
    stop()
  })

  it('a failed application keeps the client on home with the failure', async () => {
    const { refreshJourney, application, router, stop } = setup(async () => {
      throw Object.assign(new Error('HTTP 500'), { code: 'erpFailed' })
    })
    await screen.findByRole('heading', { name: 'home' })
    await act(async () => {
      application.submit.send({ type: 'SUBMIT', decision: decision('create-application-then-loading') })
      await flush()
    })
    expect(application.submit.getSnapshot().value).toBe('failed')
    expect(router.state.location.pathname).toBe('/')
    expect(refreshJourney).not.toHaveBeenCalled()
    stop()
  })

  it('a preload only looks: the machine keeps its page until the real navigation', () => {
    const application = createApplicationServices({ api: {} as ApiClient, refreshJourney: () => {} })
    application.submit.send({ type: 'SUBMIT', decision: decision('login') })
    const guard = (preload: boolean) => () =>
      calculatorSubmitBeforeLoad({ context: { application }, location: { pathname: '/' }, preload })
    expect(guard(true)).toThrow()
    expect(application.submit.getSnapshot().value).toEqual({ leaving: 'toLogin' })
    // On the page itself there is nothing to do.
    expect(() =>
      calculatorSubmitBeforeLoad({ context: { application }, location: { pathname: '/login' } }),
    ).not.toThrow()
    expect(guard(false)).toThrow()
    expect(application.submit.getSnapshot().value).toBe('idle')
    expect(guard(false)).not.toThrow()
  })
})
