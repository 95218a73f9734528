/**
 * A referrer's unused reward (docs/decisions/0041-referrals.md): the rewards earned, less what signed offers took
 * off their service fee, not counting a use whose loan was cancelled before the money left (the reward is given
 * back by leaving that use out, never by editing a row: both tables are append-only). Read by the pricing of the
 * client's next offer (every logged-in offer call: one statement) and again, under the client's journey lock,
 * when that offer is signed.
 */
import { eq, sql } from 'drizzle-orm'
import { loanStatusCode } from '../../../domain/loan/loan-lifecycle.machine'
import type { DbOrTx } from '../../db/client'
import { referralReward } from '../../db/schema-referrals'

export async function unusedReferralReward(db: DbOrTx, clientId: number): Promise<number> {
  // One aggregate row (even with no reward), the uses summed in a subquery beside it.
  const [row] = await db
    .select({
      earned: sql<string>`coalesce(sum(${referralReward.amount}), 0)`,
      used: sql<string>`(
        select coalesce(sum(u.amount), 0) from referral_reward_use u
        left join loan l on l.application_id = u.application_id
        where u.client_id = ${clientId} and (l.status is null or l.status <> ${loanStatusCode.cancelled})
      )`,
    })
    .from(referralReward)
    .where(eq(referralReward.referrerClientId, clientId))
  const balance = BigInt(row?.earned ?? '0') - BigInt(row?.used ?? '0')
  return balance > 0n ? Number(balance) : 0
}
