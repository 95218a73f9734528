/**
 * The envelope every /web answer travels in (spec section 7; docs/decisions/0002-api-conventions.md), defined
 * once for the server that writes it and the browser that reads it.
 */
import * as v from 'valibot'

/** A field violation: `propertyPath` names the form field (or `params.id`, `query.page`), `message` says why. */
export interface Violation {
  propertyPath: string
  message: string
}

export const violationSchema = v.object({ propertyPath: v.string(), message: v.string() })

/** The `response` part of every answer: its HTTP status and, on failure, a code, a message and violations. */
export interface ResponseStatus {
  status: number
  code?: string
  message?: string
  violations?: Violation[]
}

export interface Envelope<T> {
  success: boolean
  data: T
  response: ResponseStatus
}

/**
 * A refused call, as both sides describe it: the server's HTTP errors carry these fields, and the browser's
 * ApiError (src/api/client.ts) is built from the envelope of such an answer.
 */
export interface ApiFailure {
  status: number
  code: string
  message: string
  violations: Violation[]
}

/** True for anything shaped like an ApiFailure (an ApiError, or a test's stand-in for one). */
export function isApiFailure(error: unknown): error is ApiFailure {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as ApiFailure).status === 'number' &&
    Array.isArray((error as ApiFailure).violations)
  )
}

const joinPath = (prefix: string, path: string) => [prefix, path].filter(Boolean).join('.') || prefix

/** Valibot issues as violations: the issue's dotted path (under `prefix`, e.g. `params`) and its message. */
export function toViolations(issues: readonly v.BaseIssue<unknown>[], prefix = ''): Violation[] {
  return issues.map((issue) => ({
    propertyPath: joinPath(prefix, v.getDotPath(issue) ?? ''),
    message: issue.message,
  }))
}
