/**
 * The texts of the payment reminders (server/locales/en/reminders.json): polite, factual, never threatening
 * (domain/loan/reminders.ts `bannedPhrasesIn` is checked on every one by tests/domain/reminders.test.ts). They
 * live under server/ because the server may not import the browser app's locale files (biome, ADR 0022).
 */
import { formatDate, formatPhpText } from '../../../domain/format'
import { reminderStage } from '../../../domain/loan/reminders'
import { paymentReferenceOf } from '../../../domain/payments/reference'
import texts from '../../locales/en/reminders.json' with { type: 'json' }

export const reminderTexts = texts

/** Where a client pays (the repayment page); printed without a scheme, as the other notices do. */
export const REPAY_LINK = 'hiram.ph/profile/repayment'

export interface ReminderFacts {
  kind: string
  clientId: number
  loanNumber: string
  /** Centavos due. */
  amount: number
  dueDate: string
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole)

/** The SMS body, or the e-mail's subject and body, of a reminder. */
export function reminderMessage(
  channel: 'sms' | 'email',
  f: ReminderFacts,
): { subject?: string; body: string } {
  const t = texts[reminderStage(f.kind)]
  const values = {
    amount: formatPhpText(f.amount),
    loanNumber: f.loanNumber,
    dueDate: formatDate(f.dueDate),
    reference: paymentReferenceOf(f.clientId),
    link: REPAY_LINK,
  }
  if (channel === 'sms') return { body: fill(t.sms, values) }
  return { subject: fill(t.subject, values), body: fill(t.email, values) }
}
