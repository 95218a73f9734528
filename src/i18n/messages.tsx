/**
 * English texts live in one locale file, loaded lazily before the first render, so a second language is a
 * second file. Components read typed messages with `useMessages()`.
 */
import { createContext, type ReactNode, useContext } from 'react'
import type en from './locales/en.json'

export type Messages = typeof en
export type Locale = 'en'

const loaders: Record<Locale, () => Promise<Messages>> = {
  en: () => import('./locales/en.json').then((m) => m.default),
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
