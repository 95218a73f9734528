// @vitest-environment happy-dom
/**
 * Lead links in the real app (issue 5 item 7, docs/decisions/0014): the real route tree, messages and pages,
 * with the API answered by the test. A bad `lead_id` or `redirected-from-affiliates` shows the 404 page; a good
 * link remembers the lead in the leadId cookie, prefills the sign-up with the lead's phone and e-mail and sends
 * the lead id (and the campaign) with the sign-up; a failed lead fetch leaves an empty form and no error.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, createRouter, RouterProvider } from '@tanstack/react-router'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { LEAD_COOKIE } from '../../domain/affiliate'
import { appShellMachine } from '../../machines/app-shell.machine'
import { type AuthUser, authMachine, type SessionActorInput } from '../../machines/auth.machine'
import { ApiError } from '../../src/api/client'
import { AppServicesProvider } from '../../src/app/app-context'
import { createFlowSyncActor } from '../../src/app/flow-sync-actor'
import type { AppServices } from '../../src/app/services'
import { loadMessages, MessagesProvider } from '../../src/i18n/messages'
import { routeTree } from '../../src/route-tree.gen'
import { NotFoundPage } from '../../src/ui/errors/not-found-page'
import { withCall } from '../support/fake-api'

const LEAD_ID = '3f1c2a9e-8b7d-4c6e-9a5b-1d2e3f4a5b6c'
const lead = {
  leadId: LEAD_ID,
  firstName: 'Juan',
  middleName: null,
  lastName: 'Dela Cruz',
  documentType: 'SSS',
  clientIdentificator: '3412345678',
  dateOfBirth: '1990-05-17',
  gender: 'male',
  civilStatus: 'single',
  email: 'juan@example.ph',
  phone: '09171234567',
}

const stops: (() => void)[] = []
let cookieWrites: string[] = []
beforeEach(() => {
  // Every cookie the app writes, with its attributes (document.cookie only reads back name=value).
  cookieWrites = []
  let proto = Object.getPrototypeOf(document)
  while (proto && !Object.getOwnPropertyDescriptor(proto, 'cookie')) proto = Object.getPrototypeOf(proto)
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'cookie')!
  vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    cookieWrites.push(value)
    descriptor.set!.call(document, value)
  })
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  for (const stop of stops.splice(0)) stop()
  // biome-ignore lint/suspicious/noDocumentCookie: clearing the test's cookies
  for (const name of [LEAD_COOKIE, 'affiliate']) document.cookie = `${name}=; Max-Age=0; Path=/`
})

type Get = (path: string) => Promise<unknown>

/** A client token as the session machine reads it (the signature is the server's business). */
function clientToken(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const claims = { sid: 's', sub: '7', type: 'client', mfa: false, sl: false, exp: Date.now() / 1000 + 900 }
  return `${part({ alg: 'HS256' })}.${part(claims)}.sig`
}

/** The whole app at `path` (logged out, or as a client), with GET answered by `get` and POST recorded. */
async function openApp(path: string, get: Get, asClient = false) {
  const posts: { path: string; body: unknown }[] = []
  const gets: string[] = []
  const api = withCall({
    get: vi.fn(async (p: string) => {
      gets.push(p)
      return get(p)
    }),
    post: vi.fn(async (p: string, body: unknown) => {
      posts.push({ path: p, body })
      return { nextCodeAt: null }
    }),
  })
  const auth = createActor(
    authMachine.provide({
      actors: {
        loadUser: fromPromise<AuthUser, SessionActorInput>(async () => ({
          id: 7,
          email: 'juan@example.ph',
          firstName: null,
        })),
      },
    }),
    { input: {} },
  ).start()
  if (asClient) auth.send({ type: 'TOKEN.RECEIVED', token: clientToken() })
  const shell = createActor(appShellMachine, { input: {} }).start()
  const journey = createFlowSyncActor({ getFlow: () => new Promise(() => {}) })
  stops.push(
    () => journey.stop(),
    () => auth.stop(),
    () => shell.stop(),
  )
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const journeyRouting = { actor: journey, readCookie: () => null, effects: {} }
  const services = { api, auth, shell, queryClient, journey: journeyRouting } as unknown as AppServices
  const router = createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [path] }),
    context: services,
    defaultNotFoundComponent: NotFoundPage,
  })
  const messages = await loadMessages('en')
  await act(async () => {
    render(
      <MessagesProvider messages={messages}>
        <AppServicesProvider services={services}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </AppServicesProvider>
      </MessagesProvider>,
    )
  })
  return { posts, gets, router }
}

const answerLead: Get = async (path) => {
  if (path === `/public/affiliates/leads/${LEAD_ID}`) return lead
  if (path === '/public/contact') return []
  throw new ApiError(404, `/web${path}`, 'notFound', 'Not found.', [])
}

const phoneInput = () => screen.getByLabelText(/Mobile number/) as HTMLInputElement
const emailInput = () => screen.getByLabelText(/E-mail/) as HTMLInputElement
const leadCookieWrites = () => cookieWrites.filter((c) => c.startsWith(`${LEAD_COOKIE}=`))

describe('lead link search validation', () => {
  const bad = [
    `/registration?lead_id=not-a-uuid&redirected-from-affiliates=true`,
    `/registration?lead_id=${LEAD_ID}&redirected-from-affiliates=1`,
    `/registration?lead_id=${LEAD_ID}&redirected-from-affiliates=false`,
    `/registration?lead_id=${LEAD_ID}&redirected-from-affiliates=yes`,
    `/registration?lead_id=${LEAD_ID}`,
    '/registration?redirected-from-affiliates=true',
    `/registration?lead_id=${LEAD_ID}x&redirected-from-affiliates=true`,
  ]
  for (const path of bad) {
    it(`shows the 404 page for ${path.slice('/registration'.length)}`, async () => {
      const { gets } = await openApp(path, answerLead)
      expect(await screen.findByRole('heading', { name: 'This page could not be found' })).toBeTruthy()
      expect(screen.queryByLabelText(/Mobile number/)).toBeNull()
      expect(leadCookieWrites()).toEqual([])
      expect(gets.filter((p) => p.startsWith('/public/affiliates'))).toEqual([])
    })
  }

  it('keeps /registration without a lead an ordinary sign-up', async () => {
    const { gets } = await openApp('/registration?utm_source=acme', answerLead)
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy()
    expect(phoneInput().value).toBe('')
    expect(gets.filter((p) => p.startsWith('/public/affiliates'))).toEqual([])
  })
})

describe('a good lead link', () => {
  it('remembers the lead for 259200 s, prefills phone and e-mail and sends the lead id', async () => {
    // The campaign cookie the app keeps from the affiliate's URL (spec section 2).
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays an earlier page view
    document.cookie = `affiliate=${encodeURIComponent(JSON.stringify({ utm_source: 'acme' }))}; Path=/`
    const { posts, gets } = await openApp(
      `/registration?lead_id=${LEAD_ID.toUpperCase()}&redirected-from-affiliates=true`,
      answerLead,
    )
    await waitFor(() => expect(phoneInput().value).toBe('09171234567'))
    expect(emailInput().value).toBe('juan@example.ph')
    expect(gets).toContain(`/public/affiliates/leads/${LEAD_ID}`)
    expect(leadCookieWrites()).toHaveLength(1)
    expect(leadCookieWrites()[0]).toMatch(new RegExp(`^leadId=${LEAD_ID}; Max-Age=259200; Path=/;`))

    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'secret123' } })
    fireEvent.input(screen.getByLabelText('Repeat the password'), { target: { value: 'secret123' } })
    fireEvent.click(screen.getByLabelText(/I have read and accept the terms/))
    fireEvent.click(screen.getByLabelText(/processes my personal data/))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create my account' }))
    })
    await waitFor(() => expect(posts).toHaveLength(1))
    expect(posts[0]!.path).toBe('/public/client')
    expect(posts[0]!.body).toMatchObject({
      mobilePhone: { number: '09171234567' },
      email: 'juan@example.ph',
      leadId: LEAD_ID,
      campaign: { utm_source: 'acme' },
    })
    // The lead is used up: the cookie is removed.
    expect(leadCookieWrites().at(-1)).toMatch(/^leadId=; Max-Age=0/)
  })

  it('does not overwrite what the visitor already typed', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await openApp(`/registration?lead_id=${LEAD_ID}&redirected-from-affiliates=true`, async (path) => {
      if (path.startsWith('/public/affiliates')) await held
      return answerLead(path)
    })
    fireEvent.input(emailInput(), { target: { value: 'mine@example.ph' } })
    await act(async () => release())
    await waitFor(() => expect(phoneInput().value).toBe('09171234567'))
    expect(emailInput().value).toBe('mine@example.ph')
  })

  it('ignores a failed lead fetch silently and still sends the lead id', async () => {
    const { posts } = await openApp(
      `/registration?lead_id=${LEAD_ID}&redirected-from-affiliates=true`,
      async (path) => {
        if (path.startsWith('/public/affiliates'))
          throw new ApiError(404, `/web${path}`, 'notFound', 'Lead not found.', [])
        return answerLead(path)
      },
    )
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy()
    expect(phoneInput().value).toBe('')
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.input(phoneInput(), { target: { value: '09179876543' } })
    fireEvent.input(emailInput(), { target: { value: 'other@example.ph' } })
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'secret123' } })
    fireEvent.input(screen.getByLabelText('Repeat the password'), { target: { value: 'secret123' } })
    fireEvent.click(screen.getByLabelText(/I have read and accept the terms/))
    fireEvent.click(screen.getByLabelText(/processes my personal data/))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create my account' }))
    })
    await waitFor(() => expect(posts).toHaveLength(1))
    expect(posts[0]!.body).toMatchObject({ leadId: LEAD_ID, mobilePhone: { number: '09179876543' } })
  })
})

describe('the registration details step after a lead sign-up', () => {
  it("prefills the details form from the client's own lead, the birth date as MM/DD/YYYY", async () => {
    const { gets } = await openApp(
      '/registration/details',
      async (path) => {
        if (path === '/private/client/affiliate-lead') return lead
        if (path === '/private/client') return { firstName: null, email: 'juan@example.ph' }
        if (path === '/private/client/registration') return {}
        return answerLead(path)
      },
      true,
    )
    await waitFor(() => expect((screen.getByLabelText(/^First name/) as HTMLInputElement).value).toBe('Juan'))
    expect((screen.getByLabelText(/^Last name/) as HTMLInputElement).value).toBe('Dela Cruz')
    expect((screen.getByLabelText(/Date of birth/) as HTMLInputElement).value).toBe('05/17/1990')
    expect((screen.getByLabelText('Male') as HTMLInputElement).checked).toBe(true)
    expect(gets).toContain('/private/client/affiliate-lead')
    expect(gets.filter((p) => p.startsWith('/public/affiliates'))).toEqual([])
  })

  it('shows an empty form when the client has no lead', async () => {
    await openApp(
      '/registration/details',
      async (path) => {
        if (path === '/private/client') return { firstName: null, email: 'juan@example.ph' }
        if (path === '/private/client/registration') return {}
        return answerLead(path)
      },
      true,
    )
    await waitFor(() => expect(screen.getByLabelText(/^First name/)).toBeTruthy())
    expect((screen.getByLabelText(/^First name/) as HTMLInputElement).value).toBe('')
    expect((screen.getByLabelText(/E-mail/) as HTMLInputElement).value).toBe('juan@example.ph')
  })
})
