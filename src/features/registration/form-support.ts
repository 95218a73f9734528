/**
 * What every registration form shares: message keys (from the valibot schemas or the server) as views with
 * the key and a human sentence, field errors by path, and a failed call turned into field errors (the
 * server's violations on the fields of the same name) or a form error.
 */
import { useCallback, useState } from 'react'
import { type FieldErrors, type FieldValues, get, type Path, type UseFormSetError } from 'react-hook-form'
import { AGE_LIMITS, type AgeLimits } from '../../../domain/journey/fields'
import { ApiError } from '../../api/client'
import { fmt, useMessages } from '../../i18n/messages'
import type { FieldErrorView } from '../../ui/forms/fields'
import { applyServerErrors } from '../../ui/forms/violations'

/**
 * A message key (or server code) as the key to show and a human sentence; the age message names `ages`, the
 * limits the form checked (the content system's, ADR 0048), the defaults when a form has none.
 */
export function useJourneyErrorText(ages: AgeLimits = AGE_LIMITS) {
  const errors = useMessages().journey.errors as Record<string, string>
  const { min, max } = ages
  return useCallback(
    (raw: string | null | undefined): FieldErrorView | null => {
      if (!raw) return null
      const text = errors[raw] ?? errors.generic ?? raw
      return { key: raw, text: fmt(text, { min, max }) }
    },
    [errors, min, max],
  )
}

/** The server's answer to a call that does not fit the client's current step (another tab, a late poll). */
export const isStepMismatch = (error: unknown) => error instanceof ApiError && error.status === 409

/**
 * `onStepMismatch` runs when the server says the step is no longer the current one: the journey is refetched
 * and the router moves the client, instead of the form showing an error it cannot fix.
 */
export function useFormErrors<T extends FieldValues>(
  errors: FieldErrors<T>,
  fields: readonly Path<T>[],
  onStepMismatch?: () => void,
  ages?: AgeLimits,
) {
  const text = useJourneyErrorText(ages)
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const fieldError = (path: Path<T>) => text((get(errors, path) as { message?: string } | undefined)?.message)
  const fail = useCallback(
    (error: unknown, setError: UseFormSetError<T>) => {
      if (isStepMismatch(error)) {
        setFormError(text('journeyStepMismatch'))
        onStepMismatch?.()
        return
      }
      setFormError(text(applyServerErrors(error, fields, setError)))
    },
    [fields, text, onStepMismatch],
  )
  return { fieldError, formError, setFormError, fail, text }
}

/** MM/DD/YYYY (shown) to YYYY-MM-DD (sent); anything incomplete stays as typed so the schema refuses it. */
export function usToIsoDate(shown: string): string {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(shown.trim())
  return match ? `${match[3]}-${match[1]}-${match[2]}` : shown.trim()
}

/** YYYY-MM-DD to MM/DD/YYYY (prefill from the server or a lead). */
export function isoToUsDate(iso: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '')
  return match ? `${match[2]}/${match[3]}/${match[1]}` : ''
}

/** Typing mask for MM/DD/YYYY: digits only, slashes added as the client types. */
export function maskUsDate(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 8)
  if (digits.length <= 2) return digits
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`
}
