/**
 * Identity verification (Veriff-style): the client opens a session at the provider, shows the document and a
 * selfie there, and the provider decides: approved, declined, or resubmission requested.
 *
 * The sandbox provider, the default, decides at once from the client's last name so tests and QA can reach
 * every outcome from the browser (README, "Demo accounts and sandbox data"):
 * - a last name containing "Declined" (any case) is declined;
 * - a last name containing "Resubmit" asks for a resubmission;
 * - any other is approved.
 * A real provider answers `pending` until its webhook or decision API has a result.
 */
import { randomUUID } from 'node:crypto'

export type VerificationDecision = 'approved' | 'declined' | 'resubmission_requested'

export interface VerificationPerson {
  clientId: number
  firstName: string
  lastName: string
  documentType: string
  documentNumber: string
}

export interface IdentityVerificationProvider {
  readonly name: string
  createSession(person: VerificationPerson): Promise<{ ref: string; url: string }>
  decision(
    ref: string,
    person: VerificationPerson,
  ): Promise<{ status: VerificationDecision | 'pending'; reason?: string }>
}

export const SANDBOX_VERIFICATION_DECLINED = 'declined'
export const SANDBOX_VERIFICATION_RESUBMIT = 'resubmit'

export const sandboxIdentityVerification: IdentityVerificationProvider = {
  name: 'sandbox',
  async createSession() {
    const ref = randomUUID()
    return { ref, url: `/registration/document-verification?sandboxSession=${ref}` }
  },
  async decision(_ref, person) {
    const name = person.lastName.toLowerCase()
    if (name.includes(SANDBOX_VERIFICATION_DECLINED))
      return { status: 'declined', reason: 'Sandbox: the last name asks for a decline.' }
    if (name.includes(SANDBOX_VERIFICATION_RESUBMIT))
      return { status: 'resubmission_requested', reason: 'Sandbox: the photo of the document is blurred.' }
    return { status: 'approved' }
  },
}
