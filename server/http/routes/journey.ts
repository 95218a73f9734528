/**
 * The client journey and the registration steps: domain/contract/journey.ts over server/services/journey/.
 */

import type { Context } from 'hono'
import * as v from 'valibot'
import {
  addContact as addContactCall,
  completeAddress,
  completeEmployment,
  completeReference,
  confirmBackOfficeDetails as confirmBackOfficeCall,
  getFlow,
  getJourneyCurrent,
  getRegistration,
  recordGeo as recordGeoCall,
  saveDetails,
} from '../../../domain/contract/journey'
import { invalid } from '../../../domain/errors'
import { birthDateSchema } from '../../../domain/journey/fields'
import { currentAgeLimits } from '../../services/content/age-limits'
import { clientView, emailTaken, findClient, isTaken } from '../../services/identity/clients'
import { journeyTransaction, readFlow, uniqueViolationOn } from '../../services/journey/journey'
import {
  addContact,
  addressViolations,
  assertNotOwnPhone,
  confirmBackOfficeDetails,
  recordGeo,
  registrationData,
  writeAddress,
  writeDetails,
  writeEmployment,
} from '../../services/journey/registration'
import { sandboxDeployment } from '../../services/sandbox/mode'
import type { AppEnv } from '../context'
import { ok } from '../envelope'
import { callerOf, clientIdOf, currentClient, db, deps } from '../request'
import { type AnyRoute, implement, toViolations } from '../route'

const readOwnFlow = async (c: Context<AppEnv>) => ok(c, await readFlow(db(c), clientIdOf(c)))

export const journeyRoutes: AnyRoute[] = [
  implement(getFlow, readOwnFlow),
  implement(getJourneyCurrent, readOwnFlow),

  implement(getRegistration, async (c) => ok(c, await registrationData(db(c), clientIdOf(c)))),

  implement(saveDetails, async (c, { body }) => {
    const now = deps(c).now()
    // The age is counted on the server's clock (the body schema used the wall clock, like the form does) against
    // the limits the content system set (ADR 0048; the body schema only held the widest ones).
    const limits = await currentAgeLimits(db(c))
    const age = v.safeParse(
      birthDateSchema({ now: deps(c).now, minAge: limits.min, maxAge: limits.max }),
      body.birthDate,
    )
    if (!age.success) throw invalid(toViolations(age.issues, 'birthDate'))
    const row = await currentClient(c)
    if (body.email !== row.email && (await isTaken(db(c), 'email', body.email))) throw emailTaken()
    let change: Awaited<ReturnType<typeof journeyTransaction<void>>>
    try {
      change = await journeyTransaction(deps(c), row.id, { type: 'SUBMIT_DETAILS' }, callerOf(c), now, (tx) =>
        writeDetails(tx, row.id, body, row.email, now),
      )
    } catch (error) {
      // Someone took the e-mail between the check and the write.
      if (uniqueViolationOn(error) === 'client_email_uq') throw emailTaken()
      throw error
    }
    const fresh = (await findClient(db(c), row.id))!
    return ok(c, { client: await clientView(db(c), fresh, sandboxDeployment(deps(c))), flow: change.flow })
  }),

  implement(confirmBackOfficeCall, async (c) => {
    const now = deps(c).now()
    const id = clientIdOf(c)
    const change = await journeyTransaction(
      deps(c),
      id,
      { type: 'CONFIRM_BACK_OFFICE_DETAILS' },
      callerOf(c),
      now,
      (tx) => confirmBackOfficeDetails(tx, id, now),
    )
    return ok(c, { flow: change.flow })
  }),

  implement(completeEmployment, async (c, { body }) => {
    const now = deps(c).now()
    const id = clientIdOf(c)
    const change = await journeyTransaction(
      deps(c),
      id,
      { type: 'SUBMIT_EMPLOYMENT' },
      callerOf(c),
      now,
      (tx) => writeEmployment(tx, id, body, now),
    )
    return ok(c, { flow: change.flow })
  }),

  implement(addContactCall, async (c, { body }) => {
    const now = deps(c).now()
    const row = await currentClient(c)
    assertNotOwnPhone(body, row.phone)
    const change = await journeyTransaction(
      deps(c),
      row.id,
      { type: 'ADD_CONTACT' },
      callerOf(c),
      now,
      (tx) => addContact(tx, row.id, 'additional', body, now),
    )
    const { id, kind, fullName, relation, phone } = change.result
    return ok(c, { contact: { id, kind, fullName, relation, phone }, flow: change.flow }, 201)
  }),

  implement(completeReference, async (c, { body }) => {
    const now = deps(c).now()
    const row = await currentClient(c)
    assertNotOwnPhone(body, row.phone)
    const change = await journeyTransaction(
      deps(c),
      row.id,
      { type: 'SUBMIT_REFERENCE' },
      callerOf(c),
      now,
      (tx) => addContact(tx, row.id, 'reference', body, now),
    )
    return ok(c, { flow: change.flow })
  }),

  implement(recordGeoCall, async (c, { body }) => {
    const now = deps(c).now()
    const id = clientIdOf(c)
    const change = await journeyTransaction(deps(c), id, { type: 'RECORD_GEO' }, callerOf(c), now, (tx) =>
      recordGeo(tx, id, body, now),
    )
    return ok(c, { flow: change.flow }, 201)
  }),

  implement(completeAddress, async (c, { body }) => {
    const now = deps(c).now()
    const id = clientIdOf(c)
    const violations = await addressViolations(db(c), body)
    if (violations.length) throw invalid(violations)
    const change = await journeyTransaction(deps(c), id, { type: 'SUBMIT_ADDRESS' }, callerOf(c), now, (tx) =>
      writeAddress(tx, id, body, now),
    )
    return ok(c, { flow: change.flow })
  }),
]
