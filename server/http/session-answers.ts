/**
 * The caller's own session, for the client's and the back office's refresh and logout calls alike: the same
 * session table and token transport serve both kinds of principal, so one answer serves both routes.
 */
import type { Context } from 'hono'
import { clearToken, sendToken } from '../auth/transport'
import { refreshSession, revokeSession } from '../services/identity/sessions'
import type { AppEnv } from './context'
import { ok } from './envelope'
import { db, deps } from './request'

/** A new token for the caller's session, in the Authorization header; the answer says how long it lives. */
export async function answerRefresh(c: Context<AppEnv>) {
  const { secrets, now } = deps(c)
  const refreshed = await refreshSession(db(c), secrets.jwtSecret, c.get('principal').sessionId, now())
  sendToken(c, refreshed.token)
  return ok(c, { expiresIn: refreshed.expiresIn })
}

/** Ends the caller's session and clears its token cookie. */
export async function answerLogout(c: Context<AppEnv>) {
  await revokeSession(db(c), c.get('principal').sessionId, 'logout')
  clearToken(c)
  return ok(c, { loggedOut: true })
}
