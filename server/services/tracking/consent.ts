/**
 * The device-data consent (RA 10173, NPC Circular 20-01: a purpose of its own, asked separately, recorded with its
 * time and text version; docs/decisions/0042). Rows are appended to the consent table like sign-up's: the latest
 * answer to the version in force counts; an answer to an older text counts as no answer.
 */
import { and, desc, eq } from 'drizzle-orm'
import { DomainError } from '../../../domain/errors'
import {
  DEVICE_DATA_CONSENT,
  DEVICE_DATA_CONSENT_VERSION,
  type DeviceDataConsent,
} from '../../../domain/tracking'
import type { DbOrTx } from '../../db/client'
import { consent } from '../../db/schema-identity'

export async function deviceDataConsent(db: DbOrTx, clientId: number): Promise<DeviceDataConsent> {
  const [row] = await db
    .select({ granted: consent.granted, version: consent.version, at: consent.at })
    .from(consent)
    .where(and(eq(consent.clientId, clientId), eq(consent.kind, DEVICE_DATA_CONSENT)))
    .orderBy(desc(consent.at), desc(consent.id))
    .limit(1)
  return {
    granted: row ? row.granted : null,
    version: row?.version ?? null,
    at: row?.at.toISOString() ?? null,
    currentVersion: DEVICE_DATA_CONSENT_VERSION,
  }
}

/** Whether the client consented to the text in force: nothing is collected otherwise. */
export const hasDeviceDataConsent = (answer: DeviceDataConsent) =>
  answer.granted === true && answer.version === DEVICE_DATA_CONSENT_VERSION

export async function consentsToDeviceData(db: DbOrTx, clientId: number): Promise<boolean> {
  return hasDeviceDataConsent(await deviceDataConsent(db, clientId))
}

/**
 * The refusal of a collecting call without the consent: 409, not 403, since any 401 or 403 logs a client out
 * (spec section 4, Authentication) and a missing consent is no reason to end the session.
 */
export const consentRequired = () =>
  new DomainError(
    'conflict',
    'consentRequired',
    'Device and behavioural data are collected only after you agree to it (see the privacy policy).',
  )

export async function assertDeviceDataConsent(db: DbOrTx, clientId: number) {
  if (!(await consentsToDeviceData(db, clientId))) throw consentRequired()
}

export async function answerDeviceDataConsent(db: DbOrTx, clientId: number, granted: boolean, now: Date) {
  await db.insert(consent).values({
    clientId,
    kind: DEVICE_DATA_CONSENT,
    version: DEVICE_DATA_CONSENT_VERSION,
    granted,
    at: now,
  })
  return deviceDataConsent(db, clientId)
}
