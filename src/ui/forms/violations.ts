/**
 * Server answers onto a react-hook-form form (spec section 5: "Server violations are mapped onto the fields
 * of the same name"). A violation whose propertyPath is one of the form's fields becomes that field's error;
 * anything else (captchaToken, a limit, a blocked account) becomes the form's own error.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { type ApiFailure, isApiFailure, type Violation } from '../../../domain/contract/wire'

/** A refused call as a form reads it: the wire's failure (domain/contract/wire.ts), under the forms' names. */
export type ServerFailure = ApiFailure
export type ServerViolation = Violation
export const isServerFailure = isApiFailure

/**
 * Puts each violation on its field; answers the message key for the form-level error, or null when every
 * violation found a field.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): string | null {
  if (!isServerFailure(error)) return 'generic'
  let unplaced: string | null = null
  let first = true
  for (const violation of error.violations) {
    const field = fields.find((f) => f === violation.propertyPath)
    if (field) {
      setError(field, { type: 'server', message: violation.message }, { shouldFocus: first })
      first = false
    } else unplaced ??= violation.message
  }
  if (error.violations.length && unplaced === null) return null
  return unplaced ?? error.code
}
