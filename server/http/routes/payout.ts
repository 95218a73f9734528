/**
 * Payout (spec section 7): the client's disbursement entries, choosing one, checking a bank account number, and
 * PUT /finish, which ends registration once a payout method is chosen.
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import { messageKeys } from '../../../domain/identity'
import { idString } from '../../../domain/ids'
import { ibanValidateSchema, journeyMessageKeys, payoutSchema } from '../../../domain/journey/fields'
import { safeString } from '../../../domain/safe-text'
import { clientAccount, findClient } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { assertJourneyAccepts, journeyTransaction, readFlow } from '../../services/journey/journey'
import {
  addDisbursement,
  assertInstitution,
  assertPayoutSelected,
  bankAccountExists,
  describeEntry,
  listDisbursements,
  MAX_PAYOUT_ACCOUNTS,
  payoutChangeNeedsCode,
  payoutCodeRequired,
  payoutUniqueError,
  selectDisbursement,
  sendPayoutChangedNotice,
} from '../../services/journey/payout'
import { failedDisbursement, retryPayoutInTransaction } from '../../services/lending/payout'
import { deliverCode } from '../code-delivery'
import type { AppEnv } from '../context'
import { ok } from '../envelope'
import { okSlice, pagingSchema } from '../paging'
import { callerOf, clientIdOf, db, deps } from '../request'
import { type AnyRoute, defineRoute } from '../route'

const entryId = v.object({
  id: idString(),
})

/** The SMS code that confirms a change of payout account after registration (issue 13, item 9). */
const payoutCode = v.optional(v.pipe(safeString(), v.regex(/^\d{3}$/, messageKeys.verificationCode)))
const codeBody = v.object({ code: payoutCode })

async function me(c: Context<AppEnv>) {
  const row = await findClient(db(c), clientIdOf(c))
  if (!row) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
  return row
}

/**
 * Before a change: whether it needs the code, and if so that the code given is right (consumed here, so a code
 * opens one change). The journey transaction asks again on the locked step, so a change that became
 * code-bound meanwhile is refused rather than let through.
 */
async function confirmChange(c: Context<AppEnv>, code: string | undefined) {
  const id = clientIdOf(c)
  if (!(await payoutChangeNeedsCode(db(c), id))) return { confirmed: false }
  if (code === undefined) throw payoutCodeRequired()
  const client = await me(c)
  const { secrets, now } = deps(c)
  assertCode(
    await checkCode(db(c), secrets.codeKey, 'payout_change', client.phone, code, now(), clientAccount(id)),
  )
  return { confirmed: true, client }
}

async function guardInTransaction(confirmed: boolean, needsCode: Promise<boolean>) {
  if (!confirmed && (await needsCode)) throw payoutCodeRequired()
}

/** After the commit of a confirmed change: the notice by SMS and e-mail; its failure does not undo the change. */
async function notify(c: Context<AppEnv>, client: { phone: string; email: string }, entryId: number) {
  const { messaging, logger } = deps(c)
  try {
    await sendPayoutChangedNotice(
      db(c),
      messaging,
      client,
      await describeEntry(db(c), clientIdOf(c), entryId),
    )
  } catch (error) {
    logger.warn(
      { clientId: clientIdOf(c), errorClass: error instanceof Error ? error.name : typeof error },
      'payout change notice not sent',
    )
  }
}

export const payoutRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/private/client/disbursement-type',
    summary:
      "The client's payout accounts (bank transfer, e-wallet, cash card, cash pickup); one is selected",
    tags: ['payout'],
    access: 'client',
    paginated: true,
    query: pagingSchema(MAX_PAYOUT_ACCOUNTS, 50),
    handler: async (c, { query }) => okSlice(c, await listDisbursements(db(c), clientIdOf(c)), query),
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/disbursement-type',
    summary:
      'Add a payout account and select it (during disbursement_type; after registration with `code`, the SMS code of POST /disbursement-type/send-code)',
    tags: ['payout'],
    access: 'client',
    body: v.intersect([payoutSchema, codeBody]),
    handler: async (c, { body }) => {
      const now = deps(c).now()
      const id = clientIdOf(c)
      await assertInstitution(db(c), body)
      await assertJourneyAccepts(db(c), id, { type: 'SAVE_PAYOUT' })
      const { confirmed, client } = await confirmChange(c, body.code)
      let change: Awaited<ReturnType<typeof journeyTransaction<number>>>
      try {
        change = await journeyTransaction(
          deps(c),
          id,
          { type: 'SAVE_PAYOUT' },
          callerOf(c),
          now,
          async (tx, from) => {
            await guardInTransaction(confirmed, payoutChangeNeedsCode(tx, id, from))
            return addDisbursement(tx, id, body, now)
          },
        )
      } catch (error) {
        throw payoutUniqueError(error) ?? error
      }
      if (client) await notify(c, client, change.result)
      const entries = await listDisbursements(db(c), id)
      return ok(c, { entry: entries.find((e) => e.id === change.result), flow: change.flow }, 201)
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/disbursement-type/send-code',
    summary:
      'After registration: sends the SMS code that confirms adding or selecting a payout account (one a minute; nextCodeAt for the countdown)',
    tags: ['payout'],
    access: 'client',
    handler: async (c) => {
      const id = clientIdOf(c)
      await assertJourneyAccepts(db(c), id, { type: 'SAVE_PAYOUT' })
      if (!(await payoutChangeNeedsCode(db(c), id)))
        throw new DomainError(
          'conflict',
          'payoutCodeNotNeeded',
          'No code is needed to choose the first payout account.',
        )
      const client = await me(c)
      const sent = await deliverCode(c, {
        purpose: 'payout_change',
        channel: 'sms',
        target: client.phone,
        owner: clientAccount(id),
      })
      return ok(c, {
        sent: true,
        nextCodeAt: sent.nextCodeAt.toISOString(),
        codeExpiresAt: sent.expiresAt.toISOString(),
      })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/disbursement-type/select/:id',
    summary:
      'Select one of the client payout accounts (after registration with `code`, the SMS code of POST /disbursement-type/send-code)',
    tags: ['payout'],
    access: 'client',
    params: entryId,
    body: codeBody,
    handler: async (c, { params, body }) => {
      const id = clientIdOf(c)
      await assertJourneyAccepts(db(c), id, { type: 'SAVE_PAYOUT' })
      const entries = await listDisbursements(db(c), id)
      // Another client's entry answers exactly like one that does not exist; the selected one needs no code.
      const entry = entries.find((e) => e.id === params.id)
      if (!entry) throw notFound('Disbursement entry')
      if (entry.selected) return ok(c, { entries, flow: await readFlow(db(c), id) })
      const { confirmed, client } = await confirmChange(c, body.code)
      const change = await journeyTransaction(
        deps(c),
        id,
        { type: 'SAVE_PAYOUT' },
        callerOf(c),
        deps(c).now(),
        async (tx, from) => {
          await guardInTransaction(confirmed, payoutChangeNeedsCode(tx, id, from))
          await selectDisbursement(tx, id, params.id)
        },
      )
      if (client) await notify(c, client, params.id)
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
        throw invalid([{ propertyPath: 'iban', message: journeyMessageKeys.bankAccountExist }])
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
        const retry = await journeyTransaction(
          deps(c),
          id,
          { type: 'RETRY_PAYOUT' },
          callerOf(c),
          now,
          (tx) => retryPayoutInTransaction(tx, id, now),
        )
        return ok(c, { flow: retry.flow })
      }
      const change = await journeyTransaction(
        deps(c),
        id,
        { type: 'FINISH' },
        callerOf(c),
        deps(c).now(),
        (tx) => assertPayoutSelected(tx, id),
      )
      return ok(c, { flow: change.flow })
    },
  }),
]
