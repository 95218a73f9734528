/**
 * Signing secrets come from the environment (JWT_SECRET) in production. For local use they are generated once
 * into the data directory, readable by the owner only, so a restart keeps sessions valid.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Secrets {
  jwtSecret: Uint8Array
  /** Keys the HMAC of stored one-time codes; derived, so one secret to manage and no key reused for two jobs. */
  codeKey: Uint8Array
}

const withDerived = (jwtSecret: Uint8Array): Secrets => ({
  jwtSecret,
  codeKey: createHmac('sha256', jwtSecret).update('hiram one-time codes').digest(),
})

export function loadSecrets(env: NodeJS.ProcessEnv, dataDir: string): Secrets {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters.')
    return withDerived(new TextEncoder().encode(env.JWT_SECRET))
  }
  mkdirSync(dataDir, { recursive: true })
  const file = join(dataDir, 'secrets.json')
  if (!existsSync(file)) {
    writeFileSync(file, JSON.stringify({ jwtSecret: randomBytes(48).toString('base64url') }), {
      mode: 0o600,
      flag: 'wx',
    })
  }
  const { jwtSecret } = JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret: string }
  return withDerived(new TextEncoder().encode(jwtSecret))
}

export const testSecrets = (): Secrets => withDerived(randomBytes(48))
