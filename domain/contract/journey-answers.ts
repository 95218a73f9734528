/**
 * What the journey calls answer, apart from their contracts in journey.ts: pages parse or read these in the browser,
 * and a module is bundled whole, so a page that only makes a call does not carry them (ADR 0023).
 */
import * as v from 'valibot'
import { journeyStatuses, journeySteps } from '../journey/client-journey.machine'
import { documentUploadConfigSchema } from '../journey/uploads'
/** Derived from the journey model: the steps the server enters (states of the machine) and the statuses. */
export const flowSchema = v.object({
  step: v.picklist(journeySteps),
  status: v.picklist(journeyStatuses),
})
export type JourneyFlow = v.InferOutput<typeof flowSchema>

/** The answer of a call that completes a step: the flow it moved the journey to. */
export const stepAnswerSchema = v.object({ flow: flowSchema })
export type StepAnswer = v.InferOutput<typeof stepAnswerSchema>

/** A person the client named: the relative of step 3 (`reference`) or one more contact (`additional`). */
export const contactViewSchema = v.object({
  id: v.number(),
  kind: v.string(),
  fullName: v.string(),
  relation: v.string(),
  phone: v.string(),
})
export type ContactView = v.InferOutput<typeof contactViewSchema>

/**
 * What the steps stored, shaped like the forms' fields: amounts in pesos as typed, dates YYYY-MM-DD, the
 * identity-document number masked but for its last 4 characters.
 */
export const registrationDataSchema = v.object({
  details: v.nullable(
    v.object({
      firstName: v.string(),
      middleName: v.nullable(v.string()),
      lastName: v.string(),
      birthDate: v.string(),
      gender: v.string(),
      civilStatus: v.string(),
      /** `client`, or `back_office` when staff entered the details for the client to confirm. */
      enteredBy: v.string(),
      confirmed: v.boolean(),
    }),
  ),
  employment: v.nullable(
    v.object({
      employmentType: v.string(),
      companyName: v.nullable(v.string()),
      monthlyIncome: v.nullable(v.string()),
      monthlyExpenses: v.nullable(v.string()),
      employerPhone: v.optional(v.nullable(v.string())),
      taxId: v.optional(v.nullable(v.string())),
    }),
  ),
  contacts: v.array(contactViewSchema),
  address: v.nullable(
    v.object({
      regionId: v.string(),
      cityId: v.string(),
      districtId: v.string(),
      wardId: v.string(),
      street: v.string(),
    }),
  ),
  identityDocument: v.nullable(
    v.object({
      documentType: v.string(),
      documentNumber: v.string(),
      expiryDate: v.nullable(v.string()),
    }),
  ),
})
export type RegistrationData = v.InferOutput<typeof registrationDataSchema>

/** The upload limits (seconds, attempts and bytes; 0 is unlimited) and the number of the next attempt. */
export const uploadConfigAnswerSchema = v.object({
  ...documentUploadConfigSchema.entries,
  attempt: v.number(),
})
export type UploadConfigAnswer = v.InferOutput<typeof uploadConfigAnswerSchema>
