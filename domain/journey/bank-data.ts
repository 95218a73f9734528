/**
 * The bank-data login of /registration/bank-data (POST /private/client/kontomatik/import): which bank, and the
 * client's online-banking credentials, passed to the provider and never stored. The same rules as the body
 * schema in server/http/routes/verification.ts, which should import this one (see the journey-ui report).
 */
import * as v from 'valibot'
import { safeString } from '../safe-text'

const credential = v.pipe(
  safeString('error-required'),
  v.nonEmpty('error-required'),
  v.maxLength(128, 'error-wrong-format'),
)

export const bankDataImportSchema = v.object({
  bank: v.pipe(
    safeString('error-required'),
    v.nonEmpty('error-required'),
    v.maxLength(64, 'error-wrong-format'),
  ),
  login: credential,
  password: credential,
})
export type BankDataImport = v.InferOutput<typeof bankDataImportSchema>

/** GET /private/client/kontomatik. */
export interface BankDataState {
  banks: { code: string; name: string }[]
  /** The linked bank's code, or null. */
  bank: string | null
  failedLogins: number
  maxFailedLogins: number
}
