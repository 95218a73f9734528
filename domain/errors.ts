/**
 * What a use case answers when it refuses: a domain error says what went wrong ("loan not available", "code
 * expired") and of which kind; it knows nothing of HTTP. The one error handler of the API
 * (server/http/app.ts, `httpStatusOf` in server/http/errors.ts) maps each kind to a status, so a service can be
 * called from a route, a job or a script alike (docs/decisions/0023-one-contract.md).
 */
import type { Violation } from './contract/wire'

export type DomainErrorKind =
  /** The input breaks a rule of its fields (with violations). */
  | 'invalid'
  /** Well-formed, but a business rule refuses it (an age limit, an amount above what is available). */
  | 'refused'
  /** Nobody is logged in, or the credentials or session are not (or no longer) valid. */
  | 'unauthenticated'
  /** The caller is known but may not do this (blocked, a single-link session, another client's object). */
  | 'forbidden'
  | 'notFound'
  /** The object's state does not allow it now (a journey step, an application already signed). */
  | 'conflict'
  /** Too large to take (an upload past its limit). */
  | 'tooLarge'
  /** The size was not declared where it must be (an upload without its length). */
  | 'lengthRequired'
  /** A limit on attempts was reached; `retryAfterSeconds` says when the same request may succeed. */
  | 'rateLimited'
  /** A provider or the service is briefly unavailable; trying again later may work. */
  | 'unavailable'

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly violations: Violation[] = [],
    /** For `rateLimited`: whole seconds until the same request may succeed (at least 1). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const invalid = (violations: Violation[], message = 'The request is not valid.') =>
  new DomainError('invalid', 'validationError', message, violations)

export const notFound = (what = 'Resource') => new DomainError('notFound', 'notFound', `${what} not found.`)

export const conflict = (code: string, message: string, violations: Violation[] = []) =>
  new DomainError('conflict', code, message, violations)

export const refused = (code: string, message: string, violations: Violation[] = []) =>
  new DomainError('refused', code, message, violations)

export const forbidden = (code: string, message: string) => new DomainError('forbidden', code, message)

export const unauthenticated = (code: string, message: string) =>
  new DomainError('unauthenticated', code, message)

export const unavailable = (code: string, message: string) => new DomainError('unavailable', code, message)

export const rateLimited = (code: string, message: string, retryAfterSeconds: number) =>
  new DomainError('rateLimited', code, message, [], Math.max(1, Math.ceil(retryAfterSeconds)))
