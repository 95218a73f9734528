/**
 * The client journey (spec section 2) and its registration steps (spec section 7): the flow the router follows,
 * what the steps stored, and the calls that complete them. Each completing call answers the flow it moved the
 * journey to; a call that does not fit the current step is a 409 naming the step.
 */
import * as v from 'valibot'
import {
  addressSchema,
  detailsBodySchema,
  employmentSchema,
  geoSchema,
  referenceSchema,
} from '../journey/fields'
import { defineContract } from './define'
import { clientViewSchema } from './identity-answers'
import {
  contactViewSchema,
  flowSchema,
  registrationDataSchema,
  stepAnswerSchema,
  uploadConfigAnswerSchema,
} from './journey-answers'

export const getFlow = defineContract({
  method: 'get',
  path: '/private/client/flow',
  summary: "The client's current flow step and status, from the journey statechart",
  tags: ['journey'],
  access: 'client',
  response: flowSchema,
})

export const getJourneyCurrent = defineContract({
  method: 'get',
  path: '/private/client/client-journey/current',
  summary: 'The current client-journey step (same answer as /flow)',
  tags: ['journey'],
  access: 'client',
  response: flowSchema,
})

export const getRegistration = defineContract({
  method: 'get',
  path: '/private/client/registration',
  summary:
    'What the client (or staff, for a back-office client) entered so far, for prefilling the steps and the confirm screen',
  tags: ['journey'],
  access: 'client',
  response: registrationDataSchema,
})

export const saveDetails = defineContract({
  method: 'put',
  path: '/private/client',
  summary: 'Registration step 1 (new_client_created): names, birth date, gender, civil status, e-mail',
  tags: ['journey'],
  access: 'client',
  /** Ages checked against the configured limits by the route (content system, ADR 0048). */
  body: detailsBodySchema,
  /** The client as GET /private/client answers it, with the new details, and the flow. */
  response: v.object({ client: clientViewSchema, flow: flowSchema }),
})

export const confirmBackOfficeDetails = defineContract({
  method: 'put',
  path: '/private/client/complete-back-office-client',
  summary: 'Registration step 1 for a client registered by staff: confirm the details they entered',
  tags: ['journey'],
  access: 'client',
  response: stepAnswerSchema,
})

export const completeEmployment = defineContract({
  method: 'put',
  path: '/private/client/complete-step-two',
  summary: 'Registration step 2 (work_info): employment type, company, monthly income and expenses (pesos)',
  tags: ['journey'],
  access: 'client',
  body: employmentSchema,
  response: stepAnswerSchema,
})

export const addContact = defineContract({
  method: 'post',
  path: '/private/client/additional/contact',
  summary: 'During relative_info: one more contact person, chosen and typed by the client (at most 5)',
  tags: ['journey'],
  access: 'client',
  body: referenceSchema,
  response: v.object({ contact: contactViewSchema, flow: flowSchema }),
})

export const completeReference = defineContract({
  method: 'put',
  path: '/private/client/complete-step-three',
  summary: 'Registration step 3 (relative_info): the relative to contact (full name, relation, phone)',
  tags: ['journey'],
  access: 'client',
  body: referenceSchema,
  response: stepAnswerSchema,
})

export const recordGeo = defineContract({
  method: 'post',
  path: '/private/client/geo',
  summary: "During address: the device's location, sent only when the client allowed the browser to share it",
  tags: ['journey'],
  access: 'client',
  body: geoSchema,
  response: stepAnswerSchema,
})

export const completeAddress = defineContract({
  method: 'put',
  path: '/private/client/complete-step-four',
  summary: 'Registration step 4 (address): PSGC region, city, district, barangay and street',
  tags: ['journey'],
  access: 'client',
  body: addressSchema,
  response: stepAnswerSchema,
})

export const getDocumentUploadConfig = defineContract({
  method: 'get',
  path: '/private/client/flow/document-upload-config',
  summary:
    'Upload limits: image age in seconds (0 unlimited), attempts (0 unlimited), size; the next attempt',
  tags: ['documents'],
  access: 'client',
  response: uploadConfigAnswerSchema,
})
