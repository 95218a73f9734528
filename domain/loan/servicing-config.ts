/**
 * Servicing parameters (database config key 'servicing', issue 17): when extensions are offered and how long a
 * chosen one's invoice stays payable, and who is offered a payment schedule on what terms. The prices of the
 * extensions themselves are pricing's (`pricing.extensions`, ADR 0005); the legal caps are checked on every
 * quote from the loan's own ledger (domain/loan/extension.ts, schedule.ts), so no value here can make an
 * unlawful extension or schedule: at worst a schedule is offered at less interest than configured.
 * docs/decisions/0025-extensions-and-payment-schedules.md.
 */
import * as v from 'valibot'
import { NOMINAL_CAP_PPM_PER_DAY } from '../pricing/caps'

const whole = (min: number, max: number, what: string) =>
  v.pipe(
    v.number(`${what} must be a number.`),
    v.integer(`${what} must be a whole number.`),
    v.minValue(min, `${what} must be at least ${min}.`),
    v.maxValue(max, `${what} must be at most ${max}.`),
  )

/** The spec's extension types (spec section 9); their terms and fees are pricing's (ADR 0005). */
export const extensionTypes = ['cheap', 'expensive'] as const
export type ExtensionType = (typeof extensionTypes)[number]

export const scheduleTypes = ['monthly', 'semi_monthly'] as const
export type ScheduleType = (typeof scheduleTypes)[number]

const scheduleTypeConfig = (what: string) =>
  v.object({
    /** How many instalments. */
    instalments: whole(2, 12, `${what}: number of instalments`),
    /** Days between two instalments (and from the agreement to the first). */
    intervalDays: whole(7, 31, `${what}: days between instalments`),
  })

/**
 * The legal ceiling of a late-payment penalty: 5% a month of the overdue amount (SEC MC 3 s.2022), as a daily
 * rate over a 30-day month, rounded down so 30 days of it never pass 5%: 1 666 ppm a day (4.998% in 30 days).
 */
export const PENALTY_CAP_PPM_PER_MONTH = 50_000
export const PENALTY_CAP_PPM_PER_DAY = Math.floor(PENALTY_CAP_PPM_PER_MONTH / 30)

/** The reminder days the configuration may name: up to 30 days before the due date and 90 after it. */
const reminderDays = (what: string, max: number) =>
  v.pipe(
    v.array(whole(1, max, what)),
    v.maxLength(10, `${what}: at most 10 days.`),
    v.check((days) => new Set(days).size === days.length, `${what}: each day once.`),
  )

export const servicingConfigSchema = v.object({
  extensions: v.object({
    /** An extension is offered from this many days before the due date (a 60 means from the payout day on). */
    daysBeforeDue: whole(0, 365, 'Days before the due date an extension is offered'),
    /** ... and until this many days after it: the grace window in which an overdue loan may still be extended. */
    graceDaysAfterDue: whole(0, 30, 'Grace days after the due date'),
    /** A chosen extension's invoice is payable through the end of this many Manila days (the choice day is 1). */
    invoiceValidDays: whole(1, 30, 'Days an extension invoice stays payable'),
  }),
  schedules: v.object({
    /** Whether payment-schedule special offers are made at all. */
    enabled: v.boolean('Say whether schedules are offered.'),
    /** Offered from this many days before the due date... */
    daysBeforeDue: whole(0, 60, 'Days before the due date a schedule is offered'),
    /** ... until this many days after it. */
    daysAfterDue: whole(0, 120, 'Days after the due date a schedule is still offered'),
    /** Only when at least this much principal is still owed (centavos): splitting ₱200 helps nobody. */
    minPrincipal: whole(0, 100_000_000_00, 'Smallest principal owed for a schedule (centavos)'),
    /** The schedule's interest on the principal still owed, per day, at most the legal 0.2% (2 000 ppm). */
    interestPpmPerDay: whole(0, NOMINAL_CAP_PPM_PER_DAY, 'Schedule interest per day (ppm)'),
    monthly: scheduleTypeConfig('Monthly'),
    semi_monthly: scheduleTypeConfig('Semi-monthly'),
  }),
  penalties: v.object({
    /** Whether late-payment penalties are charged at all. */
    enabled: v.boolean('Say whether penalties are charged.'),
    /** Days past due with no penalty (the first penalty is for the day after them). */
    graceDays: whole(0, 30, 'Grace days before a penalty'),
    /** The penalty per day on the overdue amount, at most PENALTY_CAP_PPM_PER_DAY (5% a month). */
    ratePpmPerDay: whole(0, PENALTY_CAP_PPM_PER_DAY, 'Penalty per day (ppm of the overdue amount)'),
  }),
  reminders: v.object({
    /**
     * Whether payment reminders are sent at all: an SMS and an e-mail to the borrower only, on the days below,
     * never outside 6 AM-10 PM Manila (domain/loan/reminders.ts; docs/decisions/0028).
     */
    enabled: v.boolean('Say whether reminders are sent.'),
    /** Days before the due date a reminder goes out (3 means three days before). */
    daysBeforeDue: reminderDays('Reminder days before the due date', 30),
    /** Whether a reminder goes out on the due date itself. */
    onDueDate: v.boolean('Say whether a reminder goes out on the due date.'),
    /** Days past due a reminder goes out. */
    daysAfterDue: reminderDays('Reminder days after the due date', 90),
    /** The Manila hour reminders are sent at, inside the lawful 6 AM-10 PM window (SEC MC 18 s.2019). */
    sendHour: whole(6, 21, 'Reminder hour (Manila)'),
  }),
})
export type ServicingConfig = v.InferOutput<typeof servicingConfigSchema>

/**
 * Defaults: an extension may be chosen any time from the payout (60 days covers every term the calculator
 * offers) until 5 days after the due date, and its invoice is payable for 3 days. A schedule is offered from 3
 * days before the due date until 30 days after it, on at least ₱1,000 of principal, at 0.10% a day (half the
 * legal maximum, below the contract's 0.17-0.19%): 2 monthly or 4 semi-monthly instalments, 60 days either way.
 */
export const defaultServicingConfig: ServicingConfig = {
  extensions: { daysBeforeDue: 60, graceDaysAfterDue: 5, invoiceValidDays: 3 },
  schedules: {
    enabled: true,
    daysBeforeDue: 3,
    daysAfterDue: 30,
    minPrincipal: 100_000,
    interestPpmPerDay: 1_000,
    monthly: { instalments: 2, intervalDays: 30 },
    semi_monthly: { instalments: 4, intervalDays: 15 },
  },
  penalties: { enabled: true, graceDays: 3, ratePpmPerDay: 1_500 },
  reminders: {
    enabled: true,
    daysBeforeDue: [3, 1],
    onDueDate: true,
    daysAfterDue: [1, 3, 7, 15, 30],
    sendHour: 9,
  },
}
