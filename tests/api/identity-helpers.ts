/**
 * Shared steps of the identity API tests: signing up, reading codes from the sandbox outbox (where QA reads them
 * too), and calling the API with a token.
 */

import { randomInt } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import { type AnyContract, pathOf } from '../../domain/contract/define'
import { outboxMessage } from '../../server/db/schema-identity'
import type { createTestApp } from '../support/app'

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

export interface Answer<T = Record<string, unknown>> {
  res: Response
  status: number
  body: {
    success: boolean
    data: T
    response: {
      status: number
      code?: string
      message?: string
      violations?: { propertyPath: string; message: string }[]
    }
  }
}

let sequence = 0
/** A fresh mobile number per call (09 + 9 digits), so tests in one file never collide. */
export const newPhone = () => `09${String(randomInt(0, 1e8)).padStart(8, '0')}${sequence++ % 10}`
export const newEmail = (tag = 'client') => `${tag}.${Date.now().toString(36)}${sequence++}@example.ph`
export const newAddress = () => `203.0.113.${randomInt(1, 255)}-${sequence++}`

export interface CallOptions {
  token?: string
  headers?: Record<string, string>
  /** The caller's address (X-Forwarded-For, trusted by the test app). */
  address?: string
}

export async function call<T = Record<string, unknown>>(
  t: TestApp,
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.address) headers['x-forwarded-for'] = options.address
  const res = await t.request(`/web${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { res, status: res.status, body: (await res.json()) as Answer<T>['body'] }
}

/** What a call to a contract sends: its path parameters, query and body. */
export interface ContractInput {
  params?: Record<string, string | number>
  query?: Record<string, string>
  body?: unknown
}

/** Calls a contract's method and path (parameters filled in, query appended) as the browser's caller would. */
export function callContract<T = Record<string, unknown>>(
  t: TestApp,
  contract: AnyContract,
  input: ContractInput = {},
  options: CallOptions = {},
): Promise<Answer<T>> {
  const query = input.query ? `?${new URLSearchParams(input.query)}` : ''
  return call<T>(
    t,
    contract.method.toUpperCase(),
    `${pathOf(contract, input.params)}${query}`,
    input.body,
    options,
  )
}

/** The token a response hands out in its Authorization header. */
export function tokenOf(answer: Answer<unknown>): string {
  const header = answer.res.headers.get('authorization') ?? ''
  const match = /^Bearer (.+)$/.exec(header)
  if (!match) throw new Error(`no token in the answer (status ${answer.status})`)
  return match[1]!
}

export async function outboxFor(t: TestApp, recipient: string, purpose?: string) {
  return t.database.db
    .select()
    .from(outboxMessage)
    .where(
      and(eq(outboxMessage.recipient, recipient), purpose ? eq(outboxMessage.purpose, purpose) : undefined),
    )
    .orderBy(desc(outboxMessage.id))
}

/** The 3-digit code of the newest message to a recipient (optionally of one purpose). */
export async function lastCode(t: TestApp, recipient: string, purpose?: string): Promise<string> {
  const [message] = await outboxFor(t, recipient, purpose)
  const code = message && /\b(\d{3})\b/.exec(message.body)?.[1]
  if (!code) throw new Error(`no code sent to ${recipient}`)
  return code
}

export const PASSWORD = 'secret123'

export interface SignedUp {
  token: string
  clientId: number
  phone: string
  email: string
  password: string
  deviceId: string
}

export async function signUp(
  t: TestApp,
  overrides: Partial<{
    phone: string
    email: string
    password: string
    deviceId: string
    captchaToken: string
  }> = {},
): Promise<SignedUp> {
  const phone = overrides.phone ?? newPhone()
  const email = overrides.email ?? newEmail()
  const password = overrides.password ?? PASSWORD
  const deviceId = overrides.deviceId ?? `device-${sequence++}-${Date.now()}`
  const answer = await call<{ client: { id: number } }>(
    t,
    'POST',
    '/public/client',
    {
      mobilePhone: { number: phone },
      email,
      password,
      passwordRepeat: password,
      consents: { terms: true, privacy: true, marketing: false },
      captchaToken: overrides.captchaToken ?? 'ok',
      deviceId,
    },
    { address: newAddress() },
  )
  if (answer.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(answer.body.response)}`)
  return { token: tokenOf(answer), clientId: answer.body.data.client.id, phone, email, password, deviceId }
}

export async function login(
  t: TestApp,
  loginName: string,
  password: string,
  options: { deviceId?: string; captchaToken?: string; address?: string } = {},
) {
  return call<{ mfa: boolean; client: { id: number } | null; nextCodeAt: string | null }>(
    t,
    'POST',
    '/public/client/login',
    { login: loginName, password, captchaToken: options.captchaToken ?? 'ok', deviceId: options.deviceId },
    { address: options.address ?? newAddress() },
  )
}

/** Signs up and verifies the phone: the ordinary state of a client after registration's first step. */
export async function verifiedClient(t: TestApp, overrides: Parameters<typeof signUp>[1] = {}) {
  const client = await signUp(t, overrides)
  const code = await lastCode(t, client.phone, 'phone_verify')
  const verified = await call(t, 'POST', '/private/client/phone/verify', { code }, { token: client.token })
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body.response)}`)
  return client
}

/**
 * Runs `fn` with the server's clock moved `ms` ahead of the clock it reads now (past a code's minute limit, a
 * token's expiry...), then puts that clock back: a test that pinned its own clock keeps it.
 */
export async function later<T>(t: TestApp, ms: number, fn: () => Promise<T>): Promise<T> {
  const before = t.currentClock()
  t.setClock(() => new Date(before().getTime() + ms))
  try {
    return await fn()
  } finally {
    t.setClock(before)
  }
}

/**
 * Moves the server's clock on past Manila midnight when it is less than `withinMs` before it, and returns the
 * clock to put back. For a test that counts Manila days and moves the clock a few minutes on (`later`): run
 * shortly before midnight, every due date would shift by a day under it. Forward only, so tokens and codes stay
 * valid (a token lives 15 minutes); call it after the test's uploads (a photo's capture time is checked against the clock).
 */
export function clearOfManilaMidnight(t: TestApp, withinMs = 5 * 60_000): () => Date {
  const before = t.currentClock()
  const sinceMidnight = (before().getTime() + 8 * 3_600_000) % 86_400_000
  const untilMidnight = 86_400_000 - sinceMidnight
  if (untilMidnight < withinMs) t.setClock(() => new Date(before().getTime() + untilMidnight + 1000))
  return before
}
