/**
 * Server answers onto a react-hook-form form (spec section 5: "Server violations are mapped onto the fields
 * of the same name"). A violation whose propertyPath is one of the form's fields becomes that field's error;
 * anything else (captchaToken, a limit, a blocked account) becomes the form's own error.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'

export interface ServerViolation {
  propertyPath: string
  message: string
}

export interface ServerFailure {
  status: number
  code: string
  message: string
  violations: ServerViolation[]
}

export function isServerFailure(error: unknown): error is ServerFailure {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as ServerFailure).status === 'number' &&
    Array.isArray((error as ServerFailure).violations)
  )
}

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
