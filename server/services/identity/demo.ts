/**
 * A demo client for local use and QA (never in production): `npm start` prints its login. Created once; a
 * client who changed its password keeps the change.
 */

import type { Db } from '../../db/client'
import { ApiError } from '../../http/errors'
import { findClientByLogin, markPhoneVerified, signUp } from './clients'

export const DEMO_CLIENT = { phone: '09170000001', email: 'demo@hiram.local', password: 'demo1234' } as const

export async function seedDemoClient(db: Db, now = new Date()) {
  if (await findClientByLogin(db, DEMO_CLIENT.phone)) return DEMO_CLIENT
  try {
    const row = await signUp(
      db,
      {
        mobilePhone: { number: DEMO_CLIENT.phone },
        email: DEMO_CLIENT.email,
        password: DEMO_CLIENT.password,
        passwordRepeat: DEMO_CLIENT.password,
        language: 'en',
        consents: { terms: true, privacy: true, marketing: false },
      },
      now,
    )
    await markPhoneVerified(db, row.id, now)
  } catch (error) {
    // Another process seeded it first, or someone signed up with the demo e-mail: either way, nothing to do.
    if (!(error instanceof ApiError)) throw error
  }
  return DEMO_CLIENT
}
