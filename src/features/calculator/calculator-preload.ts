/**
 * The calculator at its default offer, painted before the app runs (issue 21 item 2, ADR 0040). The server
 * renders the home page with the calculator configuration and the offer for the default request in the query
 * cache; the browser hydrates with the same cache, so the calculator starts where the server's HTML stands
 * (ready, offer shown) instead of loading. No preload (a page the server did not render, a logged-in client):
 * the calculator starts as it always did, from `loading`.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { CalculatorConfig } from '../../../domain/calculator-config'
import type { OfferRequest } from '../../../domain/contract/pricing'
import type { Offer } from '../../../domain/offer'
import {
  type CalculatorClient,
  type CalculatorContext,
  calculatorMachine,
  initialCalculatorContext,
  offerRequestOf,
  requestKeyOf,
  withConfig,
} from '../../../machines/calculator.machine'

export const calculatorConfigQueryKey = ['public', 'calculator', 'config'] as const
export const calculatorOfferQueryKey = (requestKey: string) => ['public', 'calculator', 'offer', requestKey]

/** A visitor's calculator once the configuration is known, before any input or cookie. */
function defaultContext(config: CalculatorConfig, client?: Partial<CalculatorClient>): CalculatorContext {
  return withConfig(initialCalculatorContext({ initial: null, client }), config)
}

/** The request the home page's calculator prices first: what the server prices to render it. */
export function defaultOfferRequest(config: CalculatorConfig): { key: string; request: OfferRequest } | null {
  const context = defaultContext(config)
  if (context.disabled) return null
  return { key: requestKeyOf(context), request: offerRequestOf(context) }
}

/** Puts the configuration and the default offer where `preloadedSnapshot` finds them. */
export function preloadCalculator(queryClient: QueryClient, config: CalculatorConfig, offer: Offer | null) {
  queryClient.setQueryData(calculatorConfigQueryKey, config)
  const first = defaultOfferRequest(config)
  if (first && offer) queryClient.setQueryData(calculatorOfferQueryKey(first.key), offer)
}

/**
 * The machine's snapshot at the default offer when the cache holds it (a visitor only: a client's offer is
 * their own), else undefined. Pure data from the cache, so the server and the hydrating browser agree.
 */
export function preloadedSnapshot(queryClient: QueryClient, client?: Partial<CalculatorClient>) {
  if (client?.loggedIn) return undefined
  const config = queryClient.getQueryData<CalculatorConfig>(calculatorConfigQueryKey)
  if (!config) return undefined
  const context = defaultContext(config, client)
  if (context.disabled) return calculatorMachine.resolveState({ value: { ready: 'disabled' }, context })
  const offer = queryClient.getQueryData<Offer>(calculatorOfferQueryKey(requestKeyOf(context)))
  if (!offer) return undefined
  return calculatorMachine.resolveState({
    value: { ready: 'loaded' },
    context: { ...context, offer, offerKey: requestKeyOf(context), offerError: false, refusal: null },
  })
}

/**
 * Forgets the preload once a calculator has started from it: a calculator mounted later (back on the home page
 * an hour on) loads today's configuration and prices rather than start from the page's first answers.
 */
export function forgetPreload(queryClient: QueryClient) {
  queryClient.removeQueries({ queryKey: ['public', 'calculator'] })
}
