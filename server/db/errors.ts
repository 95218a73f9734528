/**
 * What a failed database call means to the API, without ever reading its SQL or bound values: drizzle's
 * DrizzleQueryError carries both in its message (e-mails, phone numbers, ID numbers), so only the driver's
 * error code and class name are looked at, and only those are logged (server/http/app.ts).
 */

/** The driver error behind drizzle's wrapper (its `cause`), or the error itself. */
export function rootCause(error: unknown): unknown {
  return causeChain(error).at(-1)
}

/** The PostgreSQL SQLSTATE (`57P01`) or Node's socket code (`ECONNRESET`) of a failed call, if any. */
export function errorCode(error: unknown): string | undefined {
  for (const candidate of [error, rootCause(error)]) {
    const code = (candidate as { code?: unknown } | null)?.code
    if (typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)) return code
  }
  return undefined
}

function causeChain(error: unknown): unknown[] {
  const chain = [error]
  let current = error
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause
    if (!cause || cause === current) break
    chain.push(cause)
    current = cause
  }
  return chain
}

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
])

/**
 * A connection the pool could not open: whatever PostgreSQL said (a dropped or renamed database 3D000, one that
 * does not accept connections 55000, a refused password, a timeout), the request that wanted it is innocent.
 * server/db/client.ts wraps every failed pool connect in it; `cause` keeps the driver's error (and its code).
 */
export class DatabaseConnectError extends Error {
  override name = 'DatabaseConnectError'
  constructor(cause: unknown) {
    super('Could not open a database connection', { cause })
  }
}

/**
 * True when the database could not be reached or dropped the connection mid-call (restart, failover,
 * `pg_terminate_backend`): the request failed through no fault of its own and may be retried, so the API answers
 * 503 instead of 500. SQLSTATE class 08 is a connection exception, 57P01-57P03 an admin shutdown or a server
 * that cannot accept connections yet, 53300 too many connections.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (causeChain(error).some((e) => e instanceof DatabaseConnectError)) return true
  const code = errorCode(error)
  if (code) {
    if (unavailableCodes.has(code)) return true
    // 57P04: the database was dropped under the connection.
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1234]$/.test(code) || code === '53300') return true
  }
  const message = String((rootCause(error) as { message?: unknown } | null)?.message ?? '')
  // node-postgres reports a socket that closed under a query by message only.
  return /^Connection terminated|^Client has encountered a connection error|^timeout exceeded when trying to connect|^Client was closed/.test(
    message,
  )
}

const nameOf = (error: unknown) => {
  const name = (error as { name?: unknown } | null)?.name
  return typeof name === 'string' ? name.slice(0, 80) : typeof error
}

/**
 * An error as the log may hold it: its class (and its root cause's), its code and where it was thrown, never its
 * message (a failed query's message is its SQL with the bound values). The stack's first line is the message, so
 * only its `at` lines are kept. The code is `errorCode`, not `code`: the logger redacts `code` (sign-in codes).
 */
export function errorForLog(error: unknown): {
  name: string
  cause?: string
  errorCode?: string
  stack?: string
} {
  const stackText = (error as { stack?: unknown } | null)?.stack
  const stack =
    typeof stackText === 'string'
      ? stackText
          .split('\n')
          .filter((line) => line.trimStart().startsWith('at '))
          .slice(0, 12)
          .join('\n')
      : undefined
  const root = rootCause(error)
  return {
    name: nameOf(error),
    cause: root === error ? undefined : nameOf(root),
    errorCode: errorCode(error),
    stack,
  }
}

/**
 * An error in a few words for a database column a person reads (a job's last error, a decision reason):
 * `DrizzleQueryError (DatabaseError 23505)`. Never the message, for the same reason as errorForLog.
 */
export function errorSummary(error: unknown): string {
  const { name, cause, errorCode: code } = errorForLog(error)
  const detail = [cause, code].filter(Boolean).join(' ')
  return detail ? `${name} (${detail})` : name
}
