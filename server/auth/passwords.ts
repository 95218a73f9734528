/**
 * argon2id at the OWASP Password Storage Cheat Sheet's first recommended setting: m=19 MiB, t=2, p=1.
 */
import { hash, verify } from '@node-rs/argon2'

// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export const hashPassword = (password: string) => hash(password, options)

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

/** Verifying against this when the account does not exist keeps the timing of "no such user" and "wrong password" alike. */
let dummyHash: Promise<string> | undefined
export const dummyPasswordHash = () => {
  dummyHash ??= hashPassword('not-a-real-password')
  return dummyHash
}
