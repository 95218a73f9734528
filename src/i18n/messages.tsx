/**
 * English texts live in locale files, loaded lazily, so a second language is a second set of files. `en.json`
 * holds the shell and the content pages; each feature with many texts has its own file under `en/`, merged in
 * under the feature's key. Components read typed messages with `useMessages()`.
 *
 * Every page gets the shell and calculator texts before the first render (`loadMessages`). The texts
 * only some pages read (`src/i18n/bundles.ts`: the account's pages, the registration steps, the application
 * screens, repayment, the legal documents) are loaded by the root route's `beforeLoad` before such a page renders
 * (`ensureMessages`), which keeps them out of the home page's JavaScript (issue 3's 170 KB budget).
 */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react'
import { bundlesFor, type RouteBundle } from './bundles'
import type enAdmin from './locales/en/admin.json'
import type enApplication from './locales/en/application.json'
import type enAuth from './locales/en/auth.json'
import type enCalculator from './locales/en/calculator.json'
import type enContent from './locales/en/content.json'
import type enJourney from './locales/en/journey.json'
import type enLegal from './locales/en/legal.json'
import type enRepay from './locales/en/repay.json'
import type enSandbox from './locales/en/sandbox.json'
import type enTracking from './locales/en/tracking.json'
import type en from './locales/en.json'

export type Messages = typeof en & {
  calculator: typeof enCalculator
  auth: typeof enAuth
  journey: typeof enJourney
  application: typeof enApplication
  repay: typeof enRepay
  legal: typeof enLegal
  admin: typeof enAdmin
  content: typeof enContent
  sandbox: typeof enSandbox
  tracking: typeof enTracking
}
export type Locale = 'en'

const startup = async () => {
  const [base, calculator] = await Promise.all([
    import('./locales/en.json'),
    import('./locales/en/calculator.json'),
  ])
  return { ...base.default, calculator: calculator.default }
}

const bundleLoaders: Record<RouteBundle, () => Promise<unknown>> = {
  auth: () => import('./locales/en/auth.json').then((m) => m.default),
  journey: () => import('./locales/en/journey.json').then((m) => m.default),
  application: () => import('./locales/en/application.json').then((m) => m.default),
  repay: () => import('./locales/en/repay.json').then((m) => m.default),
  legal: () => import('./locales/en/legal.json').then((m) => m.default),
  admin: () => import('./locales/en/admin.json').then((m) => m.default),
  content: () => import('./locales/en/content.json').then((m) => m.default),
  sandbox: () => import('./locales/en/sandbox.json').then((m) => m.default),
  tracking: () => import('./locales/en/tracking.json').then((m) => m.default),
}

// The texts loaded so far. The route bundles are absent until `ensureMessages` loads them; the root route
// awaits that before any page that reads them renders, so a component never sees them missing.
let current: Messages | null = null
let starting: Promise<Messages> | null = null
const listeners = new Set<() => void>()

/** The texts every page needs, loaded once. */
export function loadMessages(_locale: Locale): Promise<Messages> {
  starting ??= startup().then((messages) => {
    current = { ...(messages as Messages), ...current }
    return current
  })
  return starting
}

/** Loads the route bundles not loaded yet and answers the texts with them. */
export async function ensureMessages(bundles: readonly RouteBundle[]): Promise<Messages> {
  const base = await loadMessages('en')
  const missing = bundles.filter((bundle) => !(current && bundle in current))
  if (missing.length === 0) return current ?? base
  const loaded = await Promise.all(missing.map(async (bundle) => [bundle, await bundleLoaders[bundle]()]))
  const next: Messages = { ...(current ?? base), ...Object.fromEntries(loaded) }
  current = next
  for (const listener of listeners) listener()
  return next
}

/** The root route's `beforeLoad`: the texts of the page about to render. */
export const ensureMessagesFor = (pathname: string) => ensureMessages(bundlesFor(pathname))

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const MessagesContext = createContext<Messages | null>(null)

/** `messages`: the texts to start with (tests pass complete ones); bundles loaded later are added. */
export function MessagesProvider({ messages, children }: { messages: Messages; children: ReactNode }) {
  const loaded = useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  )
  const value = loaded && loaded !== messages ? { ...messages, ...loaded } : messages
  return <MessagesContext.Provider value={value}>{children}</MessagesContext.Provider>
}

export function useMessages(): Messages {
  const messages = useContext(MessagesContext)
  if (!messages) throw new Error('useMessages() outside <MessagesProvider>')
  return messages
}

/** Fills `{name}` placeholders: fmt('ERP response {status} {path}', { status: 503, path: '/web/x' }). */
export function fmt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole))
}
