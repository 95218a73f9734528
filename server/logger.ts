import pino from 'pino'

/**
 * Structured JSON logs. Redaction is a second line of defence: routes log patterns, not paths, and services
 * never pass secrets or personal data to the logger in the first place.
 */
export function createLogger(level = 'info', destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      base: { service: 'hiram' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'password',
          '*.password',
          'code',
          '*.code',
          'token',
          '*.token',
          'authorization',
          '*.authorization',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  )
}
