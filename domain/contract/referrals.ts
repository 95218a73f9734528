/**
 * Refer-a-friend (spec section 7: GET and POST /private/client/referrals, PATCH /private/client/referrals/{id};
 * docs/decisions/0041-referrals.md). Behind the `referrals` configuration switch, off as in the spec's product:
 * while it is off the list is empty and creating or changing an invitation is a 409 `referralsDisabled`.
 */
import * as v from 'valibot'
import { mobilePhoneSchema } from '../identity'
import { idString } from '../ids'
import { referralPatchStatuses, referralRefusals, referralStatuses } from '../referrals'
import { defineContract } from './define'
import { pagingQuery } from './reference'

export const referralSchema = v.object({
  id: v.number(),
  /** The friend's number, masked to its last four digits: the referrer typed it, nobody reads it back. */
  phone: v.string(),
  status: v.picklist(referralStatuses),
  /** Why a friend who signed up earned nothing (status refused). */
  refusal: v.nullable(v.picklist(referralRefusals)),
  invitedAt: v.string(),
  /** When the invitation lapses if the friend has not signed up by then. */
  expiresAt: v.string(),
  signedUpAt: v.nullable(v.string()),
  /** The reward earned (status rewarded): centavos off the fees of the referrer's next loan. */
  reward: v.nullable(v.object({ amount: v.number(), currency: v.literal('PHP') })),
})
export type Referral = v.InferOutput<typeof referralSchema>

export const listReferrals = defineContract({
  method: 'get',
  path: '/private/client/referrals',
  summary:
    "The client's invitations, newest first, with their status and reward (x-* pagination headers); an empty list while referrals are switched off",
  tags: ['referrals'],
  access: 'client',
  paginated: true,
  query: v.object(pagingQuery(20, 100)),
  response: v.array(referralSchema),
})

export const createReferral = defineContract({
  method: 'post',
  path: '/private/client/referrals',
  summary:
    "Invite a friend by mobile number (201 with the invitation). Only a client with a repaid loan (422 referrerNotEligible), within the month's limit (422 invitationLimit), never one's own number (400 on mobilePhone.number), one open invitation per number (409 alreadyInvited); 409 referralsDisabled while switched off. No message is sent to the friend: the referrer tells them",
  tags: ['referrals'],
  access: 'client',
  body: v.object({ mobilePhone: v.object({ number: mobilePhoneSchema }) }),
  response: referralSchema,
})

export const updateReferral = defineContract({
  method: 'patch',
  path: '/private/client/referrals/:id',
  summary:
    "Withdraw an invitation still waiting for the friend's sign-up (status cancelled; the friend's number is erased). 404 for an invitation of another client, 409 referralFinal once the friend signed up or it ended, 409 referralsDisabled while switched off",
  tags: ['referrals'],
  access: 'client',
  params: v.object({ id: idString(undefined, 'The id must be a number.') }),
  body: v.object({
    status: v.picklist(referralPatchStatuses, 'The only change is status cancelled.'),
  }),
  response: referralSchema,
})
