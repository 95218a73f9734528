/**
 * The public pages rendered to HTML by the server (issue 21 item 2, docs/decisions/0040): the same routes,
 * components and texts as the browser app, at a visitor's first visit (no session, no cookie), with the public
 * data the server hands over already in the query cache. Built by `vite build --ssr` (vite.ssr.config.ts) and
 * loaded by server/http/prerender.ts; the browser hydrates the HTML with the same query cache (src/main.tsx).
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import type { CalculatorConfig } from '../domain/calculator-config'
import type { SiteContent } from '../domain/contract/content-public'
import type { Environment } from '../domain/environment'
import type { Offer } from '../domain/offer'
import { channelsOfKind } from '../domain/payments/channels'
import type { Contact } from '../domain/reference'
import { AppServicesProvider } from './app/app-context'
import { DEPLOYMENT_QUERY_KEY } from './app/deployment'
import { createAppServices } from './app/services'
import { defaultOfferRequest, preloadCalculator } from './features/calculator/calculator-preload'
import { loadMessages, MessagesProvider } from './i18n/messages'
import { createAppRouter } from './router'
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

export async function render(url: string, data: PrerenderData): Promise<RenderedPage> {
  const services = createAppServices()
  try {
    const { queryClient } = services
    preloadCalculator(queryClient, data.calculatorConfig, data.offer)
    queryClient.setQueryData(siteContentQueryKey, data.siteContent)
    queryClient.setQueryData(contactsQueryKey, data.contacts)
    queryClient.setQueryData(DEPLOYMENT_QUERY_KEY, data.environment)
    const router = createAppRouter(
      {
        api: services.api,
        queryClient,
        shell: services.shell,
        auth: services.auth,
        journey: services.journey,
        application: services.application,
      },
      createMemoryHistory({ initialEntries: [url] }),
    )
    const messages = await loadMessages('en')
    await router.load()
    const html = renderToString(
      <StrictMode>
        <MessagesProvider messages={messages}>
          <AppServicesProvider services={services}>
            <QueryClientProvider client={queryClient}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </AppServicesProvider>
        </MessagesProvider>
      </StrictMode>,
    )
    const { matches } = router.state
    const title = (matches.at(-1)?.meta ?? []).find((meta) => meta?.title)?.title ?? 'Hiram'
    const status = matches.some((match) => match.status === 'notFound' || match._notFound)
      ? 404
      : matches.some((match) => match.status !== 'success')
        ? 500
        : 200
    // The cache as [key, data] pairs the browser puts back (src/main.tsx): the answers, nothing of the queries'
    // bookkeeping, and no hydration code in the browser's bundle.
    const entries = queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.status === 'success')
      .map((query) => [query.queryKey, query.state.data])
    return { html, title, state: JSON.stringify(entries), status }
  } finally {
    services.auth.stop()
    services.shell.stop()
    services.journey.actor.stop()
  }
}
