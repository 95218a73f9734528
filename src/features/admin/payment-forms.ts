/**
 * The rules of the back office's payment forms (issue 16, item 8) and of the sandbox tools, as valibot schemas
 * with the locale's messages: the same limits as the contracts (domain/contract/payments.ts), so a form refuses
 * what the server would refuse. The contracts' own body schemas are not used here: a production build cuts them
 * out of the browser's copy (scripts/vite-strip-descriptions.ts), and these forms take pesos, not centavos.
 * Amounts are typed in pesos and sent as centavos. Whatever the server still refuses lands on the field of the
 * same name (`placeServerErrors`), the rest on the form.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import * as v from 'valibot'
import { pesosToCentavos } from '../../../domain/money'
import { paymentChannelCodes, paymentChannels } from '../../../domain/payments/channels'
import { loanIdOfNumber } from '../../../domain/payments/reference'
import { safeString } from '../../../domain/safe-text'
import type { Messages } from '../../i18n/messages'
import type { FieldErrorView } from '../../ui/forms/fields'
import { isServerFailure } from '../../ui/forms/violations'

type Errors = Messages['admin']['payments']['errors']

/** The contract's limit on one payment: PHP 100 000 000.00. */
const MAX_CENTAVOS = 100_000_000_00
/** A reference as a payer types it (the contract's pattern): digits, spaces and dashes. */
const REFERENCE = /^[0-9 -]{1,32}$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** Pesos as typed ('1500', '1 500.50', '1,500.5', '₱15') to centavos; null when it is not such an amount. */
export function centavosOfPesos(typed: string): number | null {
  const text = typed.trim()
  if (!/^(₱\s*)?\d{1,3}([ ,]?\d{3})*(\.\d{1,2})?$/.test(text)) return null
  try {
    return pesosToCentavos(text)
  } catch {
    return null
  }
}

/** A loan as typed: its id (`42`) or its number (`L00000042`); null when it is neither. */
export function loanIdOf(typed: string): number | null {
  const text = typed.trim()
  if (/^[1-9]\d{0,15}$/.test(text)) return Number(text)
  return loanIdOfNumber(text)
}

/** A channel's name for people; an unknown code as it came. */
export const channelName = (code: string) => paymentChannels.find((c) => c.code === code)?.name ?? code

export const channelOptions = paymentChannels.map((c) => ({ value: c.code, label: c.name }))

/** A reason as the server checks it (the contract's `reason`: 3 to 500 characters once trimmed, storable text). */
const reason = (e: Errors) =>
  v.pipe(safeString(), v.trim(), v.minLength(3, e.reason), v.maxLength(500, e.reasonMax))

const reference = (e: Errors) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty(e.required), v.regex(REFERENCE, e.reference))

const pesos = (e: Errors) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(e.required),
    v.check((typed) => centavosOfPesos(typed) !== null, e.amount),
    v.check((typed) => (centavosOfPesos(typed) ?? 1) >= 1, e.amountMin),
    v.check((typed) => (centavosOfPesos(typed) ?? 0) <= MAX_CENTAVOS, e.amountMax),
  )

/** A channel of the reference data; the select starts on its empty option. */
const channel = (e: Errors) =>
  v.pipe(
    v.union([v.literal(''), v.picklist(paymentChannelCodes)], e.channel),
    v.check((code) => code !== '', e.channel),
  )

const loanId = (e: Errors) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(e.required),
    v.check((typed) => loanIdOf(typed) !== null, e.loanId),
  )

/** A day as a date input gives it, or nothing. */
const optionalDate = (e: Errors) =>
  v.pipe(
    v.string(),
    v.check((d) => d === '' || ISO_DATE.test(d), e.date),
  )

/** The list's filters: every one optional; dates as the date inputs give them; from not after to. */
export const filtersSchema = (e: Errors) =>
  v.pipe(
    v.object({
      from: optionalDate(e),
      to: optionalDate(e),
      channel: v.union([v.literal(''), v.picklist(paymentChannelCodes)], e.channel),
      status: v.union([v.literal(''), v.picklist(['posted', 'unmatched', 'reversed'])], e.required),
      reference: v.pipe(
        v.string(),
        v.trim(),
        v.check((typed) => typed === '' || REFERENCE.test(typed), e.reference),
      ),
    }),
    v.forward(
      v.partialCheck(
        [['from'], ['to']],
        (input: { from: string; to: string }) => !input.from || !input.to || input.from <= input.to,
        e.dates,
      ),
      ['to'],
    ),
  )
export type FilterValues = v.InferInput<ReturnType<typeof filtersSchema>>

export const manualPaymentSchema = (e: Errors) =>
  v.object({
    reference: reference(e),
    amount: pesos(e),
    channel: channel(e),
    note: v.pipe(v.string(), v.trim(), v.maxLength(500, e.note)),
  })
export type ManualPaymentValues = v.InferInput<ReturnType<typeof manualPaymentSchema>>

export const assignSchema = (e: Errors) => v.object({ loanId: loanId(e), reason: reason(e) })
export type AssignValues = v.InferInput<ReturnType<typeof assignSchema>>

export const reverseSchema = (e: Errors) => v.object({ reason: reason(e) })
export type ReverseValues = v.InferInput<ReturnType<typeof reverseSchema>>

export const loanActionSchema = assignSchema
export type LoanActionValues = AssignValues

export const clockSchema = (e: Errors) =>
  v.object({
    days: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty(e.required),
      v.check((typed) => /^\d{1,3}$/.test(typed) && Number(typed) <= 400, e.days),
    ),
    clientId: v.pipe(
      v.string(),
      v.trim(),
      v.check((typed) => typed === '' || /^[1-9]\d{0,15}$/.test(typed), e.clientId),
    ),
  })
export type ClockValues = v.InferInput<ReturnType<typeof clockSchema>>

export const sandboxPaymentSchema = (e: Errors) =>
  v.object({ reference: reference(e), amount: pesos(e), channel: channel(e) })
export type SandboxPaymentValues = v.InferInput<ReturnType<typeof sandboxPaymentSchema>>

/**
 * The key that makes a repeated manual post nothing (the server posts a key once): one per form instance, so a
 * double submit, or a retry after a lost answer, posts once. `crypto.randomUUID` needs a secure context; a QA
 * box served over plain HTTP gets 128 random bits in hex instead.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  )
}

/**
 * A refused call onto a react-hook-form form: each violation whose path names a field (after dropping the
 * `query.` of a list's filters, or renamed by `rename`, e.g. `params.id` -> `loanId`) becomes that field's error,
 * the first one focused. Answers the form's own error, or null when every violation found its field. A failure
 * with no answer at all (the network) is `fallback`.
 */
export function placeServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  fallback: string,
  rename: Record<string, Path<T>> = {},
): FieldErrorView | null {
  if (!isServerFailure(error)) return { key: 'generic', text: fallback }
  let unplaced: string | null = null
  let first = true
  for (const violation of error.violations) {
    const path = rename[violation.propertyPath] ?? violation.propertyPath.replace(/^query\./, '')
    const field = fields.find((f) => f === path)
    if (field) {
      setError(field, { type: 'server', message: violation.message }, { shouldFocus: first })
      first = false
    } else
      unplaced ??= violation.propertyPath
        ? `${violation.propertyPath}: ${violation.message}`
        : violation.message
  }
  if (error.violations.length && unplaced === null) return null
  return { key: error.code || 'generic', text: unplaced ?? (error.message || fallback) }
}

/** A react-hook-form field error as the field components show it. */
export const fieldError = (name: string, error: { message?: string } | undefined): FieldErrorView | null =>
  error?.message ? { key: name, text: error.message } : null
