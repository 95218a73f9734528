/** A minimal app around a calculator component: messages, services with a scripted API, a query client. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { vi } from 'vitest'
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import type { Offer } from '../../../domain/offer'
import { type ApiClient, ApiError } from '../../../src/api/client'
import { AppServicesProvider } from '../../../src/app/app-context'
import { type ApplicationServices, createApplicationServices } from '../../../src/app/application-services'
import type { AppServices } from '../../../src/app/services'
import { MessagesProvider } from '../../../src/i18n/messages'
import { withCall } from '../../support/fake-api'
import { messages } from '../../support/messages'

const money = (amount: number) => ({ amount })

/** An offer shaped like the API's, with a 20% interest discount when `discounted`. */
export function offerFor(
  amount: number,
  term: number,
  { discounted = false, packageFee = 1_500 } = {},
): Offer {
  const interestBefore = Math.round((amount * 19 * term) / 10_000)
  const interest = discounted ? interestBefore - Math.round(interestBefore * 0.2) : interestBefore
  const processing = Math.round(amount * 0.008)
  return {
    principal: money(amount),
    interest: money(interest),
    interest_without_discount: money(interestBefore),
    processingFee: money(processing),
    processing_fee_without_discount: money(processing),
    serviceFee: money(0),
    serviceFee_without_discount: money(0),
    withdrawalFee: money(0),
    invoicingFee: money(0),
    borrowers_advantage_package_fee: money(packageFee),
    total: money(amount + interest + processing + packageFee),
    total_without_discount: money(amount + interestBefore + processing + packageFee),
    discount: { interest: money(interestBefore - interest), serviceFee: money(0) },
    apr: 100,
    apr_without_discount: 120,
    endDate: '2026-12-22',
    term,
    extensions: [],
  }
}

export interface ScriptedApi {
  api: ApiClient
  get: ReturnType<typeof vi.fn>
  put: ReturnType<typeof vi.fn>
  post: ReturnType<typeof vi.fn>
  /** Paths asked so far, with their query string. */
  calls: string[]
  failConfig: number
}

/** Answers the calculator's calls like the server would; `failConfig` makes the next N config loads fail. */
export function scriptedApi(options: { discounted?: boolean; client?: unknown } = {}): ScriptedApi {
  const calls: string[] = []
  const state: ScriptedApi = {} as ScriptedApi
  state.failConfig = 0
  const get = vi.fn(async (path: string, opts?: { query?: Record<string, string> }) => {
    calls.push(opts?.query ? `${path}?${new URLSearchParams(opts.query)}` : path)
    if (path === '/public/config/calculator') {
      if (state.failConfig > 0) {
        state.failConfig -= 1
        throw new ApiError(429, `/web${path}`, 'tooManyRequests', 'Too many requests', [])
      }
      return defaultCalculatorConfig
    }
    if (path === '/private/client') return options.client
    const match = /\/(\d+)\/(\d+)$/.exec(path)
    if (match) {
      const offer = offerFor(Number(match[1]), Number(match[2]), { discounted: options.discounted })
      const code = opts?.query?.promo_name
      const status = code === 'HIRAM10' ? 'valid' : 'expired'
      return { ...offer, promo: code ? { code, status, applied: status === 'valid' } : null }
    }
    throw new Error(`unexpected GET ${path}`)
  })
  const put = vi.fn(async (_path: string, body: { promoCode: string }) => {
    const code = body.promoCode
    if (code === 'HIRAM10') return { code, status: 'valid', valid: true }
    if (code === 'OLDPROMO') return { code, status: 'expired', valid: false }
    return { code, status: 'unknown', valid: false }
  })
  const post = vi.fn(async () => ({ id: 1 }))
  Object.assign(state, { api: withCall({ get, put, post }), get, put, post, calls })
  return state
}

export function Harness({
  api,
  application: given,
  children,
}: {
  api: ApiClient
  /** The app-level calculator submit (src/app/application-services.ts); one per harness when not given. */
  application?: ApplicationServices
  children: ReactNode
}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const [own] = useState(() => given ?? createApplicationServices({ api, refreshJourney: () => {} }))
  const services = { api, queryClient, application: own } as unknown as AppServices
  return (
    <MessagesProvider messages={messages}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>
  )
}
