/**
 * English texts live in locale files, loaded lazily before the first render, so a second language is a second
 * set of files. `en.json` holds the shell and content pages; each feature with many texts has its own file
 * under `en/`, merged in under the feature's key, so features grow their texts without touching one big file.
 * Components read typed messages with `useMessages()`.
 */
import { createContext, type ReactNode, useContext } from 'react'
import type enApplication from './locales/en/application.json'
import type enAuth from './locales/en/auth.json'
import type enCalculator from './locales/en/calculator.json'
import type enJourney from './locales/en/journey.json'
import type en from './locales/en.json'

export type Messages = typeof en & {
  calculator: typeof enCalculator
  auth: typeof enAuth
  journey: typeof enJourney
  application: typeof enApplication
}
export type Locale = 'en'

const loaders: Record<Locale, () => Promise<Messages>> = {
  en: async () => {
    const [base, calculator, auth, journey, application] = await Promise.all([
      import('./locales/en.json'),
      import('./locales/en/calculator.json'),
      import('./locales/en/auth.json'),
      import('./locales/en/journey.json'),
      import('./locales/en/application.json'),
    ])
    return {
      ...base.default,
      calculator: calculator.default,
      auth: auth.default,
      journey: journey.default,
      application: application.default,
    }
  },
}

export const loadMessages = (locale: Locale) => loaders[locale]()

const MessagesContext = createContext<Messages | null>(null)

export function MessagesProvider({ messages, children }: { messages: Messages; children: ReactNode }) {
  return <MessagesContext.Provider value={messages}>{children}</MessagesContext.Provider>
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
