/**
 * A referrer's unused reward (docs/decisions/0041-referrals.md): the rewards earned, less what signed offers took
 * off their service fee, not counting a use whose loan was cancelled before the money left (the reward is given
 * back by leaving that use out, never by editing a row: both tables are append-only). Read by the pricing of the
 * client's next offer and again, under the client's journey lock, when that offer is signed.
 */
import { and, eq, sql } from 'drizzle-orm'
import { loanStatusCode } from '../../../domain/loan/loan-lifecycle.machine'
import type { DbOrTx } from '../../db/client'
import { loan } from '../../db/schema-lending'
import { referralReward, referralRewardUse } from '../../db/schema-referrals'

export async function unusedReferralReward(db: DbOrTx, clientId: number): Promise<number> {
  const [earned] = await db
    .select({ sum: sql<string>`coalesce(sum(${referralReward.amount}), 0)` })
    .from(referralReward)
    .where(eq(referralReward.referrerClientId, clientId))
  const [used] = await db
    .select({ sum: sql<string>`coalesce(sum(${referralRewardUse.amount}), 0)` })
    .from(referralRewardUse)
    .leftJoin(loan, eq(loan.applicationId, referralRewardUse.applicationId))
    .where(
      and(
        eq(referralRewardUse.clientId, clientId),
        sql`(${loan.status} is null or ${loan.status} <> ${loanStatusCode.cancelled})`,
      ),
    )
  const balance = BigInt(earned?.sum ?? '0') - BigInt(used?.sum ?? '0')
  return balance > 0n ? Number(balance) : 0
}
