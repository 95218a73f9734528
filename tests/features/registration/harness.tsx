/** A minimal app around a registration form: messages, services with a scripted API and journey, a query client. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import { type ApiClient, ApiError, type Violation } from '../../../src/api/client'
import { AppServicesProvider } from '../../../src/app/app-context'
import type { AppServices } from '../../../src/app/services'
import { MessagesProvider } from '../../../src/i18n/messages'
import { withCall } from '../../support/fake-api'
import { messages } from '../../support/messages'

type Handler = (body: unknown, options?: { query?: Record<string, unknown> }) => unknown

/** Answers by "METHOD /path"; anything else fails the test loudly. Records every call. */
export function scriptedApi(routes: Record<string, Handler | unknown>) {
  const calls: { method: string; path: string; body?: unknown; query?: unknown }[] = []
  const answer = (method: string) =>
    vi.fn(async (path: string, ...rest: unknown[]) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : rest[0]
      const options = (method === 'GET' || method === 'DELETE' ? rest[0] : rest[1]) as
        | { query?: Record<string, unknown> }
        | undefined
      calls.push({ method, path, body, query: options?.query })
      const key = `${method} ${path}`
      if (!(key in routes)) throw new Error(`unexpected ${key}`)
      const route = routes[key]
      return typeof route === 'function' ? (route as Handler)(body, options) : route
    })
  const get = answer('GET')
  const api = withCall({
    get,
    post: answer('POST'),
    put: answer('PUT'),
    delete: answer('DELETE'),
    // A paginated list is scripted as its items (a GET like any other) and answered as the one page holding them.
    page: vi.fn(async (path: string, options?: { query?: Record<string, unknown> }) => {
      const items = await get(path, options)
      if (!Array.isArray(items)) return items
      return {
        items,
        page: 1,
        perPage: items.length,
        total: items.length,
        count: items.length,
        totalPages: 1,
      }
    }),
  })
  return { api, calls }
}

export const violation = (path: string, ...violations: Violation[]) =>
  new ApiError(400, `/web${path}`, 'validationFailed', 'Validation failed', violations)

export function renderWithApp(api: ApiClient, ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const journey = { actor: { send: vi.fn() } }
  const auth = { send: vi.fn() }
  const services = { api, queryClient, journey, auth } as unknown as AppServices
  const view = render(
    <MessagesProvider messages={messages}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>,
  )
  return { ...view, journey, auth, queryClient }
}

export function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } })
}

export function submit(name: string | RegExp = /continue/i) {
  fireEvent.click(screen.getByRole('button', { name }))
}

/** The error element of a control: the `data-error-key` element its aria-describedby points at. */
export function errorKeyOf(label: string | RegExp): string | null {
  const control = screen.getByLabelText(label)
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean)
  for (const id of ids) {
    const element = document.getElementById(id)
    const key = element?.getAttribute('data-error-key')
    if (key) {
      if (control.getAttribute('aria-invalid') !== 'true') throw new Error('error without aria-invalid')
      return key
    }
  }
  return null
}

export async function expectErrorKey(label: string | RegExp, key: string) {
  await waitFor(() => {
    if (errorKeyOf(label) !== key) throw new Error(`${String(label)}: ${errorKeyOf(label)} is not ${key}`)
  })
}
