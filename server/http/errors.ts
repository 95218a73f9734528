/**
 * Errors the API answers on purpose. Anything else thrown becomes a bare 500 with no internals in the body.
 */
export interface Violation {
  propertyPath: string
  message: string
}

/**
 * Valibot's default messages end with the value received (`Invalid type: Expected Object but received
 * "0917..."`): whichever schema produced a violation, its message never echoes the input.
 */
const withoutReceived = (violation: Violation): Violation => {
  const at = violation.message.indexOf(' but received ')
  return at === -1 ? violation : { ...violation, message: violation.message.slice(0, at) }
}

export class ApiError extends Error {
  readonly violations: Violation[]

  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 411 | 413 | 415 | 422 | 429 | 500 | 502 | 503,
    readonly code: string,
    message: string,
    violations: Violation[] = [],
  ) {
    super(message)
    this.violations = violations.map(withoutReceived)
    this.name = 'ApiError'
  }
}

export const validationFailed = (violations: Violation[]) =>
  new ApiError(400, 'validationError', 'The request is not valid.', violations)

export const notFound = (what = 'Resource') => new ApiError(404, 'notFound', `${what} not found.`)
export const conflict = (code: string, message: string) => new ApiError(409, code, message)
