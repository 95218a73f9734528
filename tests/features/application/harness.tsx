/** A minimal app around an application screen: messages, services with a scripted API and a journey spy. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { vi } from 'vitest'
import type { PricedOffer } from '../../../domain/contract/pricing-answers'
import type { ApiClient } from '../../../src/api/client'
import { AppServicesProvider } from '../../../src/app/app-context'
import { createApplicationServices } from '../../../src/app/application-services'
import type { AppServices } from '../../../src/app/services'
import { MessagesProvider } from '../../../src/i18n/messages'
import { withCall } from '../../support/fake-api'
import { messages } from '../../support/messages'

const money = (amount: number) => ({ amount })

/** An application as GET /private/client/application/actual answers it (issue 6 server's view). */
export function applicationFor(status: number, overrides: Record<string, unknown> = {}) {
  return {
    id: 42,
    hashedId: 'a42',
    status,
    desiredLoanAmount: money(800_000),
    principalAmount: money(800_000),
    term: { value: 21, unit: 'day' },
    desiredTerm: { value: 30, unit: 'day' },
    loanAmount: { amount: 800_000, currency: 'PHP' },
    offeredAmount: money(500_000),
    borrowersAdvantagePackageFeeConsent: true,
    promoCode: null,
    paymentMethod: 'bank_transfer',
    disbursementType: { type: 'bank_transfer', provider: null },
    cashPickupNumber: null,
    createdAt: '2026-11-01T02:00:00.000Z',
    signedAt: null,
    ...overrides,
  }
}

/** An offer as the server answers it (a PricedOffer: no promo code asked). */
export function offerOf(principal: number, term: number): PricedOffer {
  return {
    principal: money(principal),
    interest: money(Math.round((principal * 2 * term) / 1000)),
    interest_without_discount: money(Math.round((principal * 2 * term) / 1000)),
    processingFee: money(2_500),
    processing_fee_without_discount: money(2_500),
    serviceFee: money(0),
    serviceFee_without_discount: money(0),
    withdrawalFee: money(0),
    invoicingFee: money(0),
    borrowers_advantage_package_fee: money(1_500),
    total: money(principal + Math.round((principal * 2 * term) / 1000) + 4_000),
    total_without_discount: money(principal + Math.round((principal * 2 * term) / 1000) + 4_000),
    discount: { interest: money(0), serviceFee: money(0) },
    apr: 100,
    apr_without_discount: 100,
    endDate: '2026-12-13',
    term,
    extensions: [],
    promo: null,
  }
}

type Handler = (path: string, arg?: unknown, options?: unknown) => unknown

/** An API whose answers the test scripts by path; every call is recorded. */
export function scriptedApi(routes: {
  get?: Record<string, Handler | unknown>
  put?: Handler
  post?: Handler
}) {
  const answer = (table: Record<string, Handler | unknown> | undefined, path: string, arg?: unknown) => {
    if (!table || !(path in table)) throw new Error(`unexpected GET ${path}`)
    const entry = table[path]
    return typeof entry === 'function' ? (entry as Handler)(path, arg) : entry
  }
  const get = vi.fn(async (path: string) => answer(routes.get, path))
  const put = vi.fn(async (path: string, body?: unknown) => routes.put?.(path, body) ?? null)
  const post = vi.fn(
    async (path: string, body?: unknown, options?: unknown) => routes.post?.(path, body, options) ?? null,
  )
  const blob = vi.fn(async (_path: string) => new Blob(['%PDF-1.7'], { type: 'application/pdf' }))
  return { api: withCall({ get, put, post, blob }), get, put, post, blob }
}

export function Harness({
  api,
  journey = vi.fn(),
  services: more = {},
  children,
}: {
  api: ApiClient
  journey?: (event: { type: string }) => void
  /** Further services the screen reads (the auth actor of the code screens). */
  services?: Record<string, unknown>
  children: ReactNode
}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  // The app-level calculator submit (src/app/application-services.ts), made once per harness.
  const [application] = useState(() =>
    createApplicationServices({ api, refreshJourney: () => journey({ type: 'FLOW.REFRESH' }) }),
  )
  const services = {
    api,
    queryClient,
    journey: { actor: { send: journey } },
    application,
    ...more,
  } as unknown as AppServices
  return (
    <MessagesProvider messages={messages}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>
  )
}
