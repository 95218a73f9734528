/**
 * PUT /private/client/yhat/limit (spec section 7) behind the daily-limit marker (spec section 9: 12 hours): the
 * client's available loan amount worked out again now from the repayment history and the configuration
 * (domain/loan/limits.ts, through lendingFacts). The browser asks once per marker; the server allows a few more
 * (LIMIT_REFRESH_MAX in 12 hours) for browsers that keep no cookies, then answers 429.
 */
import { DAILY_LIMIT_MAX_AGE_SECONDS, LIMIT_REFRESH_MAX } from '../../../domain/tracking'
import type { DbOrTx } from '../../db/client'
import { bucketFor, limitRequests } from '../identity/throttle'
import { lendingFacts } from '../lending/applications'

export async function refreshLimit(db: DbOrTx, clientId: number, now: Date) {
  await limitRequests(
    db,
    [{ bucket: bucketFor('limit-refresh:client', String(clientId)), max: LIMIT_REFRESH_MAX }],
    DAILY_LIMIT_MAX_AGE_SECONDS / 60,
    now,
  )
  const facts = await lendingFacts(db, clientId, now)
  return {
    availableLoanAmount: { amount: Math.max(0, facts.availableAmount) },
    refreshedAt: now.toISOString(),
    nextRefreshAt: new Date(now.getTime() + DAILY_LIMIT_MAX_AGE_SECONDS * 1000).toISOString(),
  }
}
