/**
 * What every auth form shares: error lookup by field path, and turning a failed call into field errors (the
 * server's violations) or a form error.
 */
import { useCallback, useState } from 'react'
import { type FieldErrors, type FieldValues, get, type Path, type UseFormSetError } from 'react-hook-form'
import type { FieldErrorView } from '../../ui/forms/fields'
import { applyServerErrors } from '../../ui/forms/violations'
import { useErrorText } from './error-text'

export function useFormErrors<T extends FieldValues>(errors: FieldErrors<T>, fields: readonly Path<T>[]) {
  const text = useErrorText()
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const fieldError = (path: Path<T>) => text((get(errors, path) as { message?: string } | undefined)?.message)
  const fail = useCallback(
    (error: unknown, setError: UseFormSetError<T>) =>
      setFormError(text(applyServerErrors(error, fields, setError))),
    [fields, text],
  )
  return { fieldError, formError, setFormError, fail, text }
}
