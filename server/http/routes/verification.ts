/**
 * Identity verification (Veriff-style) and bank data (Kontomatik-style): domain/contract/verification.ts over
 * server/services/journey/verification.ts.
 */
import {
  getBankData,
  getVerificationDecision,
  getVerificationSession,
  importBankData,
  skipBankData,
  startVerification,
} from '../../../domain/contract/verification'
import {
  bankDataState,
  decideSession,
  importBankData as importBank,
  openSession,
  readLatestSession,
  skipBankData as skipBank,
} from '../../services/journey/verification'
import { ok } from '../envelope'
import { callerOf, clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const verificationRoutes: AnyRoute[] = [
  implement(startVerification, async (c) => {
    const { session, created } = await openSession(deps(c), clientIdOf(c), callerOf(c))
    return ok(c, session, created ? 201 : 200)
  }),
  implement(getVerificationSession, async (c) => ok(c, await readLatestSession(db(c), clientIdOf(c)))),
  implement(getVerificationDecision, async (c, { params }) =>
    ok(c, await decideSession(deps(c), clientIdOf(c), params.id, callerOf(c))),
  ),
  implement(getBankData, async (c) => ok(c, await bankDataState(deps(c), clientIdOf(c)))),
  implement(importBankData, async (c, { body }) =>
    ok(c, await importBank(deps(c), clientIdOf(c), body, callerOf(c))),
  ),
  implement(skipBankData, async (c) => ok(c, await skipBank(deps(c), clientIdOf(c), callerOf(c)))),
]
