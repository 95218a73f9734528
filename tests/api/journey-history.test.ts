/**
 * The journey's history (issue 14 item 4): every accepted transition leaves one `state_transition` row in the
 * transaction that moves the journey (from, to, event, call, who, when, model version); a refused or rolled-back
 * call leaves none. Snapshots carry the model's version; version-1 snapshots are read and advanced.
 */
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  JOURNEY_MODEL_VERSION,
  type JourneyEventType,
  journeyEventDefinitions,
} from '../../domain/journey/client-journey.machine'
import { backOfficeUser } from '../../server/db/schema-identity'
import { clientJourney, stateTransition } from '../../server/db/schema-journey'
import { journeyTransaction } from '../../server/services/journey/journey'
import { createTestApp } from '../support/app'
import { call, type TestApp, verifiedClient } from './identity-helpers'
import { employment, eventSenders, fingerprint, flow, seedSmallPsgc, walkTo } from './journey-helpers'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
})
afterAll(async () => {
  await t?.close()
})

const historyOf = (clientId: number) =>
  t.database.db
    .select()
    .from(stateTransition)
    .where(and(eq(stateTransition.clientId, clientId), eq(stateTransition.machine, 'clientJourney')))
    .orderBy(asc(stateTransition.id))

describe('every transition leaves one history row, in the same transaction', () => {
  it('a walk to a paid-out cash pickup: one row per event, in order, with the call and who sent it', async () => {
    const started = Date.now()
    const w = await walkTo(t, 'tmc_page')
    const rows = await historyOf(w.c.clientId)
    expect(
      rows.map((r) => ({
        from: r.fromState,
        to: r.toState,
        event: r.event,
        call: r.call,
        actor: r.actorKind,
      })),
    ).toEqual(w.sent.map(({ from, to, event, call, actor }) => ({ from, to, event, call, actor })))
    for (const row of rows) {
      // The route pattern the server recorded is the call the model names for the event.
      if (row.call) expect(journeyEventDefinitions[row.event as JourneyEventType].calls).toContain(row.call)
      expect(row).toMatchObject({ machine: 'clientJourney', subjectId: w.c.clientId, modelVersion: 2 })
      // The deps clock: the walk moves it a minute (signing) and two minutes (jobs) ahead.
      expect(row.at.getTime()).toBeGreaterThanOrEqual(started - 1000)
      expect(row.at.getTime()).toBeLessThanOrEqual(Date.now() + 180_000)
    }
    // Self-transitions are rows too (the photo, the session, the payout account, the signing code).
    expect(rows.filter((r) => r.fromState === r.toState).map((r) => r.event)).toEqual([
      'CHANGE_ID_PHOTO',
      'START_VERIFICATION',
      'SAVE_PAYOUT',
      'PREPARE_SIGNATURE',
      'PREPARE_SIGNATURE',
    ])
    const byClient = rows.filter((r) => r.actorKind === 'client')
    expect(new Set(byClient.map((r) => r.actorId))).toEqual(new Set([String(w.c.clientId)]))
    // The decision and the payout are jobs: their name and lending-job id, no call.
    const jobs = rows.filter((r) => r.actorKind === 'job')
    expect(jobs.map((r) => r.event)).toEqual(['DECISION_APPROVED', 'PAYOUT_CASH_PICKUP_READY'])
    expect(jobs.map((r) => r.actorId.replace(/\d+$/, 'N'))).toEqual(['decision:N', 'payout:N'])
    expect(jobs.every((r) => r.call === null)).toBe(true)
  })

  it('a back-office decision records the user and the call', async () => {
    const w = await walkTo(t, 'manual_page')
    await eventSenders.DECISION_APPROVED(w)
    const [last] = (await historyOf(w.c.clientId)).slice(-1)
    const [admin] = await t.database.db.select({ id: backOfficeUser.id }).from(backOfficeUser)
    expect(last).toMatchObject({
      fromState: 'manual_page',
      toState: 'otp_agreement',
      event: 'DECISION_APPROVED',
      call: 'PUT /web/private/back-office/application/{id}/decision',
      actorKind: 'back-office',
      actorId: String(admin?.id),
    })
  })

  it('a call refused with 409 leaves no row, and nothing else', async () => {
    const w = await walkTo(t, 'work_info')
    const before = await fingerprint(t, w.c.clientId)
    const refused = await call(t, 'PUT', '/private/client/complete-step-three', {}, { token: w.c.token })
    expect(refused.status).toBe(400)
    const wrongStep = await call(t, 'POST', '/private/client/kontomatik/skip', {}, { token: w.c.token })
    expect(wrongStep.status).toBe(409)
    expect(wrongStep.body.response.code).toBe('journeyStepMismatch')
    expect(await fingerprint(t, w.c.clientId)).toEqual(before)
    expect(await historyOf(w.c.clientId)).toHaveLength(1)
  })

  it('a write that fails inside the transaction rolls back its history row with everything else', async () => {
    // Confirming back-office details nobody entered: the write refuses (409 detailsMissing) after the move was
    // accepted by the machine; the journey row, created in the same transaction, is gone too.
    const c = await verifiedClient(t)
    const before = await fingerprint(t, c.clientId)
    const answer = await call(t, 'PUT', '/private/client/complete-back-office-client', {}, { token: c.token })
    expect(answer.body.response.code).toBe('detailsMissing')
    expect(await fingerprint(t, c.clientId)).toEqual(before)
    expect(before.journey).toBeNull()
    // And directly: a write that throws after its own insert.
    await expect(
      journeyTransaction(
        t.deps,
        c.clientId,
        { type: 'SUBMIT_DETAILS' },
        { kind: 'client', id: c.clientId, call: 'PUT /web/private/client' },
        new Date(),
        async () => {
          throw new Error('the disk is full')
        },
      ),
    ).rejects.toThrow('the disk is full')
    expect(await historyOf(c.clientId)).toEqual([])
    expect((await flow(t, c.token)).step).toBe('new_client_created')
  })
})

describe('versioned snapshots', () => {
  it('new writes store the model version with the value', async () => {
    const w = await walkTo(t, 'work_info')
    const [row] = await t.database.db
      .select()
      .from(clientJourney)
      .where(eq(clientJourney.clientId, w.c.clientId))
    expect(row?.snapshot).toEqual({ version: JOURNEY_MODEL_VERSION, value: 'work_info' })
  })

  it('a version-1 snapshot ({ value } only) is read and advanced, and stored as version 2', async () => {
    const c = await verifiedClient(t)
    const w = await walkTo(t, 'work_info')
    // Two clients whose journeys an older release wrote.
    await t.database.db
      .update(clientJourney)
      .set({ snapshot: { value: 'work_info' } })
      .where(eq(clientJourney.clientId, w.c.clientId))
    await t.database.db
      .insert(clientJourney)
      .values({ clientId: c.clientId, snapshot: { value: 'new_client_created' }, step: 'new_client_created' })
    expect(await flow(t, w.c.token)).toEqual({ step: 'work_info', status: 'active' })
    expect(await flow(t, c.token)).toEqual({ step: 'new_client_created', status: 'active' })
    const moved = await call(t, 'PUT', '/private/client/complete-step-two', employment, { token: w.c.token })
    expect(moved.status).toBe(200)
    const [row] = await t.database.db
      .select()
      .from(clientJourney)
      .where(eq(clientJourney.clientId, w.c.clientId))
    expect(row?.snapshot).toEqual({ version: JOURNEY_MODEL_VERSION, value: 'relative_info' })
    const [last] = (await historyOf(w.c.clientId)).slice(-1)
    expect(last).toMatchObject({ fromState: 'work_info', toState: 'relative_info', modelVersion: 2 })
    // A version this code does not know is an error, never guessed at.
    await t.database.db
      .update(clientJourney)
      .set({ snapshot: { version: 99, value: 'work_info' } })
      .where(eq(clientJourney.clientId, c.clientId))
    expect((await call(t, 'GET', '/private/client/flow', undefined, { token: c.token })).status).toBe(500)
  })
})
