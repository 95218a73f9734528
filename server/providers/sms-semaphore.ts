/**
 * SMS through Semaphore (semaphore.co), a Philippine SMS gateway: `POST {base}/api/v4/messages` with `apikey`,
 * `number`, `message` and `sendername`, form-encoded; the answer is a JSON array with one entry per recipient
 * (`message_id`, `status`, ...). Codes may go through `/api/v4/priority` instead (no queue, costs more).
 *
 * Any answer other than an accepted message is a MessageNotSentError: `timeout` (no answer within the limit:
 * the message may still arrive), `unreachable` (no connection) or `refused` (an HTTP error such as 401 for a
 * bad key, 429 over the rate limit, or an answer that lists no accepted message). The API key, the number and
 * the text never reach the log.
 */
import { type ChannelSender, MessageNotSentError } from './messaging-live'

export const SEMAPHORE_BASE_URL = 'https://api.semaphore.co'

export interface SemaphoreOptions {
  apiKey: string
  /** The registered sender name (at most 11 characters); Semaphore's default when unset. */
  senderName?: string
  baseUrl?: string
  timeoutMs?: number
  /** Send messages that carry a code through the priority route. */
  priorityCodes?: boolean
  fetch?: typeof fetch
}

/** Statuses of an entry Semaphore did not take. */
const NOT_TAKEN = new Set(['failed', 'refunded'])

export function createSemaphoreSms(options: SemaphoreOptions): ChannelSender {
  const base = (options.baseUrl ?? SEMAPHORE_BASE_URL).replace(/\/+$/, '')
  const timeoutMs = options.timeoutMs ?? 10_000
  const doFetch = options.fetch ?? fetch
  return {
    name: 'semaphore',
    channel: 'sms',
    async deliver(message) {
      const form = new URLSearchParams({
        apikey: options.apiKey,
        number: message.recipient,
        message: message.body,
      })
      if (options.senderName) form.set('sendername', options.senderName)
      const path = options.priorityCodes && message.secret ? '/api/v4/priority' : '/api/v4/messages'
      let response: Response
      try {
        response = await doFetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (error) {
        const name = (error as Error)?.name
        throw new MessageNotSentError(
          'sms',
          name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable',
        )
      }
      let answer: unknown
      try {
        answer = await response.json()
      } catch {
        answer = undefined
      }
      if (!response.ok) throw new MessageNotSentError('sms', 'refused', String(response.status))
      const entries = Array.isArray(answer) ? answer : []
      const taken = entries.some(
        (entry) =>
          typeof entry === 'object' &&
          entry !== null &&
          'message_id' in entry &&
          !NOT_TAKEN.has(String((entry as { status?: unknown }).status ?? '').toLowerCase()),
      )
      // Semaphore answers field errors as an object keyed by field ({"number": ["..."]}): name the fields only.
      if (!taken) {
        const detail =
          answer && typeof answer === 'object' && !Array.isArray(answer)
            ? Object.keys(answer).slice(0, 5).join(',')
            : 'no_message'
        throw new MessageNotSentError('sms', 'refused', detail)
      }
    },
  }
}
