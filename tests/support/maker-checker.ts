/**
 * A payment reversal, a write-off and a debt sale as people make them since issue 19 item 5: one back-office user
 * proposes (the call answers 202 with the proposal), a second administrator approves it over the API, which runs
 * the action. For tests that need the action done, not the maker-checker itself (tests/api/approvals.test.ts).
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
export function secondApprover(t: App): Promise<Staff> {
  let staff = checkers.get(t)
  if (!staff) {
    staff = staffMember(t, 'administrator')
    checkers.set(t, staff)
  }
  return staff
}

export interface Answered<T> {
  res: Response
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever fields they check
  body: { success: boolean; data: T; response: { status: number; code?: string } } & Record<string, any>
}

const send = async <T>(t: App, path: string, token: string, body: unknown): Promise<Answered<T>> => {
  const res = await t.request(`/web${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { res, status: res.status, body: (await res.json()) as Answered<T>['body'] }
}

/** A second administrator approves proposal `proposalId`: the answer of POST /approvals/{id}/approve. */
export async function approveAsSecond<T = Record<string, unknown>>(t: App, proposalId: number) {
  const second = await secondApprover(t)
  return send<T>(t, `/private/back-office/approvals/${proposalId}/approve`, second.token, {})
}

/**
 * Proposes with `token` (POST `path`, a back-office path such as `/private/back-office/payments/7/reversal`) and
 * has a second administrator approve. Answers as the direct call did before maker-checker: a refused proposal's
 * answer as it is; else the approval's, with `data` the action's result (the reversed payment, the written-off
 * loan's state, the sale) and `proposal` the approved proposal; a refusal when executed is answered as is.
 */
export async function proposeAndApprove<T = Record<string, unknown>>(
  t: App,
  token: string,
  path: string,
  body: unknown,
): Promise<Answered<T> & { proposalId?: number }> {
  const proposed = await send<{ id: number }>(t, path, token, body)
  if (proposed.status !== 202) return proposed as unknown as Answered<T>
  const proposalId = proposed.body.data.id
  const approved = await approveAsSecond<{ result: T }>(t, proposalId)
  if (approved.status !== 200) return { ...(approved as unknown as Answered<T>), proposalId }
  return {
    ...approved,
    proposalId,
    body: { ...approved.body, data: approved.body.data.result, proposal: approved.body.data },
  }
}
