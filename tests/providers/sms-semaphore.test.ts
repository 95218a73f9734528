/**
 * The Semaphore SMS adapter against a local fake of its HTTP API (docs/decisions/0018): the form it posts, and
 * every way a send can fail surfacing as MessageNotSentError (503 messageNotSent) with a reason and no content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutgoingMessage } from '../../server/providers/messaging'
import { MessageNotSentError } from '../../server/providers/messaging-live'
import { createSemaphoreSms } from '../../server/providers/sms-semaphore'
import { type HttpAnswer, type RecordedPost, startHttpFake } from './fakes'

const accepted = (post: RecordedPost) => [
  {
    message_id: 1234,
    recipient: `63${post.form.number?.slice(1)}`,
    message: post.form.message,
    sender_name: post.form.sendername ?? 'SEMAPHORE',
    status: 'Pending',
  },
]

/** The fake answers by number: 09990000xxx picks a failure. */
function semaphore(post: RecordedPost): HttpAnswer {
  if (post.form.apikey !== 'key-123') return { status: 401, json: { apikey: ['The apikey is invalid.'] } }
  switch (post.form.number) {
    case '09990000429':
      return { status: 429, json: { message: 'Too Many Attempts.' } }
    case '09990000500':
      return { status: 500, text: 'Server Error' }
    case '09990000422':
      return { status: 200, json: { number: ['The number format is invalid.'] } }
    case '09990000001':
      return { json: [{ message_id: 9, status: 'Failed' }] }
    case '09990000002':
      return { delayMs: 1000, json: accepted(post) }
    default:
      return { json: accepted(post) }
  }
}

const sms = (recipient: string, secret?: string): OutgoingMessage => ({
  channel: 'sms',
  recipient,
  body: `Hiram: ${secret ?? '000'} is your login code.`,
  purpose: 'login_mfa',
  secret,
})

let fake: Awaited<ReturnType<typeof startHttpFake>>
beforeAll(async () => {
  fake = await startHttpFake(semaphore)
})
afterAll(() => fake?.close())

const sender = (overrides: Partial<Parameters<typeof createSemaphoreSms>[0]> = {}) =>
  createSemaphoreSms({ apiKey: 'key-123', senderName: 'HIRAM', baseUrl: `${fake.url}/`, ...overrides })

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(MessageNotSentError)
  expect(error).toMatchObject({ kind: 'unavailable', code: 'messageNotSent', channel: 'sms' })
  return error as MessageNotSentError
}

describe('Semaphore SMS', () => {
  it('posts apikey, number, message and sendername form-encoded to /api/v4/messages', async () => {
    await sender().deliver(sms('09171234567', '482'))
    expect(fake.posts.at(-1)).toEqual({
      path: '/api/v4/messages',
      contentType: 'application/x-www-form-urlencoded',
      form: {
        apikey: 'key-123',
        number: '09171234567',
        message: 'Hiram: 482 is your login code.',
        sendername: 'HIRAM',
      },
    })
  })

  it('leaves sendername out when none is registered, and sends codes by the priority route when asked', async () => {
    await sender({ senderName: undefined, priorityCodes: true }).deliver(sms('09171234567', '111'))
    expect(fake.posts.at(-1)!.path).toBe('/api/v4/priority')
    expect(fake.posts.at(-1)!.form).not.toHaveProperty('sendername')
    await sender({ priorityCodes: true }).deliver({ ...sms('09171234567'), secret: undefined })
    expect(fake.posts.at(-1)!.path).toBe('/api/v4/messages')
  })

  it('a refused key, the rate limit or a server error is refused, with the HTTP status as detail', async () => {
    expect(await failure(sender({ apiKey: 'wrong' }).deliver(sms('09171234567')))).toMatchObject({
      reason: 'refused',
      detail: '401',
    })
    expect(await failure(sender().deliver(sms('09990000429')))).toMatchObject({
      reason: 'refused',
      detail: '429',
    })
    expect(await failure(sender().deliver(sms('09990000500')))).toMatchObject({
      reason: 'refused',
      detail: '500',
    })
  })

  it('a field error or a failed entry is refused, naming fields only, never the number or text', async () => {
    const fieldError = await failure(sender().deliver(sms('09990000422')))
    expect(fieldError).toMatchObject({ reason: 'refused', detail: 'number' })
    expect(JSON.stringify(fieldError)).not.toContain('09990000422')
    expect(await failure(sender().deliver(sms('09990000001')))).toMatchObject({
      reason: 'refused',
      detail: 'no_message',
    })
  })

  it('a slow gateway is a timeout; a closed port is unreachable', async () => {
    expect(await failure(sender({ timeoutMs: 100 }).deliver(sms('09990000002')))).toMatchObject({
      reason: 'timeout',
    })
    const closed = await startHttpFake(() => ({}))
    await closed.close()
    expect(await failure(sender({ baseUrl: closed.url }).deliver(sms('09171234567')))).toMatchObject({
      reason: 'unreachable',
    })
  })
})
