/**
 * Routes from machine state, the app-level half (docs/product.md, Pitfalls: "Routes from machine state"; issue 14 item 3).
 *
 * A route's `beforeLoad` reads an actor's snapshot and throws `redirect()`: the machine, not the page, decides
 * where the user is. But a guard only runs on a navigation; when the machine moves on while the page stays
 * (a login completes, a session ends, a poll answers a new step, a wait times out), something must run the
 * guards again. That is this file, once for the whole app:
 *
 * ```ts
 * followMachines(router, [
 *   { actor: services.auth, redirectFor: authRedirect },
 *   { actor: services.journey.actor, redirectFor: (snapshot, location) => journeyRedirect(snapshot, location, ...) },
 * ])
 * ```
 *
 * Each registration names an actor and `redirectFor(snapshot, location)`: the answer the route guards give
 * for that location in that state (where `beforeLoad` would send the user, or null/undefined to stay). Write
 * the guard and `redirectFor` from the same pure function, so they cannot disagree. Whenever an actor's
 * snapshot changes, its answer for the page on screen is computed again; when that answer is a redirect and
 * differs from the previous answer for the same page, `router.invalidate()` re-runs the guards, and the
 * guard throws the redirect. An answer that stays the same does not invalidate again, so a machine that
 * ticks or polls cannot loop the router. Answers are compared by value (JSON), so any plain value will do
 * (`{ href }`, `{ to, search }`, a path string).
 *
 * No page calls `navigate` (tests/features/features-do-not-navigate.test.ts): pages send events to machines,
 * guards read snapshots, this file re-runs the guards.
 */
import type { AnyRouter, ParsedLocation } from '@tanstack/react-router'

/** The part of an XState actor this needs: any `Actor`, or a test double. */
export interface RoutedActor<TSnapshot> {
  getSnapshot(): TSnapshot
  subscribe(observer: (snapshot: TSnapshot) => void): { unsubscribe(): void }
}

/** One machine whose state the route guards read. */
export interface MachineRoute<TSnapshot = unknown> {
  actor: RoutedActor<TSnapshot>
  /**
   * Where the route guards send a user at `location` in this state: a redirect (any plain value, compared by
   * JSON), or null/undefined to stay. Pure: no side effects here, they belong in `beforeLoad`.
   */
  redirectFor: (snapshot: TSnapshot, location: ParsedLocation) => unknown
}

/** Keeps the registration's snapshot type while listing machines of different types in one array. */
export function machineRoute<TSnapshot>(route: MachineRoute<TSnapshot>): MachineRoute<TSnapshot> {
  return route
}

const keyOf = (answer: unknown): string | null =>
  answer === null || answer === undefined || answer === false ? null : JSON.stringify(answer)

/**
 * Subscribes to every registered actor and invalidates the router when a guard's answer for the page on
 * screen becomes a (new) redirect. Answers the function that unsubscribes them all.
 */
// biome-ignore lint/suspicious/noExplicitAny: each registration keeps its own snapshot type (see machineRoute)
export function followMachines(router: AnyRouter, routes: readonly MachineRoute<any>[]): () => void {
  const subscriptions = routes.map((route) => {
    const hrefNow = () => router.state.location.href as string
    // The last answer, and the page it was for: another page starts from "stay".
    let last = {
      href: hrefNow(),
      key: keyOf(route.redirectFor(route.actor.getSnapshot(), router.state.location)),
    }
    return route.actor.subscribe((snapshot) => {
      const location = router.state.location
      const key = keyOf(route.redirectFor(snapshot, location))
      const previous = last.href === location.href ? last.key : null
      last = { href: location.href, key }
      if (key !== null && key !== previous) void router.invalidate()
    })
  })
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
}
