/**
 * The payout step's use cases: adding or choosing a payout account (confirmed by the SMS code once registration
 * is finished, issue 13 item 9; docs/decisions/0012) and finishing registration. Apart from the payout accounts'
 * data (payout.ts) because finishing may retry a failed payout, which is the lending side's.
 */

import { DomainError, notFound } from '../../../domain/errors'
import type { Payout } from '../../../domain/journey/fields'
import type { AppDeps } from '../../deps'
import { clientAccount, findClient } from '../identity/clients'
import { assertCode, checkCode } from '../identity/codes'
import { failedDisbursement, retryPayoutInTransaction } from '../lending/payout'
import { type Actor, assertJourneyAccepts, type JourneyChange, journeyTransaction, readFlow } from './journey'
import {
  addDisbursement,
  assertInstitution,
  assertPayoutSelected,
  describeEntry,
  listDisbursements,
  payoutChangeNeedsCode,
  payoutCodeRequired,
  payoutUniqueError,
  selectDisbursement,
  sendPayoutChangedNotice,
} from './payout'

type Deps = Pick<AppDeps, 'database' | 'logger' | 'now' | 'secrets' | 'messaging'>

/** The client asking, as the session named it. */
async function clientOf(deps: Deps, clientId: number) {
  const row = await findClient(deps.database.db, clientId)
  if (!row) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
  return row
}

/**
 * Before a change: whether it needs the code, and if so that the code given is right (consumed here, so a code
 * opens one change). The journey transaction asks again on the locked step, so a change that became
 * code-bound meanwhile is refused rather than let through.
 */
async function confirmChange(deps: Deps, clientId: number, code: string | undefined) {
  const db = deps.database.db
  if (!(await payoutChangeNeedsCode(db, clientId))) return { confirmed: false }
  if (code === undefined) throw payoutCodeRequired()
  const client = await clientOf(deps, clientId)
  assertCode(
    await checkCode(
      db,
      deps.secrets.codeKey,
      'payout_change',
      client.phone,
      code,
      deps.now(),
      clientAccount(clientId),
    ),
  )
  return { confirmed: true, client }
}

async function guardInTransaction(confirmed: boolean, needsCode: Promise<boolean>) {
  if (!confirmed && (await needsCode)) throw payoutCodeRequired()
}

/** After the commit of a confirmed change: the notice by SMS and e-mail; its failure does not undo the change. */
async function notify(
  deps: Deps,
  clientId: number,
  client: { phone: string; email: string },
  entryId: number,
) {
  const db = deps.database.db
  try {
    await sendPayoutChangedNotice(db, deps.messaging, client, await describeEntry(db, clientId, entryId))
  } catch (error) {
    deps.logger.warn(
      { clientId, errorClass: error instanceof Error ? error.name : typeof error },
      'payout change notice not sent',
    )
  }
}

/**
 * Before the SMS code of a payout change is sent: the step takes a change, and the change needs a code (the
 * first account chosen during registration does not). Answers the phone the code goes to.
 */
export async function payoutCodeTarget(deps: Deps, clientId: number) {
  const db = deps.database.db
  await assertJourneyAccepts(db, clientId, { type: 'SAVE_PAYOUT' })
  if (!(await payoutChangeNeedsCode(db, clientId)))
    throw new DomainError(
      'conflict',
      'payoutCodeNotNeeded',
      'No code is needed to choose the first payout account.',
    )
  return (await clientOf(deps, clientId)).phone
}

/** Adds a payout account and selects it (SAVE_PAYOUT); answers the new entry and the flow. */
export async function addPayoutAccount(
  deps: Deps,
  clientId: number,
  payout: Payout,
  code: string | undefined,
  by: Actor,
) {
  const db = deps.database.db
  const now = deps.now()
  await assertInstitution(db, payout)
  await assertJourneyAccepts(db, clientId, { type: 'SAVE_PAYOUT' })
  const { confirmed, client } = await confirmChange(deps, clientId, code)
  let change: JourneyChange<number>
  try {
    change = await journeyTransaction(deps, clientId, { type: 'SAVE_PAYOUT' }, by, now, async (tx, from) => {
      await guardInTransaction(confirmed, payoutChangeNeedsCode(tx, clientId, from))
      return addDisbursement(tx, clientId, payout, now)
    })
  } catch (error) {
    throw payoutUniqueError(error) ?? error
  }
  if (client) await notify(deps, clientId, client, change.result)
  const entries = await listDisbursements(db, clientId)
  return { entry: entries.find((e) => e.id === change.result)!, flow: change.flow }
}

/** Selects one of the client's payout accounts (SAVE_PAYOUT); the selected one again changes nothing. */
export async function choosePayoutAccount(
  deps: Deps,
  clientId: number,
  entryId: number,
  code: string | undefined,
  by: Actor,
) {
  const db = deps.database.db
  await assertJourneyAccepts(db, clientId, { type: 'SAVE_PAYOUT' })
  const entries = await listDisbursements(db, clientId)
  // Another client's entry answers exactly like one that does not exist; the selected one needs no code.
  const entry = entries.find((e) => e.id === entryId)
  if (!entry) throw notFound('Disbursement entry')
  if (entry.selected) return { entries, flow: await readFlow(db, clientId) }
  const { confirmed, client } = await confirmChange(deps, clientId, code)
  const change = await journeyTransaction(
    deps,
    clientId,
    { type: 'SAVE_PAYOUT' },
    by,
    deps.now(),
    async (tx, from) => {
      await guardInTransaction(confirmed, payoutChangeNeedsCode(tx, clientId, from))
      await selectDisbursement(tx, clientId, entryId)
    },
  )
  if (client) await notify(deps, clientId, client, entryId)
  return { entries: await listDisbursements(db, clientId), flow: change.flow }
}

/**
 * Finishes registration (FINISH) once a payout account is selected. Issue 6: a payout that failed brings the
 * client back to this step, and finishing it again retries the payout (RETRY_PAYOUT).
 */
export async function finishRegistration(deps: Deps, clientId: number, by: Actor) {
  const db = deps.database.db
  if (await failedDisbursement(db, clientId)) {
    const now = deps.now()
    const retry = await journeyTransaction(deps, clientId, { type: 'RETRY_PAYOUT' }, by, now, (tx) =>
      retryPayoutInTransaction(tx, clientId, now),
    )
    return { flow: retry.flow }
  }
  const change = await journeyTransaction(deps, clientId, { type: 'FINISH' }, by, deps.now(), (tx) =>
    assertPayoutSelected(tx, clientId),
  )
  return { flow: change.flow }
}
