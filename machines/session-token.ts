/**
 * What the browser reads from a session token (docs/decisions/0006): the JWT payload, decoded without
 * verification. The server verifies every token on every call; the app only needs the claims to decide which
 * screen a session may see (client or back office, second factor pending, single link) and when it expires.
 */

export type SubjectType = 'client' | 'user'

export interface SessionClaims {
  /** Server-side session id: a new value is a new session, the same value a refreshed token. */
  sid: string
  sub: string
  type: SubjectType
  /** A second factor is still due: counts as not logged in. */
  mfa: boolean
  /** Single-link session: my loan only. */
  sl: boolean
  /** Expiry, seconds since the epoch. */
  exp: number
}

function base64UrlDecode(part: string): string {
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=')
  const binary = atob(base64)
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}

/** The claims of a well-formed token, or null for anything else (never throws). */
export function decodeSessionToken(token: string | null | undefined): SessionClaims | null {
  if (!token) return null
  const parts = token.split('.')
  if (parts.length !== 3 || !parts[1]) return null
  try {
    const payload = JSON.parse(base64UrlDecode(parts[1])) as Record<string, unknown>
    const { sid, sub, type, mfa, sl, exp } = payload
    if (typeof sid !== 'string' || typeof sub !== 'string' || typeof exp !== 'number') return null
    if (type !== 'client' && type !== 'user') return null
    return { sid, sub, type, mfa: mfa === true, sl: sl === true, exp }
  } catch {
    return null
  }
}

/** Same session and same standing (second factor, single link): a refreshed token, not a new login. */
export function continuesSession(current: SessionClaims | null, next: SessionClaims): boolean {
  return (
    current !== null &&
    current.sid === next.sid &&
    current.type === next.type &&
    current.sub === next.sub &&
    current.mfa === next.mfa &&
    current.sl === next.sl
  )
}
