/**
 * Payout (spec section 7): domain/contract/payout.ts over server/services/journey/payout-steps.ts. The SMS code
 * of a payout change is sent here, under the requester's limits (code-delivery.ts).
 */
import {
  addDisbursement,
  finishRegistration,
  listDisbursements,
  selectDisbursement,
  sendPayoutCode,
  validateIban,
} from '../../../domain/contract/payout'
import { invalid } from '../../../domain/errors'
import { isPlaceholderAccount, journeyMessageKeys } from '../../../domain/journey/fields'
import { clientAccount } from '../../services/identity/clients'
import { bankAccountExists, listDisbursements as entriesOf } from '../../services/journey/payout'
import {
  addPayoutAccount,
  choosePayoutAccount,
  finishRegistration as finish,
  payoutCodeTarget,
} from '../../services/journey/payout-steps'
import { deliverCode } from '../code-delivery'
import { ok } from '../envelope'
import { okSlice } from '../paging'
import { callerOf, clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const payoutRoutes: AnyRoute[] = [
  implement(listDisbursements, async (c, { query }) =>
    okSlice(c, await entriesOf(db(c), clientIdOf(c)), query),
  ),

  implement(addDisbursement, async (c, { body }) =>
    ok(c, await addPayoutAccount(deps(c), clientIdOf(c), body, body.code, callerOf(c)), 201),
  ),

  implement(sendPayoutCode, async (c) => {
    const id = clientIdOf(c)
    const phone = await payoutCodeTarget(deps(c), id)
    const sent = await deliverCode(c, {
      purpose: 'payout_change',
      channel: 'sms',
      target: phone,
      owner: clientAccount(id),
    })
    return ok(c, {
      sent: true,
      nextCodeAt: sent.nextCodeAt.toISOString(),
      codeExpiresAt: sent.expiresAt.toISOString(),
    })
  }),

  implement(selectDisbursement, async (c, { params, body }) =>
    ok(c, await choosePayoutAccount(deps(c), clientIdOf(c), params.id, body.code, callerOf(c))),
  ),

  implement(validateIban, async (c, { body }) => {
    if (isPlaceholderAccount(body.iban))
      throw invalid([{ propertyPath: 'iban', message: journeyMessageKeys.bankAccountInvalid }])
    if (await bankAccountExists(db(c), clientIdOf(c), body.iban))
      throw invalid([{ propertyPath: 'iban', message: journeyMessageKeys.bankAccountExist }])
    return ok(c, { valid: true, iban: body.iban })
  }),

  implement(finishRegistration, async (c) => ok(c, await finish(deps(c), clientIdOf(c), callerOf(c)))),
]
