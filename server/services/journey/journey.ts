/**
 * The journey statechart, persisted per client. Every call that changes a client's registration runs through
 * `journeyTransaction`: one transaction that locks the client's journey row, asks the machine whether the event
 * fits the current step, writes the step's data, the next snapshot (`{ version, value }`) and the transition's
 * history row (who, which call, when), or writes nothing at all.
 *
 * Validation (400) happens before, and provider calls happen outside: PGlite has a single connection, so the
 * transaction holds nothing but database work.
 */
import { eq } from 'drizzle-orm'
import { DomainError } from '../../../domain/errors'
import {
  advanceJourney,
  clientJourneyMachine,
  flowOf,
  initialJourney,
  JOURNEY_MODEL_VERSION,
  type JourneyEvent,
  type JourneyStep,
  journeyEventDefinitions,
  migratePersistedJourney,
  type PersistedJourney,
} from '../../../domain/journey/client-journey.machine'
import type { DbOrTx, Tx } from '../../db/client'
import { clientJourney, stateTransition } from '../../db/schema-journey'
import type { AppDeps } from '../../deps'

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

/** 409: the call does not fit the client's current step. The answer names the step so the app can re-route. */
export class JourneyStepMismatch extends DomainError {
  constructor(
    readonly step: JourneyStep,
    event: JourneyEvent['type'],
  ) {
    super(
      'conflict',
      'journeyStepMismatch',
      `${journeyEventDefinitions[event].label} cannot be accepted at the current step (${step}).`,
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
 * Who sent an event, and through which call: recorded with every transition (`state_transition`).
 * - a client or a back-office user through an API call: the call is the method and the route pattern in the
 *   spec's notation, as `journeyEventDefinitions` names it ('PUT /web/private/client/application/{id}');
 * - a job of the server (decision, payout, the demo seed): its name and id, no call.
 */
export type Actor =
  | { kind: 'client' | 'back-office'; id: number; call: string }
  | { kind: 'job'; id: string; call: null }

/** A job as an actor: `job('decision', 12)` is the lending job 12 deciding; the id is what an operator greps. */
export const jobActor = (name: string, id?: number | string | null): Actor => ({
  kind: 'job',
  id: id === undefined || id === null ? name : `${name}:${id}`,
  call: null,
})

/**
 * Runs `write` as the effect of `event`, atomically with the journey's move. The journey row is created on first
 * use and locked with SELECT ... FOR UPDATE, so concurrent calls for one client are serialised: the second one
 * sees the first one's step and is refused if it no longer fits. Anything `write` throws rolls everything back.
 */
export async function journeyTransaction<T>(
  deps: Pick<AppDeps, 'database' | 'logger'>,
  clientId: number,
  event: JourneyEvent,
  by: Actor,
  now: Date,
  write: (tx: Tx, from: JourneyStep) => Promise<T>,
): Promise<JourneyChange<T>> {
  const change = await deps.database.db.transaction(async (tx) => {
    const current = await lockJourney(tx, clientId, now)
    const next = advanceJourney(current.persisted, event)
    if (!next) throw new JourneyStepMismatch(current.persisted.value, event.type)
    const result = await write(tx, current.persisted.value)
    await writeJourneyStep(tx, clientId, current, next, event, by, now)
    return { result, from: current.persisted.value, flow: flowOf(next) }
  })
  logJourneyEvent(deps, clientId, event, change.from, change.flow.step, by)
  return change
}

interface LockedJourney {
  persisted: PersistedJourney
  rowVersion: number
}

/**
 * Locks a client's journey row (created on first use) with SELECT ... FOR UPDATE: every change of a client, the
 * journey's and the loan's (services/payments), takes this lock first, so they take turns and never deadlock.
 */
export async function lockJourney(tx: Tx, clientId: number, now: Date): Promise<LockedJourney> {
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
  return { persisted: parsePersisted(row.snapshot), rowVersion: row.version }
}

async function writeJourneyStep(
  tx: Tx,
  clientId: number,
  current: LockedJourney,
  next: PersistedJourney,
  event: JourneyEvent,
  by: Actor,
  now: Date,
) {
  await tx
    .update(clientJourney)
    .set({ snapshot: next, step: next.value, version: current.rowVersion + 1, updatedAt: now })
    .where(eq(clientJourney.clientId, clientId))
  // The history row: here, so that no call site can move the journey without it, and in this transaction, so
  // that a rolled-back move leaves no row.
  await recordTransition(
    tx,
    {
      machine: clientJourneyMachine.id,
      subjectId: clientId,
      clientId,
      modelVersion: JOURNEY_MODEL_VERSION,
      from: current.persisted.value,
      to: next.value,
      event: event.type,
    },
    by,
    now,
  )
}

/** One transition of a persisted statechart (the journey, a loan), as it leads to the state written with it. */
export interface Transition {
  machine: string
  subjectId: number
  clientId: number
  modelVersion: number
  from: string
  to: string
  event: string
}

/** The history row of a transition (`state_transition`), in the transaction that writes the state. */
export async function recordTransition(tx: Tx, t: Transition, by: Actor, now: Date) {
  await tx.insert(stateTransition).values({
    machine: t.machine,
    subjectId: t.subjectId,
    clientId: t.clientId,
    modelVersion: t.modelVersion,
    fromState: t.from,
    toState: t.to,
    event: t.event,
    call: by.call,
    actorKind: by.kind,
    actorId: String(by.id),
    at: now,
  })
}

/**
 * Inside a transaction that already holds the journey lock (`lockJourney`): moves the journey when the event fits
 * its step, and otherwise leaves it. For a journey that follows another lifecycle (the loan's paid and reopened),
 * where a client who has moved on (applied again) must not be pulled back. Answers the step moved to, or null.
 */
export async function followInJourney(
  tx: Tx,
  clientId: number,
  locked: LockedJourney,
  event: JourneyEvent,
  by: Actor,
  now: Date,
): Promise<JourneyStep | null> {
  const next = advanceJourney(locked.persisted, event)
  if (!next) return null
  await writeJourneyStep(tx, clientId, locked, next, event, by, now)
  return next.value
}

/** After the commit: the log line says what happened, never the data the call carried. */
export function logJourneyEvent(
  deps: Pick<AppDeps, 'logger'>,
  clientId: number,
  event: JourneyEvent,
  from: JourneyStep,
  to: JourneyStep,
  by: Actor,
) {
  deps.logger.info(
    { clientId, event: 'journey.event', journeyEvent: event.type, from, to, by: by.kind },
    'journey event',
  )
}

/** Postgres unique violation (23505) on a named index, as drizzle/pg/PGlite report it. */
export function uniqueViolationOn(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } }
  const cause = e?.cause?.code ? e.cause : e
  if (cause?.code !== '23505') return null
  return cause.constraint ?? ''
}
