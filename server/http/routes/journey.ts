import * as v from 'valibot'
import { invalid } from '../../../domain/errors'
import { journeyStatuses, journeySteps } from '../../../domain/journey/client-journey.machine'
import {
  addressSchema,
  birthDateSchema,
  detailsSchema,
  employmentSchema,
  geoSchema,
  referenceSchema,
} from '../../../domain/journey/fields'
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
import { ok } from '../envelope'
import { callerOf, clientIdOf, currentClient, db, deps } from '../request'
import { type AnyRoute, defineRoute, toViolations } from '../route'

/** Derived from the journey model: the steps this server enters (states of the machine) and the statuses. */
export const flowSchema = v.object({
  step: v.picklist(journeySteps),
  status: v.picklist(journeyStatuses),
})
const stepAnswer = v.object({ flow: flowSchema })

const flowRoute = (path: string, summary: string) =>
  defineRoute({
    method: 'get',
    path,
    summary,
    tags: ['journey'],
    access: 'client',
    response: flowSchema,
    handler: async (c) => ok(c, await readFlow(db(c), clientIdOf(c))),
  })

export const journeyRoutes: AnyRoute[] = [
  flowRoute('/private/client/flow', "The client's current flow step and status, from the journey statechart"),
  flowRoute(
    '/private/client/client-journey/current',
    'The current client-journey step (same answer as /flow)',
  ),

  defineRoute({
    method: 'get',
    path: '/private/client/registration',
    summary:
      'What the client (or staff, for a back-office client) entered so far, for prefilling the steps and the confirm screen',
    tags: ['journey'],
    access: 'client',
    handler: async (c) => ok(c, await registrationData(db(c), clientIdOf(c))),
  }),

  defineRoute({
    method: 'put',
    path: '/private/client',
    summary: 'Registration step 1 (new_client_created): names, birth date, gender, civil status, e-mail',
    tags: ['journey'],
    access: 'client',
    body: detailsSchema,
    handler: async (c, { body }) => {
      const now = deps(c).now()
      // The age is counted on the server's clock (the body schema used the wall clock, like the form does).
      const age = v.safeParse(birthDateSchema({ now: deps(c).now }), body.birthDate)
      if (!age.success) throw invalid(toViolations(age.issues, 'birthDate'))
      const row = await currentClient(c)
      if (body.email !== row.email && (await isTaken(db(c), 'email', body.email))) throw emailTaken()
      let change: Awaited<ReturnType<typeof journeyTransaction<void>>>
      try {
        change = await journeyTransaction(
          deps(c),
          row.id,
          { type: 'SUBMIT_DETAILS' },
          callerOf(c),
          now,
          (tx) => writeDetails(tx, row.id, body, row.email, now),
        )
      } catch (error) {
        // Someone took the e-mail between the check and the write.
        if (uniqueViolationOn(error) === 'client_email_uq') throw emailTaken()
        throw error
      }
      const fresh = (await findClient(db(c), row.id))!
      return ok(c, { client: await clientView(db(c), fresh), flow: change.flow })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/complete-back-office-client',
    summary: 'Registration step 1 for a client registered by staff: confirm the details they entered',
    tags: ['journey'],
    access: 'client',
    response: stepAnswer,
    handler: async (c) => {
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
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/complete-step-two',
    summary: 'Registration step 2 (work_info): employment type, company, monthly income and expenses (pesos)',
    tags: ['journey'],
    access: 'client',
    body: employmentSchema,
    response: stepAnswer,
    handler: async (c, { body }) => {
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
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/additional/contact',
    summary: 'During relative_info: one more contact person, chosen and typed by the client (at most 5)',
    tags: ['journey'],
    access: 'client',
    body: referenceSchema,
    handler: async (c, { body }) => {
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
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/complete-step-three',
    summary: 'Registration step 3 (relative_info): the relative to contact (full name, relation, phone)',
    tags: ['journey'],
    access: 'client',
    body: referenceSchema,
    response: stepAnswer,
    handler: async (c, { body }) => {
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
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/geo',
    summary:
      "During address: the device's location, sent only when the client allowed the browser to share it",
    tags: ['journey'],
    access: 'client',
    body: geoSchema,
    response: stepAnswer,
    handler: async (c, { body }) => {
      const now = deps(c).now()
      const id = clientIdOf(c)
      const change = await journeyTransaction(deps(c), id, { type: 'RECORD_GEO' }, callerOf(c), now, (tx) =>
        recordGeo(tx, id, body, now),
      )
      return ok(c, { flow: change.flow }, 201)
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/complete-step-four',
    summary: 'Registration step 4 (address): PSGC region, city, district, barangay and street',
    tags: ['journey'],
    access: 'client',
    body: addressSchema,
    response: stepAnswer,
    handler: async (c, { body }) => {
      const now = deps(c).now()
      const id = clientIdOf(c)
      const violations = await addressViolations(db(c), body)
      if (violations.length) throw invalid(violations)
      const change = await journeyTransaction(
        deps(c),
        id,
        { type: 'SUBMIT_ADDRESS' },
        callerOf(c),
        now,
        (tx) => writeAddress(tx, id, body, now),
      )
      return ok(c, { flow: change.flow })
    },
  }),
]
