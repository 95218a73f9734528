/**
 * Errors the API answers on purpose, and the one place that says which HTTP status each one gets. Services raise
 * domain errors (domain/errors.ts), which know nothing of HTTP; the HTTP layer itself raises an HttpError for
 * what only it can see (a body too large, the wrong media type). Anything else thrown becomes a bare 500 with no
 * internals in the body (server/http/app.ts).
 */
import type { ApiFailure, Violation } from '../../domain/contract/wire'
import { DomainError, type DomainErrorKind, invalid } from '../../domain/errors'

export type { Violation }

export type HttpStatus = 400 | 401 | 403 | 404 | 409 | 411 | 413 | 415 | 422 | 429 | 500 | 502 | 503

/** A refusal of the HTTP layer: the request as sent cannot be read (413, 415, 411 ...). */
export class HttpError extends Error implements ApiFailure {
  readonly violations: Violation[]

  constructor(
    readonly status: HttpStatus,
    readonly code: string,
    message: string,
    violations: Violation[] = [],
  ) {
    super(message)
    this.violations = violations
    this.name = 'HttpError'
  }
}

/** The status of each kind of domain error: the whole mapping, in one table. */
export const httpStatusOf: Record<DomainErrorKind, HttpStatus> = {
  invalid: 400,
  refused: 422,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  lengthRequired: 411,
  rateLimited: 429,
  unavailable: 503,
}

/**
 * Valibot's default messages end with the value received (`Invalid type: Expected Object but received
 * "0917..."`): whichever schema produced a violation, its message never echoes the input.
 */
const withoutReceived = (violation: Violation): Violation => {
  const at = violation.message.indexOf(' but received ')
  return at === -1 ? violation : { ...violation, message: violation.message.slice(0, at) }
}

export interface Failure extends ApiFailure {
  status: HttpStatus
  /** Seconds for the `Retry-After` header of a 429. */
  retryAfterSeconds?: number
}

/** The answer for an error raised on purpose; undefined for anything else (a bug, a lost database). */
export function failureOf(error: unknown): Failure | undefined {
  if (error instanceof DomainError)
    return {
      status: httpStatusOf[error.kind],
      code: error.code,
      message: error.message,
      violations: error.violations.map(withoutReceived),
      retryAfterSeconds: error.retryAfterSeconds,
    }
  if (error instanceof HttpError)
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      violations: error.violations.map(withoutReceived),
    }
  return undefined
}

/** A 400 with field violations (the HTTP layer's own checks of params, query and body). */
export const validationFailed = (violations: Violation[]) => invalid(violations)
