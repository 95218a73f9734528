import pino from 'pino'

/**
 * Field names that hold secrets or personal data anywhere in the schema and the API bodies. Services log ids,
 * never these; redaction catches the mistake (a row or a body passed to the logger whole) at up to three levels.
 */
export const redactedFields = [
  // secrets
  'password',
  'passwordRepeat',
  'passwordHash',
  'code',
  'codeHash',
  'token',
  'tokenHash',
  'authorization',
  'cookie',
  // contact
  'email',
  'phone',
  'mobilePhone',
  'number',
  'recipient',
  'target',
  'login',
  // identity
  'firstName',
  'middleName',
  'lastName',
  'fullName',
  'birthDate',
  'dateOfBirth',
  'documentNumber',
  'clientIdentificator',
  // money and place
  'accountNumber',
  'cashPickupNumber',
  'street',
  // free text that may quote any of the above
  'body',
  'subject',
  'note',
]

/** `email`, `*.email`, `*.*.email`: pino's redaction has no recursive wildcard. */
const redactPaths = redactedFields.flatMap((field) => [field, `*.${field}`, `*.*.${field}`])

/**
 * Structured JSON logs. Redaction is a second line of defence: routes log patterns, not paths, and services
 * never pass secrets or personal data to the logger in the first place. Errors go through `errorForLog`
 * (server/db/errors.ts), whose fields are not in the list above.
 */
export function createLogger(level = 'info', destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      base: { service: 'hiram' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths, censor: '[redacted]' },
    },
    destination,
  )
}
