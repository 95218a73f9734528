/**
 * Payout (spec section 7): the client's disbursement entries, choosing one, checking a bank account number, and
 * PUT /finish, which ends registration once a payout method is chosen.
 */
import * as v from 'valibot'
import { ibanValidateSchema, journeyMessageKeys, payoutSchema } from '../../../domain/journey/fields'
import { journeyTransaction } from '../../services/journey/journey'
import {
  addDisbursement,
  assertInstitution,
  assertPayoutSelected,
  bankAccountExists,
  listDisbursements,
  payoutUniqueError,
  selectDisbursement,
} from '../../services/journey/payout'
import { failedDisbursement, retryPayoutInTransaction } from '../../services/lending/payout'
import { ok } from '../envelope'
import { validationFailed } from '../errors'
import { type AnyRoute, defineRoute } from '../route'
import { clientIdOf, db, deps } from './journey'

const entryId = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9]\d{0,14}$/, 'Must be a positive whole number.'), v.transform(Number)),
})

export const payoutRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/private/client/disbursement-type',
    summary:
      "The client's payout accounts (bank transfer, e-wallet, cash card, cash pickup); one is selected",
    tags: ['payout'],
    access: 'client',
    handler: async (c) => ok(c, await listDisbursements(db(c), clientIdOf(c))),
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/disbursement-type',
    summary: 'Add a payout account and select it (during disbursement_type, or later to change it)',
    tags: ['payout'],
    access: 'client',
    body: payoutSchema,
    handler: async (c, { body }) => {
      const now = deps(c).now()
      const id = clientIdOf(c)
      await assertInstitution(db(c), body)
      let change: Awaited<ReturnType<typeof journeyTransaction<number>>>
      try {
        change = await journeyTransaction(deps(c), id, { type: 'SAVE_PAYOUT' }, now, (tx) =>
          addDisbursement(tx, id, body, now),
        )
      } catch (error) {
        throw payoutUniqueError(error) ?? error
      }
      const entries = await listDisbursements(db(c), id)
      return ok(c, { entry: entries.find((e) => e.id === change.result), flow: change.flow }, 201)
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/disbursement-type/select/:id',
    summary: 'Select one of the client payout accounts',
    tags: ['payout'],
    access: 'client',
    params: entryId,
    handler: async (c, { params }) => {
      const id = clientIdOf(c)
      const change = await journeyTransaction(deps(c), id, { type: 'SAVE_PAYOUT' }, deps(c).now(), (tx) =>
        selectDisbursement(tx, id, params.id),
      )
      return ok(c, { entries: await listDisbursements(db(c), id), flow: change.flow })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/iban/validate',
    summary: 'Check a bank account number (10 to 18 digits, not already saved by this client)',
    tags: ['payout'],
    access: 'client',
    body: ibanValidateSchema,
    handler: async (c, { body }) => {
      if (await bankAccountExists(db(c), clientIdOf(c), body.iban))
        throw validationFailed([{ propertyPath: 'iban', message: journeyMessageKeys.bankAccountExist }])
      return ok(c, { valid: true, iban: body.iban })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/finish',
    summary:
      'Finish registration (disbursement_type -> no_loan_page) once a payout account is selected; after a failed payout, retry it to the account selected now',
    tags: ['journey'],
    access: 'client',
    handler: async (c) => {
      const id = clientIdOf(c)
      // Issue 6: a payout that failed comes back to this step; finishing it again retries the payout.
      if (await failedDisbursement(db(c), id)) {
        const now = deps(c).now()
        const retry = await journeyTransaction(deps(c), id, { type: 'RETRY_PAYOUT' }, now, (tx) =>
          retryPayoutInTransaction(tx, id, now),
        )
        return ok(c, { flow: retry.flow })
      }
      const change = await journeyTransaction(deps(c), id, { type: 'FINISH' }, deps(c).now(), (tx) =>
        assertPayoutSelected(tx, id),
      )
      return ok(c, { flow: change.flow })
    },
  }),
]
