/**
 * A minimal app around the servicing screens (My loan, the repayment page, the repay pages, the sandbox
 * checkout): messages, an API answering by "METHOD /path" (tests/support/fake-api.ts), a session of the kind
 * asked for, and the real app shell with its toasts on screen.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { vi } from 'vitest'
import { createActor } from 'xstate'
import { appShellMachine } from '../../../machines/app-shell.machine'
import type { ApiClient } from '../../../src/api/client'
import { AppServicesProvider } from '../../../src/app/app-context'
import type { AppServices } from '../../../src/app/services'
import { MessagesProvider } from '../../../src/i18n/messages'
import { Notices } from '../../../src/ui/shell/notices'
import { messages } from '../../support/messages'

export type SessionKind = 'client' | 'singleLink' | 'visitor' | 'admin'

/** As much of the auth actor as the screens read: its snapshot. */
export function fakeAuth(kind: SessionKind) {
  const state = kind === 'singleLink' ? 'singleLink' : kind === 'visitor' ? 'loggedOut' : 'loggedIn'
  const snapshot = {
    value: state,
    context: {
      user: kind === 'visitor' ? null : { id: 7, firstName: 'Juan' },
      claims: kind === 'visitor' ? null : { type: kind === 'admin' ? 'user' : 'client', mfa: false },
    },
    matches: (value: string) => value === state,
  }
  return { getSnapshot: () => snapshot, subscribe: () => ({ unsubscribe() {} }), send: vi.fn() }
}

export function Harness({
  api,
  session = 'client',
  children,
}: {
  api: ApiClient
  session?: SessionKind
  children: ReactNode
}) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }))
  const [shell] = useState(() => createActor(appShellMachine, { input: {} }).start())
  const [auth] = useState(() => fakeAuth(session))
  const services = {
    api,
    queryClient,
    shell,
    auth,
    journey: { actor: { send: vi.fn() } },
  } as unknown as AppServices
  return (
    <MessagesProvider messages={messages}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          {children}
          <Notices />
        </QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>
  )
}

const money = (amount: number) => ({ amount })

/** GET /private/client/loan/active as the issue 16 server answers it. */
export function activeLoan(overrides: Record<string, unknown> = {}) {
  const parts = (overrides.parts as Record<string, number> | undefined) ?? {
    principal: 500_000,
    interest: 21_000,
    fees: 4_000,
    penalties: 0,
  }
  const due = Object.values(parts).reduce((sum, n) => sum + n, 0)
  return {
    id: 9,
    applicationId: 42,
    status: 4,
    state: 'active',
    loanNumber: 'L00000009',
    paymentReference: '1234567897',
    virtualAccount: '88011234567897',
    createdAt: '2026-11-01T02:00:00.000Z',
    createdAtDate: '2026-11-01',
    principal: money(500_000),
    amountDue: {
      amount: due,
      parts: Object.fromEntries(Object.entries(parts).map(([part, amount]) => [part, money(amount)])),
    },
    credit: money(0),
    paidTotal: money(0),
    contractInterest: money(21_000),
    feeLines: { processingFee: 2_500, borrowersAdvantagePackageFee: 1_500 },
    term: { value: 30, unit: 'day' },
    dueDate: '2026-12-01',
    finalClosingDate: '2027-11-01',
    repaymentInvoice: { dueDate: '2026-12-01', dueDays: 9, amount: money(due) },
    rollovers: [],
    ...overrides,
  }
}

/** One payment of GET /private/client/payments. */
export function paymentOf(id: number, amount: number, allocation: Partial<Record<string, number>> = {}) {
  return {
    id,
    amount,
    channel: 'seven_eleven',
    status: 'posted' as const,
    paidAt: '2026-11-20T03:00:00.000Z',
    postedAt: '2026-11-20T03:00:05.000Z',
    allocation: { penalties: 0, fees: 0, interest: 0, principal: 0, credit: 0, ...allocation },
  }
}

/** A page of payments as the API client answers a paginated contract. */
export const pageOf = (items: unknown[]) => ({
  items,
  page: 1,
  perPage: 20,
  total: items.length,
  count: items.length,
  totalPages: 1,
})

export const LOAN = 'GET /private/client/loan/active'
export const PAYMENTS = 'GET /private/client/payments'
export const INTENTION = 'POST /private/client/payment-intention'
