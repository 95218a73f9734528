/**
 * Refer-a-friend (issue 22 item 2, docs/decisions/0041-referrals.md): invitations, their settlement and rewards.
 *
 * The rules are domain/referrals.ts; this file reads the facts they need and writes what they decide. Settlement is
 * lazy and idempotent: the referrer's open invitations are brought up to date (friend signed up, first loan repaid,
 * same device, expiry) whenever the referrer lists or creates one, in one transaction with the invitations locked,
 * so two calls at once settle once and a reward is written once (unique per invitation). No message is sent to the
 * friend and nothing here awaits a provider, so the transaction holds no I/O.
 */
import { and, count, desc, eq, gte, inArray } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Referral } from '../../../domain/contract/referrals'
import { conflict, DomainError, invalid, notFound, refused } from '../../../domain/errors'
import { manilaDate, manilaDayStart } from '../../../domain/pricing/manila-date'
import {
  defaultReferralConfig,
  finalReferralStatuses,
  invitationRefusal,
  maskedFriendPhone,
  nextReferralStatus,
  REFERRALS_CONFIG_KEY,
  type ReferralConfig,
  type ReferralRefusal,
  type ReferralStatus,
  referralConfigSchema,
} from '../../../domain/referrals'
import type { Db, DbOrTx } from '../../db/client'
import { rootCause } from '../../db/errors'
import { client, trustedDevice } from '../../db/schema-identity'
import { loan } from '../../db/schema-lending'
import { referral, referralReward } from '../../db/schema-referrals'
import { readConfigOr } from '../config'

type ReferralRow = typeof referral.$inferSelect

/** Loan status paid (spec section 4): repaid in full. */
const LOAN_PAID = 5

export const readReferralConfig = (db: DbOrTx): Promise<ReferralConfig> =>
  readConfigOr(db, REFERRALS_CONFIG_KEY, referralConfigSchema, defaultReferralConfig)

const monthStart = (now: Date) => manilaDayStart(`${manilaDate(now).slice(0, 7)}-01`)

async function hasRepaidLoan(db: DbOrTx, clientId: number) {
  const [row] = await db
    .select({ id: loan.id })
    .from(loan)
    .where(and(eq(loan.clientId, clientId), eq(loan.status, LOAN_PAID)))
    .limit(1)
  return Boolean(row)
}

async function sharesDevice(db: DbOrTx, a: number, b: number) {
  const other = alias(trustedDevice, 'other_device')
  const [row] = await db
    .select({ id: trustedDevice.id })
    .from(trustedDevice)
    .innerJoin(
      other,
      and(
        eq(other.deviceHash, trustedDevice.deviceHash),
        eq(other.subjectType, 'client'),
        eq(other.subjectId, b),
      ),
    )
    .where(and(eq(trustedDevice.subjectType, 'client'), eq(trustedDevice.subjectId, a)))
    .limit(1)
  return Boolean(row)
}

/** Brings the referrer's open invitations up to date, in the caller's transaction. */
async function settle(tx: DbOrTx, referrerId: number, config: ReferralConfig, now: Date) {
  const open = await tx
    .select()
    .from(referral)
    .where(and(eq(referral.referrerClientId, referrerId), inArray(referral.status, ['invited', 'signedUp'])))
    .orderBy(referral.invitedAt, referral.id)
    .for('update')
  if (!open.length) return
  const [earned] = await tx
    .select({ n: count() })
    .from(referralReward)
    .where(
      and(eq(referralReward.referrerClientId, referrerId), gte(referralReward.createdAt, monthStart(now))),
    )
  let rewardsThisMonth = earned?.n ?? 0
  for (const row of open) {
    const friend = await friendFacts(tx, referrerId, row)
    const next = nextReferralStatus(
      { status: row.status as ReferralStatus, invitedAt: row.invitedAt, friend, rewardsThisMonth },
      config,
      now,
    )
    if (next.status === row.status && (row.friendClientId || !friend)) continue
    const ended = finalReferralStatuses.includes(next.status)
    await tx
      .update(referral)
      .set({
        status: next.status,
        refusal: next.refusal ?? null,
        friendClientId: friend?.clientId ?? row.friendClientId,
        signedUpAt: friend?.signedUpAt ?? row.signedUpAt,
        // Data minimisation (RA 10173): the number is kept only while it may still identify the friend.
        friendPhone: ended ? null : row.friendPhone,
        updatedAt: now,
      })
      .where(eq(referral.id, row.id))
    if (next.status === 'rewarded') {
      await tx
        .insert(referralReward)
        .values({
          referralId: row.id,
          referrerClientId: referrerId,
          amount: config.rewardCentavos,
          createdAt: now,
        })
        .onConflictDoNothing()
      rewardsThisMonth++
    }
  }
}

/** The friend's account, if a client with the invited number signed up after the invitation. */
async function friendFacts(tx: DbOrTx, referrerId: number, row: ReferralRow) {
  if (!row.friendPhone) return null
  const [found] = await tx
    .select({ id: client.id, createdAt: client.createdAt })
    .from(client)
    .where(and(eq(client.phone, row.friendPhone), gte(client.createdAt, row.invitedAt)))
  if (!found || found.id === referrerId) return null
  return {
    clientId: found.id,
    signedUpAt: found.createdAt,
    hasRepaidLoan: await hasRepaidLoan(tx, found.id),
    sharesDeviceWithReferrer: await sharesDevice(tx, referrerId, found.id),
  }
}

function view(row: ReferralRow, reward: number | null): Referral {
  return {
    id: row.id,
    phone: maskedFriendPhone(row.phoneLast4),
    status: row.status as ReferralStatus,
    refusal: (row.refusal as ReferralRefusal | null) ?? null,
    invitedAt: row.invitedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    signedUpAt: row.signedUpAt?.toISOString() ?? null,
    reward: reward === null ? null : { amount: reward, currency: 'PHP' },
  }
}

async function views(db: DbOrTx, rows: ReferralRow[]): Promise<Referral[]> {
  if (!rows.length) return []
  const rewards = await db
    .select({ referralId: referralReward.referralId, amount: referralReward.amount })
    .from(referralReward)
    .where(
      inArray(
        referralReward.referralId,
        rows.map((r) => r.id),
      ),
    )
  const byId = new Map(rewards.map((r) => [r.referralId, r.amount]))
  return rows.map((row) => view(row, byId.get(row.id) ?? null))
}

/** GET /private/client/referrals: a page of the referrer's invitations, settled first; empty while switched off. */
export async function listReferrals(
  db: Db,
  referrerId: number,
  page: { page: number; perPage: number },
  now: Date,
): Promise<{ items: Referral[]; total: number }> {
  const config = await readReferralConfig(db)
  if (!config.enabled) return { items: [], total: 0 }
  await db.transaction((tx) => settle(tx, referrerId, config, now))
  const [total] = await db
    .select({ n: count() })
    .from(referral)
    .where(eq(referral.referrerClientId, referrerId))
  const rows = await db
    .select()
    .from(referral)
    .where(eq(referral.referrerClientId, referrerId))
    .orderBy(desc(referral.invitedAt), desc(referral.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
  return { items: await views(db, rows), total: total?.n ?? 0 }
}

const disabled = () => conflict('referralsDisabled', 'Referrals are switched off.')

/** POST /private/client/referrals: invites the friend's number (the referrer tells the friend; we send nothing). */
export async function inviteFriend(db: Db, referrerId: number, phone: string, now: Date): Promise<Referral> {
  const config = await readReferralConfig(db)
  if (!config.enabled) throw disabled()
  try {
    return await db.transaction(async (tx) => {
      // The referrer's row is the lock that keeps two invitations at once within the month's limit.
      const [me] = await tx
        .select({ id: client.id, phone: client.phone, status: client.status })
        .from(client)
        .where(eq(client.id, referrerId))
        .for('update')
      if (!me) throw notFound('Client')
      if (me.phone === phone)
        throw invalid(
          [{ propertyPath: 'mobilePhone.number', message: 'selfReferral' }],
          'You cannot invite your own number.',
        )
      await settle(tx, referrerId, config, now)
      const [sent] = await tx
        .select({ n: count() })
        .from(referral)
        .where(and(eq(referral.referrerClientId, referrerId), gte(referral.invitedAt, monthStart(now))))
      const refusal = invitationRefusal({
        config,
        hasRepaidLoan: await hasRepaidLoan(tx, referrerId),
        clientStatus: me.status,
        invitationsThisMonth: sent?.n ?? 0,
      })
      if (refusal === 'referrerNotEligible')
        throw refused(refusal, 'Invitations open once you have repaid a loan with us.')
      if (refusal === 'invitationLimit')
        throw refused(refusal, `At most ${config.monthlyInvitations} invitations a month.`)
      if (refusal) throw disabled()
      const [row] = await tx
        .insert(referral)
        .values({
          referrerClientId: referrerId,
          friendPhone: phone,
          phoneLast4: phone.slice(-4),
          status: 'invited',
          invitedAt: now,
          expiresAt: new Date(now.getTime() + config.invitationDays * 86_400_000),
          updatedAt: now,
        })
        .returning()
      return view(row!, null)
    })
  } catch (error) {
    const cause = rootCause(error) as { code?: string; constraint?: string } | null
    if (cause?.code === '23505' && cause.constraint === 'referral_open_phone_uq')
      throw conflict('alreadyInvited', 'This number already has an open invitation.')
    throw error
  }
}

/** PATCH /private/client/referrals/{id}: withdraws an invitation still waiting for the friend's sign-up. */
export async function cancelInvitation(db: Db, referrerId: number, id: number, now: Date): Promise<Referral> {
  const config = await readReferralConfig(db)
  if (!config.enabled) throw disabled()
  return db.transaction(async (tx) => {
    await settle(tx, referrerId, config, now)
    const [row] = await tx
      .select()
      .from(referral)
      .where(and(eq(referral.id, id), eq(referral.referrerClientId, referrerId)))
      .for('update')
    if (!row) throw notFound('Referral')
    if (row.status === 'cancelled') return (await views(tx, [row]))[0]!
    if (row.status !== 'invited')
      throw new DomainError(
        'conflict',
        'referralFinal',
        'Only an invitation still waiting for the sign-up can be withdrawn.',
      )
    const [updated] = await tx
      .update(referral)
      .set({ status: 'cancelled', friendPhone: null, updatedAt: now })
      .where(eq(referral.id, id))
      .returning()
    return view(updated!, null)
  })
}

/** The rewards a client has earned, newest first (for the back office and the next loan's pricing). */
export async function rewardsOf(db: DbOrTx, referrerId: number) {
  return db
    .select({ id: referralReward.id, amount: referralReward.amount, createdAt: referralReward.createdAt })
    .from(referralReward)
    .where(eq(referralReward.referrerClientId, referrerId))
    .orderBy(desc(referralReward.createdAt))
    .limit(100)
}
