import { resolve } from 'node:path'
import { CODE_RESEND_SECONDS } from './services/identity/codes'

/** A setting the server refuses to start with; server/main.ts prints the message and exits. */
export class EnvError extends Error {}

/**
 * Everything the server reads from the environment, in one place. A variable set to the empty string counts as
 * unset: `DATA_DIR=` must not put the database, its lock and the secrets in the working directory.
 */
export function readEnv(env: NodeJS.ProcessEnv = process.env) {
  const value = (name: string, fallback: string) => env[name] || fallback
  return {
    port: Number.parseInt(value('PORT', '3000'), 10),
    host: value('HOST', '0.0.0.0'),
    dataDir: resolve(value('DATA_DIR', './data')),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: value('LOG_LEVEL', 'info'),
    staticDir: resolve(value('STATIC_DIR', './dist')),
    sandboxCodeIntervalSeconds: sandboxCodeInterval(env),
  }
}
export type Env = ReturnType<typeof readEnv>

/**
 * SANDBOX_CODE_INTERVAL_SECONDS (docs/decisions/0018): a sandbox may shorten the wait between two codes to one
 * number or e-mail (codes.ts, codeMinuteLimit) so end-to-end tests do not wait out real minutes. Whole seconds
 * from 1 to the real interval; unset, the real interval. Refused with NODE_ENV=production unless SANDBOX=1 says
 * the deployment is a sandbox on purpose, so a production server never runs with a shortened limit by accident.
 */
function sandboxCodeInterval(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SANDBOX_CODE_INTERVAL_SECONDS
  if (!raw) return undefined
  if (env.NODE_ENV === 'production' && env.SANDBOX !== '1')
    throw new EnvError(
      'SANDBOX_CODE_INTERVAL_SECONDS is a sandbox setting: refused with NODE_ENV=production unless SANDBOX=1',
    )
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!(seconds >= 1 && seconds <= CODE_RESEND_SECONDS))
    throw new EnvError(
      `SANDBOX_CODE_INTERVAL_SECONDS must be whole seconds from 1 to ${CODE_RESEND_SECONDS}, not "${raw}"`,
    )
  return seconds
}
