/**
 * The journey statechart, persisted per client. Every call that changes a client's registration runs through
 * `journeyTransaction`: one transaction that locks the client's journey row, asks the machine whether the event
 * fits the current step, writes the step's data and the next snapshot, or writes nothing at all.
 *
 * Validation (400) happens before, and provider calls happen outside: PGlite has a single connection, so the
 * transaction holds nothing but database work.
 */
import { eq } from 'drizzle-orm'
import {
  advanceJourney,
  flowOf,
  initialJourney,
  type JourneyEvent,
  type JourneyStep,
  migratePersistedJourney,
  type PersistedJourney,
} from '../../../domain/journey/client-journey.machine'
import type { DbOrTx, Tx } from '../../db/client'
import { clientJourney } from '../../db/schema-journey'
import type { AppDeps } from '../../http/context'
import { ApiError } from '../../http/errors'

function parsePersisted(value: unknown): PersistedJourney {
  const persisted = migratePersistedJourney(value)
  // A hand-edited or future snapshot the machine does not know must not be guessed at.
  if (!persisted) throw new Error('client_journey.snapshot is not a snapshot of the journey machine')
  return persisted
}

/** The journey as stored, or the initial one for a client who has not completed anything yet. */
export async function readJourney(db: DbOrTx, clientId: number): Promise<PersistedJourney> {
  const [row] = await db
    .select({ snapshot: clientJourney.snapshot })
    .from(clientJourney)
    .where(eq(clientJourney.clientId, clientId))
  return row ? parsePersisted(row.snapshot) : initialJourney
}

export async function readFlow(db: DbOrTx, clientId: number) {
  return flowOf(await readJourney(db, clientId))
}

const eventCalls: Record<JourneyEvent['type'], string> = {
  SUBMIT_DETAILS: 'Personal details',
  CONFIRM_BACK_OFFICE_DETAILS: 'Confirming the details entered for you',
  SUBMIT_EMPLOYMENT: 'Employment details',
  ADD_CONTACT: 'An additional contact',
  SUBMIT_REFERENCE: 'The reference person',
  RECORD_GEO: 'The device location',
  SUBMIT_ADDRESS: 'The address',
  CHANGE_ID_PHOTO: 'An identity document photo',
  FINISH_ID_DOCUMENT: 'The identity document',
  START_VERIFICATION: 'Identity verification',
  VERIFICATION_APPROVED: 'An identity verification decision',
  VERIFICATION_RESUBMISSION: 'An identity verification decision',
  VERIFICATION_DECLINED: 'An identity verification decision',
  BANK_LOGIN_FAILED: 'Bank linking',
  BANK_DATA_IMPORTED: 'Bank linking',
  SKIP_BANK_DATA: 'Skipping bank linking',
  SAVE_PAYOUT: 'A payout method',
  FINISH: 'Finishing registration',
  APPLY: 'A new application',
  CHANGE_APPLICATION: 'A change to the application',
  CANCEL_APPLICATION: 'Cancelling the application',
  DECISION_APPROVED: 'A decision on the application',
  DECISION_REJECTED: 'A decision on the application',
  DECISION_MANUAL: 'A decision on the application',
  DECISION_DECREASE: 'A decision on the application',
  DECISION_INCREASE: 'A decision on the application',
  OFFER_ANSWERED: 'An answer to the offer',
  PREPARE_SIGNATURE: 'The loan documents',
  SIGN: 'Signing the agreement',
  PAYOUT_SUCCEEDED: 'A payout result',
  PAYOUT_CASH_PICKUP_READY: 'A payout result',
  PAYOUT_FAILED: 'A payout result',
  RETRY_PAYOUT: 'Retrying the payout',
}

/** 409: the call does not fit the client's current step. The answer names the step so the app can re-route. */
export class JourneyStepMismatch extends ApiError {
  constructor(
    readonly step: JourneyStep,
    event: JourneyEvent['type'],
  ) {
    super(
      409,
      'journeyStepMismatch',
      `${eventCalls[event]} cannot be accepted at the current step (${step}).`,
    )
  }
}

/** Throws the 409 unless the event fits the journey as it is now (a cheap check before calling a provider). */
export async function assertJourneyAccepts(db: DbOrTx, clientId: number, event: JourneyEvent) {
  const current = await readJourney(db, clientId)
  if (!advanceJourney(current, event)) throw new JourneyStepMismatch(current.value, event.type)
}

export interface JourneyChange<T> {
  result: T
  from: JourneyStep
  flow: ReturnType<typeof flowOf>
}

/**
 * Runs `write` as the effect of `event`, atomically with the journey's move. The journey row is created on first
 * use and locked with SELECT ... FOR UPDATE, so concurrent calls for one client are serialised: the second one
 * sees the first one's step and is refused if it no longer fits. Anything `write` throws rolls everything back.
 */
export async function journeyTransaction<T>(
  deps: Pick<AppDeps, 'database' | 'logger'>,
  clientId: number,
  event: JourneyEvent,
  now: Date,
  write: (tx: Tx, from: JourneyStep) => Promise<T>,
): Promise<JourneyChange<T>> {
  const change = await deps.database.db.transaction(async (tx) => {
    await tx
      .insert(clientJourney)
      .values({ clientId, snapshot: initialJourney, step: initialJourney.value, updatedAt: now })
      .onConflictDoNothing()
    const [row] = await tx
      .select()
      .from(clientJourney)
      .where(eq(clientJourney.clientId, clientId))
      .for('update')
    if (!row) throw new Error('journey row vanished inside its transaction')
    const current = parsePersisted(row.snapshot)
    const next = advanceJourney(current, event)
    if (!next) throw new JourneyStepMismatch(current.value, event.type)
    const result = await write(tx, current.value)
    await tx
      .update(clientJourney)
      .set({ snapshot: next, step: next.value, version: row.version + 1, updatedAt: now })
      .where(eq(clientJourney.clientId, clientId))
    return { result, from: current.value, flow: flowOf(next) }
  })
  // After the commit: the log line says what happened, never the data the call carried.
  deps.logger.info(
    { clientId, event: 'journey.event', journeyEvent: event.type, from: change.from, to: change.flow.step },
    'journey event',
  )
  return change
}

/** Postgres unique violation (23505) on a named index, as drizzle/pg/PGlite report it. */
export function uniqueViolationOn(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } }
  const cause = e?.cause?.code ? e.cause : e
  if (cause?.code !== '23505') return null
  return cause.constraint ?? ''
}
