/**
 * A configuration change as people make it since issue 19 item 6: one administrator proposes it (PUT
 * /config/{key} answers 202 with the proposal), a second one approves it. For tests that need a configuration in
 * force, not the maker-checker itself (tests/api/config-approval.test.ts covers that).
 */
import type { Database } from '../../server/db/client'
import { type Staff, staffMember } from './staff'

interface App {
  database: Database
  secrets: { jwtSecret: Uint8Array }
  request: (path: string, init?: RequestInit) => Response | Promise<Response>
}

const checkers = new WeakMap<object, Promise<Staff>>()

/** The second administrator of a test app, made once. */
export function checker(t: App): Promise<Staff> {
  let staff = checkers.get(t)
  if (!staff) {
    staff = staffMember(t, 'administrator')
    checkers.set(t, staff)
  }
  return staff
}

const send = async (t: App, method: string, path: string, token: string, body: unknown) => {
  const res = await t.request(`/web/private/back-office${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever fields they check
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}

/**
 * Proposes `value` for `key` with `token` and has a second administrator approve it. Answers the approval (200
 * with the approved proposal) or the proposal's refusal (422 with its violations), as the old PUT answered.
 */
export async function changeConfig(
  t: App,
  token: string,
  key: string,
  value: unknown,
  options: { note?: string; effectiveAt?: string } = {},
) {
  const proposed = await send(t, 'PUT', `/config/${key}`, token, { value, ...options })
  if (proposed.status !== 202) return proposed
  const second = await checker(t)
  return send(t, 'POST', `/approvals/${proposed.body.data.id}/approve`, second.token, {})
}
