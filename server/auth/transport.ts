/**
 * How tokens and callers meet HTTP: the token goes out in the `Authorization` response header and the
 * `auth.token` cookie (the SPA reads it after a reload, so it is not HttpOnly), and comes back in the
 * `Authorization` request header only; the cookie is never read by the API, which is what makes it useless to
 * a cross-site request (docs/decisions/0006).
 */
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import * as v from 'valibot'
import { deviceIdSchema } from '../../domain/identity'
import type { AppEnv } from '../http/context'
import { addCookie, setHeader } from '../http/envelope'
import { TOKEN_TTL_SECONDS } from './tokens'

export const TOKEN_COOKIE = 'auth.token'
export const DEVICE_HEADER = 'x-device-id'

function isHttps(c: Context<AppEnv>) {
  if (new URL(c.req.url).protocol === 'https:') return true
  return Boolean(c.get('deps').trustProxy) && c.req.header('x-forwarded-proto') === 'https'
}

export function sendToken(c: Context<AppEnv>, token: string) {
  setHeader(c, 'Authorization', `Bearer ${token}`)
  addCookie(c, TOKEN_COOKIE, token, {
    path: '/',
    sameSite: 'Strict',
    secure: isHttps(c),
    httpOnly: false,
    maxAge: TOKEN_TTL_SECONDS,
  })
}

export function clearToken(c: Context<AppEnv>) {
  addCookie(c, TOKEN_COOKIE, '', { path: '/', sameSite: 'Strict', secure: isHttps(c), maxAge: 0 })
}

/**
 * The caller's address for per-address limits. Behind a proxy (TRUST_PROXY=1) it is the last X-Forwarded-For
 * entry, the one our proxy appended; earlier entries are whatever the caller chose to send.
 */
export function clientAddress(c: Context<AppEnv>): string {
  if (c.get('deps').trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')
    const last = forwarded?.split(',').at(-1)?.trim()
    if (last) return last.slice(0, 64)
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // In-process requests (tests) have no socket.
    return 'unknown'
  }
}

/** The device id from the `x-device-id` header, else the body's `deviceId`; a malformed header is ignored. */
export function deviceIdOf(c: Context<AppEnv>, fromBody?: string): string | undefined {
  const header = c.req.header(DEVICE_HEADER)
  if (header && v.is(deviceIdSchema, header)) return header
  return fromBody
}
