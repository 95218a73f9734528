/**
 * Payment reminders (issue 18, item 2), pure: which reminder a loan gets on a business day, when it may be sent,
 * and what its text may never say. The server queues them in one set-based statement and sends them from a job
 * (server/services/servicing/reminders.ts); docs/decisions/0028-reminders-and-collection-contacts.md.
 *
 * The law: SEC MC 18 s.2019 forbids contacting a borrower before 6 AM or after 10 PM (Manila), contacting anyone
 * but the borrower and the references they named, threats and shaming; RA 11765 makes abusive collection a crime.
 * Hiram goes further than the circular: reminders go to the borrower only (never a reference), and never outside
 * the window, not even past 15 days overdue where the circular would allow it.
 */
import type { ServicingConfig } from './servicing-config'

export type ReminderTerms = ServicingConfig['reminders']

/** The lawful window, Manila wall-clock hours: from 06:00 (inclusive) until 22:00 (exclusive). */
export const LAWFUL_FROM_HOUR = 6
export const LAWFUL_UNTIL_HOUR = 22

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
/** Manila is UTC+8 all year (no daylight saving since 1978): see domain/pricing/manila-date.ts. */
const MANILA_OFFSET_MS = 8 * HOUR_MS

export type ReminderKind = `before_${number}` | 'due_today' | `after_${number}`

export interface ReminderDay {
  kind: ReminderKind
  /** Days from the business day to the due date: 3 three days before, 0 on it, -7 a week after. */
  dueDays: number
}

/** Every reminder the configuration asks for, each with the dueDays it is sent at (none when disabled). */
export function reminderDays(terms: ReminderTerms): ReminderDay[] {
  if (!terms.enabled) return []
  return [
    ...terms.daysBeforeDue.map((d) => ({ kind: `before_${d}` as const, dueDays: d })),
    ...(terms.onDueDate ? [{ kind: 'due_today' as const, dueDays: 0 }] : []),
    ...terms.daysAfterDue.map((d) => ({ kind: `after_${d}` as const, dueDays: -d })),
  ]
}

/** The reminder due on a business day with `dueDays` to go (negative: past due), or null. */
export function reminderFor(terms: ReminderTerms, dueDays: number): ReminderKind | null {
  return reminderDays(terms).find((r) => r.dueDays === dueDays)?.kind ?? null
}

/** Which text a reminder kind uses. */
export function reminderStage(kind: string): 'before' | 'due_today' | 'after' {
  if (kind === 'due_today') return 'due_today'
  return kind.startsWith('before_') ? 'before' : 'after'
}

/** The Manila wall-clock time of an instant, in ms since Manila midnight. */
function manilaTimeOfDay(instant: Date): number {
  const shifted = instant.getTime() + MANILA_OFFSET_MS
  return ((shifted % DAY_MS) + DAY_MS) % DAY_MS
}

/** Whether an instant is inside the lawful window (Manila 06:00-22:00). */
export function insideLawfulWindow(instant: Date): boolean {
  const t = manilaTimeOfDay(instant)
  return t >= LAWFUL_FROM_HOUR * HOUR_MS && t < LAWFUL_UNTIL_HOUR * HOUR_MS
}

/**
 * When a reminder asked for at `now` goes out: the first instant at or after `now` inside the lawful window and
 * not before `sendHour` on its Manila day. Before sendHour: sendHour today; from sendHour until 22:00: now; from
 * 22:00: sendHour tomorrow. A sendHour outside 6..21 (the config refuses it) is clamped into the window.
 */
export function reminderSendAt(now: Date, sendHour: number): Date {
  const hour = Math.min(Math.max(Math.floor(sendHour), LAWFUL_FROM_HOUR), LAWFUL_UNTIL_HOUR - 1)
  const t = manilaTimeOfDay(now)
  const midnight = now.getTime() - t
  if (t < hour * HOUR_MS) return new Date(midnight + hour * HOUR_MS)
  if (t < LAWFUL_UNTIL_HOUR * HOUR_MS) return now
  return new Date(midnight + DAY_MS + hour * HOUR_MS)
}

/**
 * Words and phrases a reminder never says (RA 11765, SEC MC 18 s.2019): threats of arrest, suits or exposure,
 * insults, and any mention of contacting someone else. Matched case-insensitively on word boundaries.
 */
export const bannedReminderPhrases = [
  'legal action',
  'lawsuit',
  'sue',
  'court',
  'police',
  'arrest',
  'jail',
  'prison',
  'estafa',
  'criminal',
  'warrant',
  'blacklist',
  'shame',
  'expose',
  'public',
  'social media',
  'facebook',
  'family',
  'relative',
  'employer',
  'boss',
  'colleague',
  'neighbor',
  'neighbour',
  'friend',
  'references',
  'contacts',
  'scam',
  'thief',
  'last warning',
  'final warning',
  'or else',
  'consequences',
  'demand letter',
] as const

/** The banned phrases a text uses (empty: the text may be sent). */
export function bannedPhrasesIn(text: string): string[] {
  const lower = text.toLowerCase()
  return bannedReminderPhrases.filter((p) =>
    new RegExp(`(^|[^a-z])${p.replace(/ /g, '\\s+')}($|[^a-z])`).test(lower),
  )
}
