/**
 * Sandbox only: a device id the first back-office user trusts from the start (`SANDBOX_ADMIN_DEVICE_ID`), so an
 * automated test can log in as that user and read the outbox without the e-mail code, which it could only read
 * from the outbox (docs/decisions/0009). Refused in production: there a back-office user always confirms a new
 * device with the e-mailed code.
 */
import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import { deviceIdSchema } from '../../../domain/identity'
import type { Db } from '../../db/client'
import { backOfficeUser } from '../../db/schema-identity'
import { hashDevice, trustDevice } from './devices'

export class SandboxInProductionError extends Error {}

export async function trustSandboxAdminDevice(
  db: Db,
  options: { email: string; deviceId: string; production: boolean },
  now = new Date(),
): Promise<boolean> {
  if (options.production)
    throw new SandboxInProductionError('SANDBOX_ADMIN_DEVICE_ID must not be set when NODE_ENV=production')
  if (!v.is(deviceIdSchema, options.deviceId))
    throw new Error('SANDBOX_ADMIN_DEVICE_ID must be 8 to 128 letters, digits, "-" or "_"')
  const [row] = await db
    .select({ id: backOfficeUser.id })
    .from(backOfficeUser)
    .where(eq(backOfficeUser.email, options.email.trim().toLowerCase()))
  if (!row) return false
  await trustDevice(db, 'user', row.id, hashDevice(options.deviceId), now)
  return true
}
