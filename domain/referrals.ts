/**
 * Refer-a-friend (spec sections 1, 7 and 9; issue 22 item 2; docs/decisions/0041-referrals.md): the switch and the
 * reward rules (configuration document `referrals`, versioned and changed with maker-checker like the others), and
 * the pure rules of an invitation's life. No I/O here: server/services/referrals/ persists what these decide.
 *
 * An invitation goes invited -> signedUp -> rewarded, or ends cancelled (the referrer withdrew it), expired (no
 * sign-up in time) or refused (the friend signed up on a device the referrer uses, or the referrer's monthly reward
 * limit was reached). Statuses never go back.
 */
import * as v from 'valibot'

const whole = (min: number, max: number, what: string) =>
  v.pipe(
    v.number(`Enter a number of ${what}.`),
    v.integer(`A whole number of ${what}.`),
    v.minValue(min, `At least ${min} ${what}.`),
    v.maxValue(max, `At most ${max} ${what}.`),
  )

/**
 * The largest reward: PHP 500 off the fees of one loan. A referral reward is a discount on the cost of credit, never
 * money in hand (docs/decisions/0041-referrals.md); this bound keeps it far below the smallest loan's fees' order of
 * magnitude and keeps a reward from looking like a cash prize in the product's advertising.
 */
export const MAX_REFERRAL_REWARD_CENTAVOS = 50_000

export const referralConfigSchema = v.object({
  /** The switch: off in the spec's product (section 9, "Refer-a-friend: off"). */
  enabled: v.boolean('On or off.'),
  /** Invitations one referrer may create per Manila calendar month. */
  monthlyInvitations: whole(1, 50, 'invitations'),
  /** Rewards one referrer may earn per Manila calendar month; a friend qualifying past it is refused. */
  monthlyRewards: whole(0, 20, 'rewards'),
  /** Days an invitation waits for the friend's sign-up before it expires. */
  invitationDays: whole(1, 90, 'days'),
  /** The reward, centavos off the fees of the referrer's next loan (never paid out). */
  rewardCentavos: whole(0, MAX_REFERRAL_REWARD_CENTAVOS, 'centavos'),
})
export type ReferralConfig = v.InferOutput<typeof referralConfigSchema>

export const REFERRALS_CONFIG_KEY = 'referrals'

/** The product as the spec describes it: switched off. The rules are those an administrator would switch on. */
export const defaultReferralConfig: ReferralConfig = {
  enabled: false,
  monthlyInvitations: 5,
  monthlyRewards: 3,
  invitationDays: 30,
  rewardCentavos: 10_000,
}

export const referralStatuses = [
  'invited',
  'signedUp',
  'rewarded',
  'cancelled',
  'expired',
  'refused',
] as const
export type ReferralStatus = (typeof referralStatuses)[number]

/** Why a friend who signed up earned nothing. */
export const referralRefusals = ['sameDevice', 'rewardLimit'] as const
export type ReferralRefusal = (typeof referralRefusals)[number]

/** Statuses an invitation never leaves. */
export const finalReferralStatuses: readonly ReferralStatus[] = [
  'rewarded',
  'cancelled',
  'expired',
  'refused',
]

/** The statuses a referrer may set with PATCH: only withdrawing an invitation still waiting for the sign-up. */
export const referralPatchStatuses = ['cancelled'] as const

/** The last four digits of the friend's number, as the list shows it: `•••• ••• 4567`. */
export const maskedFriendPhone = (phone: string) => `•••• ••• ${phone.slice(-4)}`

/** Why a client may not invite now, or null when they may. */
export function invitationRefusal(facts: {
  config: ReferralConfig
  /** The referrer has at least one loan repaid in full. */
  hasRepaidLoan: boolean
  /** Client status code (spec section 4): only active (1) clients invite. */
  clientStatus: number
  invitationsThisMonth: number
}): 'referralsDisabled' | 'referrerNotEligible' | 'invitationLimit' | null {
  if (!facts.config.enabled) return 'referralsDisabled'
  if (facts.clientStatus !== 1 || !facts.hasRepaidLoan) return 'referrerNotEligible'
  if (facts.invitationsThisMonth >= facts.config.monthlyInvitations) return 'invitationLimit'
  return null
}

export interface InvitationFacts {
  status: ReferralStatus
  invitedAt: Date
  /** The friend's account, when a client with the invited number signed up after the invitation. */
  friend: { signedUpAt: Date; hasRepaidLoan: boolean; sharesDeviceWithReferrer: boolean } | null
  rewardsThisMonth: number
}

/**
 * The status an invitation moves to now (or its own when nothing changes). Pure, so the same answer comes from the
 * list call, a job or a test: a sign-up within `invitationDays` of the invitation counts; a friend on a device of
 * the referrer's is refused at once (a person inviting themselves under a second number); the reward comes with the
 * friend's first repaid loan, within the referrer's monthly limit.
 */
export function nextReferralStatus(
  facts: InvitationFacts,
  config: ReferralConfig,
  now: Date,
): { status: ReferralStatus; refusal?: ReferralRefusal } {
  if (finalReferralStatuses.includes(facts.status)) return { status: facts.status }
  const deadline = facts.invitedAt.getTime() + config.invitationDays * 86_400_000
  const friend = facts.friend && facts.friend.signedUpAt.getTime() <= deadline ? facts.friend : null
  if (!friend) return now.getTime() > deadline ? { status: 'expired' } : { status: 'invited' }
  if (friend.sharesDeviceWithReferrer) return { status: 'refused', refusal: 'sameDevice' }
  if (!friend.hasRepaidLoan) return { status: 'signedUp' }
  if (facts.rewardsThisMonth >= config.monthlyRewards) return { status: 'refused', refusal: 'rewardLimit' }
  return { status: 'rewarded' }
}
