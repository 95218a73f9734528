// @vitest-environment happy-dom
/**
 * followMachines (src/app/machine-routing.ts): a tiny memory router whose /private page has a guard reading a
 * machine's snapshot. The machine moves while the page stays; the mechanism re-runs the guard, which redirects.
 * An answer that does not change does not invalidate again (no loops on ticking or polling machines).
 */
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  type ParsedLocation,
  RouterProvider,
  redirect,
} from '@tanstack/react-router'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, createMachine } from 'xstate'
import { followMachines, machineRoute } from '../../src/app/machine-routing'

const door = createMachine({
  id: 'door',
  initial: 'open',
  states: {
    open: { on: { CLOSE: 'closed', TICK: { target: 'open', reenter: true } } },
    closed: { on: { OPEN: 'open', TICK: { target: 'closed', reenter: true } } },
  },
})
type DoorSnapshot = ReturnType<ReturnType<typeof createActor<typeof door>>['getSnapshot']>

/** The one pure answer both the guard and the mechanism read. */
const doorRedirect = (snapshot: DoorSnapshot, location: Pick<ParsedLocation, 'pathname'>) =>
  snapshot.matches('closed') && location.pathname === '/private' ? { href: '/outside' } : null

function setup() {
  const actor = createActor(door).start()
  const root = createRootRoute({ component: () => <Outlet /> })
  const page = (path: string, beforeLoad?: (o: { location: ParsedLocation }) => void) =>
    createRoute({ getParentRoute: () => root, path, beforeLoad, component: () => <h1>{path}</h1> })
  const router = createRouter({
    routeTree: root.addChildren([
      page('/private', ({ location }) => {
        const answer = doorRedirect(actor.getSnapshot(), location)
        if (answer) throw redirect({ href: answer.href, replace: true })
      }),
      page('/outside'),
    ]),
    history: createMemoryHistory({ initialEntries: ['/private'] }),
  })
  return { actor, router }
}

afterEach(() => cleanup())

describe('followMachines', () => {
  it('re-runs the guards when a machine makes the page on screen wrong, and stops when unsubscribed', async () => {
    const { actor, router } = setup()
    const invalidate = vi.spyOn(router, 'invalidate')
    const stop = followMachines(router, [machineRoute({ actor, redirectFor: doorRedirect })])
    render(<RouterProvider router={router} />)
    expect(await screen.findByRole('heading', { name: '/private' })).toBeTruthy()
    act(() => actor.send({ type: 'TICK' }))
    expect(invalidate).not.toHaveBeenCalled()

    act(() => actor.send({ type: 'CLOSE' }))
    expect(await screen.findByRole('heading', { name: '/outside' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/outside')
    expect(invalidate).toHaveBeenCalledTimes(1)
    stop()
    act(() => actor.send({ type: 'OPEN' }))
    act(() => actor.send({ type: 'CLOSE' }))
    expect(invalidate).toHaveBeenCalledTimes(1)
    actor.stop()
  })

  it('invalidates once per new answer: a machine that keeps ticking on the same answer does not loop', async () => {
    const { actor, router } = setup()
    // A guard that does not (yet) agree: the answer says go, the route stays.
    const stubborn = { redirectFor: (s: DoorSnapshot) => (s.matches('closed') ? '/somewhere' : null) }
    const invalidate = vi.spyOn(router, 'invalidate').mockResolvedValue(undefined)
    followMachines(router, [{ actor, ...stubborn }])
    await router.load()
    act(() => actor.send({ type: 'CLOSE' }))
    act(() => actor.send({ type: 'TICK' }))
    act(() => actor.send({ type: 'TICK' }))
    expect(invalidate).toHaveBeenCalledTimes(1)
    act(() => actor.send({ type: 'OPEN' }))
    expect(invalidate).toHaveBeenCalledTimes(1)
    act(() => actor.send({ type: 'CLOSE' }))
    expect(invalidate).toHaveBeenCalledTimes(2)
    actor.stop()
  })
})
