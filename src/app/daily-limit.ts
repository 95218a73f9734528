/**
 * The daily limit refresh (spec section 7: PUT /private/client/yhat/limit; section 9: the daily limit refresh
 * marker, 12 hours): once per marker a logged-in client's available amount is worked out again, and the client
 * record reloaded so the calculator shows it. The marker is written only after the server answered, so a failed
 * refresh is tried again on the next page load.
 */
import { refreshLimit } from '../../domain/contract/tracking'
import { DAILY_LIMIT_COOKIE, DAILY_LIMIT_MAX_AGE_SECONDS } from '../../domain/tracking'
import type { ApiClient } from '../api/client'
import { readCookie, writeCookie } from './cookies'

/** Answers whether it asked the server (false: the marker was there, or the call failed). */
export async function refreshDailyLimit(api: ApiClient, reloadClient: () => void): Promise<boolean> {
  if (readCookie(DAILY_LIMIT_COOKIE)) return false
  try {
    const answer = await api.call(refreshLimit, {}, { quiet: true })
    writeCookie(DAILY_LIMIT_COOKIE, answer.refreshedAt, DAILY_LIMIT_MAX_AGE_SECONDS)
    reloadClient()
    return true
  } catch {
    return false
  }
}
