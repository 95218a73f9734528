/**
 * The public pages rendered to HTML by the server (issue 21 item 2, docs/decisions/0040): the same routes,
 * components and texts as the browser app, at a visitor's first visit (no session, no cookie), with the public
 * data the server hands over already in the query cache. Built by `vite build --ssr` (vite.ssr.config.ts) and
 * loaded by server/http/prerender.ts; the browser hydrates the HTML with the same query cache (src/main.tsx).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Query, QueryClient } from '@tanstack/react-query'
import { createMemoryHistory } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { prerender } from 'react-dom/static'
import type { CalculatorConfig } from '../domain/calculator-config'
import type { SiteContent } from '../domain/contract/content-public'
import type { Environment } from '../domain/environment'
import type { Offer } from '../domain/offer'
import { channelsOfKind } from '../domain/payments/channels'
import type { Contact } from '../domain/reference'
import { isLoggedIn } from '../machines/auth.machine'
import { AppRoot } from './app/app-root'
import { readServerCookiesFrom } from './app/cookies'
import { announceDeployment, DEPLOYMENT_QUERY_KEY } from './app/deployment'
import { sessionKnown } from './app/journey-services'
import { createAppServices } from './app/services'
import { defaultOfferRequest, preloadCalculator } from './features/calculator/calculator-preload'
import { loadMessages } from './i18n/messages'
import { type AppRouter, createAppRouter, routerContextOf } from './router'
import { contactsQueryKey } from './ui/errors/care-email'
import { siteContentQueryKey } from './ui/layout/site-content'

export { defaultOfferRequest }

/**
 * The public pages the server renders (issue 21 item 2): home with the calculator, the content pages, the
 * repayment channels' pages, the documents. Pages that need a session, or change with each visitor, are not.
 */
export function publicPaths(): string[] {
  const channelPages = (kind: 'ewallet' | 'payment-center', base: string) =>
    channelsOfKind(kind).map((channel) => `${base}/${channel.slug}`)
  return [
    '/',
    '/about',
    '/how-to-apply',
    '/faq',
    '/contact',
    '/repay',
    '/repay/bank-transfer',
    '/repay/ewallets',
    ...channelPages('ewallet', '/repay/ewallets'),
    '/repay/payment-centers',
    ...channelPages('payment-center', '/repay/payment-centers'),
    '/documents',
    '/documents/terms',
    '/documents/policy',
  ]
}

/** What the server reads from its own services for a render: the answers of the public calls the pages make. */
export interface PrerenderData {
  calculatorConfig: CalculatorConfig
  /** The offer for `defaultOfferRequest(calculatorConfig)`; null when the calculator is disabled. */
  offer: Offer | null
  siteContent: SiteContent
  contacts: Contact[]
  /** GET /public/environment's answer: the sandbox banner is part of the page (no shift when the app asks). */
  environment: Environment
}

export interface RenderedPage {
  /** The markup of #root. */
  html: string
  /** The page's <title>. */
  title: string
  /** The query cache to hydrate with: JSON of [query key, data] pairs. */
  state: string
  /** The status the router settled on: 200, or 404 for its not-found page. */
  status: number
}

/** The title the page's route gives in its head. */
const titleOf = (router: AppRouter) =>
  (router.state.matches.at(-1)?.meta ?? []).find((meta) => meta?.title)?.title ?? 'Hiram'

/** The answered queries as [key, data] pairs the browser puts back (src/main.tsx), nothing of their bookkeeping. */
const answeredQueries = (queryClient: QueryClient) =>
  JSON.stringify(
    queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.status === 'success')
      .map((query) => [query.queryKey, query.state.data]),
  )

export async function render(url: string, data: PrerenderData): Promise<RenderedPage> {
  const services = createAppServices()
  try {
    const { queryClient } = services
    preloadCalculator(queryClient, data.calculatorConfig, data.offer)
    queryClient.setQueryData(siteContentQueryKey, data.siteContent)
    queryClient.setQueryData(contactsQueryKey, data.contacts)
    queryClient.setQueryData(DEPLOYMENT_QUERY_KEY, data.environment)
    const router = createAppRouter(routerContextOf(services), createMemoryHistory({ initialEntries: [url] }))
    const messages = await loadMessages('en')
    await router.load()
    const html = renderToString(<AppRoot services={services} router={router} messages={messages} />)
    const { matches } = router.state
    const title = titleOf(router)
    const status = matches.some((match) => match.status === 'notFound' || match._notFound)
      ? 404
      : matches.some((match) => match.status !== 'success')
        ? 500
        : 200
    // The cache as [key, data] pairs the browser puts back: no hydration code in the browser's bundle.
    return { html, title, state: answeredQueries(queryClient), status }
  } finally {
    services.stop()
  }
}

/** What the server gives the render of a client's page: the request's session, and its own API to ask. */
export interface SessionRenderInput {
  /** The session token of the request's `auth.token` cookie. */
  token: string
  /** The request's `Cookie` header (the journey reads a few cookies). */
  cookies: string
  /** The server's own API handler: the page asks what the browser would, with the session's token. */
  fetch: typeof globalThis.fetch
  environment: Environment
  /** Aborted when the server stops waiting: the render stops at its next step, and its calls with it. */
  signal?: AbortSignal
}

/** How long the session and its journey may take to be known; the server's deadline for the page is shorter. */
const SESSION_SETTLE_MS = 5_000

/** Renders, then fetches what the render asked for, until nothing more is asked (or this many renders). */
const MAX_RENDER_PASSES = 5

/** A signal aborted when either is. */
function combined(first: AbortSignal | null | undefined, second: AbortSignal): AbortSignal {
  return first ? AbortSignal.any([first, second]) : second
}

/** The markup of a tree once every lazy part in it has loaded (a boundary left unresolved would not hydrate). */
async function markupOf(tree: ReactNode): Promise<string> {
  const { prelude } = await prerender(tree)
  const reader = prelude.getReader()
  const decoder = new TextDecoder()
  let html = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return html + decoder.decode()
    html += decoder.decode(value, { stream: true })
  }
}

/** A query the render built and nobody has fetched: components ask for data in render, the server fetches it. */
function unasked(query: Query): boolean {
  if (query.state.status !== 'pending' || query.state.fetchStatus !== 'idle') return false
  const { enabled } = query.options as { enabled?: boolean | ((query: Query) => boolean) }
  return (typeof enabled === 'function' ? enabled(query) : enabled) !== false
}

/**
 * A logged-in client's page as HTML (docs/decisions/0052): the same app as the browser's, with the session of
 * the request, asking the server's own API in process. The render is repeated while it asks for data (each
 * component's queries, then what they lead to) and lazy parts load, then sent with the answers, so the browser
 * hydrates it as it is. Null when the page is not one to send: the session ends or the router sends the
 * request elsewhere, a call fails, or it never settles; the browser then renders the page itself, as before.
 */
export function renderSession(url: string, input: SessionRenderInput): Promise<RenderedPage | null> {
  // Every cookie the app reads during this render (the journey's, the calculator's) is this request's.
  return requestCookies.run(input.cookies, () => renderForSession(url, input))
}

/** The `Cookie` header of the session render in progress (renders of several requests interleave). */
const requestCookies = new AsyncLocalStorage<string>()
readServerCookiesFrom(() => requestCookies.getStore())

async function renderForSession(url: string, input: SessionRenderInput): Promise<RenderedPage | null> {
  const { signal } = input
  // The server's own API, asked no more once the server has stopped waiting for the page.
  const fetchUntilLate: typeof globalThis.fetch = (request, init) =>
    signal?.aborted
      ? Promise.reject(signal.reason)
      : input.fetch(request, signal ? { ...init, signal: combined(init?.signal, signal) } : init)
  const services = createAppServices({ token: input.token, fetch: fetchUntilLate, sessionPage: true })
  try {
    const { queryClient } = services
    queryClient.setQueryData(DEPLOYMENT_QUERY_KEY, input.environment)
    announceDeployment(input.environment)
    const router = createAppRouter(routerContextOf(services), createMemoryHistory({ initialEntries: [url] }))
    const [messages] = await Promise.all([loadMessages('en'), sessionKnown(services, SESSION_SETTLE_MS)])
    if (signal?.aborted) return null
    await router.load()
    if (signal?.aborted) return null
    const { resolvedLocation, location, matches } = router.state
    // A redirect (no session, another step of the journey, the login page): the browser follows it itself.
    if (!resolvedLocation || resolvedLocation.href !== location.href) return null
    if (matches.length === 0 || matches.some((match) => match.status !== 'success')) return null
    if (!isLoggedIn(services.auth.getSnapshot())) return null
    let html = ''
    for (let pass = 0; ; pass++) {
      // `prerender` waits for the lazy parts (the page's own code, the client's extras) to load and render.
      html = await markupOf(<AppRoot services={services} router={router} messages={messages} />)
      const waiting = queryClient.getQueryCache().getAll().filter(unasked)
      if (waiting.length === 0) break
      if (pass === MAX_RENDER_PASSES - 1 || signal?.aborted) return null
      await Promise.all(waiting.map((query) => query.fetch().catch(() => undefined)))
    }
    const failed = queryClient
      .getQueryCache()
      .getAll()
      .some((query) => query.state.status === 'error')
    if (failed || services.shell.getSnapshot().context.failure) return null
    return { html, title: titleOf(router), state: answeredQueries(queryClient), status: 200 }
  } finally {
    services.stop()
  }
}
