/**
 * Refer-a-friend (issue 22 item 2, docs/decisions/0041-referrals.md). Migration 0022_referrals.
 *
 * `referral`: one invitation of a friend's mobile number by a referrer. The number is kept only while it is needed to
 * recognise the friend's sign-up: it is erased (null) when the invitation is cancelled, expires or is refused, and
 * the last four digits stay for the referrer's list. Statuses: invited, signedUp, rewarded, cancelled, expired,
 * refused (domain/referrals.ts); one open invitation (invited or signedUp) per number.
 *
 * `referral_reward`: the reward earned by an invitation, append-only: centavos off the fees of the referrer's next
 * loan, one per invitation.
 *
 * `referral_reward_use` (migration 0026_referral_reward_use): a reward spent, append-only: the centavos a signed
 * offer took off its service fee, one row per application, written with the signature. The unused balance is the
 * rewards earned less the uses whose loan was not cancelled before the money left (a cancelled loan gives its
 * reward back by being left out of the sum, never by editing a row).
 */
import { sql } from 'drizzle-orm'
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { id, money, ref, ts } from './columns'

export const referral = pgTable(
  'referral',
  {
    id: id(),
    referrerClientId: ref('referrer_client_id').notNull(),
    /** 09XXXXXXXXX while the invitation is open; null once it ended without a sign-up or was refused. */
    friendPhone: text('friend_phone'),
    phoneLast4: text('phone_last4').notNull(),
    status: text('status').notNull().default('invited'),
    /** sameDevice | rewardLimit (status refused). */
    refusal: text('refusal'),
    friendClientId: ref('friend_client_id'),
    invitedAt: ts('invited_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    signedUpAt: ts('signed_up_at'),
    /** When the status last changed. */
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('referral_referrer_idx').on(t.referrerClientId, t.invitedAt),
    uniqueIndex('referral_open_phone_uq')
      .on(t.friendPhone)
      .where(sql`${t.status} in ('invited', 'signedUp')`),
    check(
      'referral_status_ck',
      sql`${t.status} in ('invited', 'signedUp', 'rewarded', 'cancelled', 'expired', 'refused')`,
    ),
  ],
)

export const referralReward = pgTable(
  'referral_reward',
  {
    id: id(),
    referralId: ref('referral_id').notNull(),
    referrerClientId: ref('referrer_client_id').notNull(),
    /** Centavos off the fees of the referrer's next loan. */
    amount: money('amount').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('referral_reward_referral_uq').on(t.referralId),
    index('referral_reward_referrer_idx').on(t.referrerClientId, t.createdAt),
    check('referral_reward_amount_ck', sql`${t.amount} >= 0`),
  ],
)

export const referralRewardUse = pgTable(
  'referral_reward_use',
  {
    id: id(),
    clientId: ref('client_id').notNull(),
    applicationId: ref('application_id').notNull(),
    /** Centavos taken off the signed offer's service fee. */
    amount: money('amount').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('referral_reward_use_application_uq').on(t.applicationId),
    index('referral_reward_use_client_idx').on(t.clientId),
    check('referral_reward_use_amount_ck', sql`${t.amount} > 0`),
  ],
)
