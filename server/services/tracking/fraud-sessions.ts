/**
 * The fraud tools' session tokens (spec section 7: POST /public/util/hello-soda, POST /private/client/affiliates/
 * session; docs/decisions/0042), asked of the provider outside any transaction and recorded with a hash of the
 * device id and the consent version they were issued under.
 */
import { DEVICE_DATA_CONSENT_VERSION } from '../../../domain/tracking'
import { fraudToolSession } from '../../db/schema-tracking'
import type { AppDeps } from '../../deps'
import { fraudSignalsOf } from '../../providers/from-env'
import { hashDevice } from '../identity/devices'
import { bucketFor, limitRequests } from '../identity/throttle'
import { assertDeviceDataConsent } from './consent'

/** Hello-soda tokens per address and hour; session tokens per client and hour. */
export const HELLO_SODA_MAX_PER_HOUR = 30
export const FRAUD_SESSIONS_MAX_PER_HOUR = 20

type Ctx = Pick<AppDeps, 'database' | 'fraudSignals'>

export async function helloSodaToken(ctx: Ctx, input: { deviceId: string; address: string }, now: Date) {
  const db = ctx.database.db
  await limitRequests(
    db,
    [{ bucket: bucketFor('addr:hello-soda', input.address), max: HELLO_SODA_MAX_PER_HOUR }],
    60,
    now,
  )
  const provider = fraudSignalsOf(ctx)
  const deviceHash = hashDevice(input.deviceId)!
  const answer = await provider.helloSoda({ clientId: null, deviceHash, now })
  const [row] = await db
    .insert(fraudToolSession)
    .values({
      kind: 'hello_soda',
      clientId: null,
      deviceHash,
      provider: provider.name,
      tokens: { token: answer.token },
      consentVersion: DEVICE_DATA_CONSENT_VERSION,
      createdAt: now,
    })
    .returning({ id: fraudToolSession.id })
  return {
    id: row!.id,
    answer: { provider: provider.name, token: answer.token, expiresAt: answer.expiresAt.toISOString() },
  }
}

export async function fraudToolTokens(ctx: Ctx, clientId: number, deviceId: string, now: Date) {
  const db = ctx.database.db
  await assertDeviceDataConsent(db, clientId)
  await limitRequests(
    db,
    [{ bucket: bucketFor('fraud-session:client', String(clientId)), max: FRAUD_SESSIONS_MAX_PER_HOUR }],
    60,
    now,
  )
  const provider = fraudSignalsOf(ctx)
  const deviceHash = hashDevice(deviceId)!
  const tokens = await provider.sessionTokens({ clientId, deviceHash, now })
  const [row] = await db
    .insert(fraudToolSession)
    .values({
      kind: 'fraud_tools',
      clientId,
      deviceHash,
      provider: provider.name,
      tokens: {
        seonSession: tokens.seonSession,
        juicySessionId: tokens.juicySessionId,
        hotjarUserId: tokens.hotjarUserId,
      },
      consentVersion: DEVICE_DATA_CONSENT_VERSION,
      createdAt: now,
    })
    .returning({ id: fraudToolSession.id })
  return {
    id: row!.id,
    answer: {
      provider: provider.name,
      seonSession: tokens.seonSession,
      juicySessionId: tokens.juicySessionId,
      hotjarUserId: tokens.hotjarUserId,
      expiresAt: tokens.expiresAt.toISOString(),
    },
  }
}
