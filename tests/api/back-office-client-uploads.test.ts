/**
 * Issue 19 item 3 over the API: what a client gave at registration, on their file. The ID entered (its number
 * masked to the last 4 characters), the identity checks and the files uploaded are listed with the file; a file's
 * bytes come from their own call, with their type, never cached, and every view leaves an entry in the audit
 * trail (ID images are sensitive personal information, RA 10173). Another client's file, a replaced one, one whose
 * bytes are gone and a made-up id are 404s; a user without clients.read is refused.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maskIdNumber } from '../../domain/back-office/masking'
import type { ClientDesk } from '../../domain/contract/clients'
import { auditEntry } from '../../server/db/schema-audit'
import { identityDocument, uploadedFile } from '../../server/db/schema-journey'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'
import { call, type SignedUp, signUp, type TestApp } from './identity-helpers'
import { clientAt, identityDoc, JPEG, seedSmallPsgc } from './journey-helpers'

describe('back-office client uploads', () => {
  let t: TestApp
  let support: Staff
  let borrower: SignedUp
  let stranger: SignedUp
  let desk: ClientDesk
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    support = await staffMember(t, 'support')
    borrower = await clientAt(t, 'loan_page', { firstName: 'Corazon', lastName: 'Villanueva' })
    stranger = await signUp(t)
    const answer = await call<ClientDesk>(
      t,
      'GET',
      `/private/back-office/clients/${borrower.clientId}`,
      undefined,
      { token: support.token },
    )
    expect(answer.status).toBe(200)
    desk = answer.body.data
  }, 120_000)
  afterAll(() => t.close())

  const view = (clientId: number | string, fileId: string, token = support.token) =>
    t.request(`/web/private/back-office/clients/${clientId}/uploads/${fileId}`, {
      headers: { authorization: `Bearer ${token}` },
    })
  const views = (clientId: number) =>
    t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'uploaded_file'), eq(auditEntry.clientId, clientId)))
      .orderBy(desc(auditEntry.id))

  it('lists the ID entered with its number masked, the checks and the files uploaded', async () => {
    const [stored] = await t.database.db
      .select()
      .from(identityDocument)
      .where(eq(identityDocument.clientId, borrower.clientId))
    expect(stored!.documentNumber.length).toBeGreaterThan(4)
    expect(desk.identity.document).toMatchObject({
      documentType: identityDoc.documentType,
      documentNumber: `••••${stored!.documentNumber.slice(-4)}`,
    })
    expect(Number.isNaN(Date.parse(desk.identity.document!.finishedAt))).toBe(false)
    // The whole number is nowhere in the answer.
    expect(JSON.stringify(desk)).not.toContain(stored!.documentNumber)
    expect(JSON.stringify(desk)).not.toContain(identityDoc.documentNumber)
    expect(desk.identity.checks.length).toBeGreaterThan(0)
    expect(desk.identity.checks[0]).toMatchObject({ status: 'approved' })
    const front = desk.identity.uploads.find((u) => u.category === 'id_document' && u.kind === 'front')
    expect(front).toMatchObject({ mime: 'image/jpeg', size: JPEG.length })
  })

  it('serves a file with its type, uncached, and records the view in the audit trail', async () => {
    const front = desk.identity.uploads.find((u) => u.kind === 'front')!
    const before = (await views(borrower.clientId)).length
    const answer = await view(borrower.clientId, front.id)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('image/jpeg')
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await answer.arrayBuffer())).toEqual(JPEG)
    const entries = await views(borrower.clientId)
    expect(entries.length).toBe(before + 1)
    expect(entries[0]).toMatchObject({
      userId: support.id,
      outcome: 'done',
      call: 'GET /web/private/back-office/clients/{id}/uploads/{fileId}',
      permission: 'clients.read',
      entityId: front.id,
      after: { viewed: { category: 'id_document', kind: 'front', mime: 'image/jpeg' } },
    })
  })

  it("answers 404 for another client's file, a replaced one, missing bytes or a made-up id; 400 for a bad id", async () => {
    const front = desk.identity.uploads.find((u) => u.kind === 'front')!
    const before = (await views(borrower.clientId)).length
    expect((await view(stranger.clientId, front.id)).status).toBe(404)
    expect((await view(borrower.clientId, randomUUID())).status).toBe(404)
    const [gone] = await t.database.db
      .insert(uploadedFile)
      .values({
        clientId: borrower.clientId,
        category: 'document',
        kind: 'payslip',
        mime: 'image/png',
        size: 10,
        sha256: '0'.repeat(64),
        storageName: `missing-${randomUUID()}`,
      })
      .returning({ id: uploadedFile.id })
    expect((await view(borrower.clientId, gone!.id)).status).toBe(404)
    const [replaced] = await t.database.db
      .insert(uploadedFile)
      .values({
        clientId: borrower.clientId,
        category: 'id_document',
        kind: 'back',
        mime: 'image/jpeg',
        size: 10,
        sha256: '0'.repeat(64),
        storageName: `missing-${randomUUID()}`,
        deletedAt: new Date(),
      })
      .returning({ id: uploadedFile.id })
    expect((await view(borrower.clientId, replaced!.id)).status).toBe(404)
    expect((await view(borrower.clientId, 'not-a-file')).status).toBe(400)
    expect((await view('99999999999999999', front.id)).status).toBe(400)
    // Nothing was seen, so nothing is recorded as seen.
    expect((await views(borrower.clientId)).length).toBe(before)
    expect((await views(stranger.clientId)).length).toBe(0)
  })

  it('refuses a user without clients.read, and audits the refusal', async () => {
    const front = desk.identity.uploads.find((u) => u.kind === 'front')!
    const noRole = await staffMember(t)
    expect((await view(borrower.clientId, front.id, noRole.token)).status).toBe(403)
    const refused = await t.database.db.select().from(auditEntry).where(eq(auditEntry.userId, noRole.id))
    expect(refused.map((e) => e.outcome)).toEqual(['refused'])
  })
})

describe('maskIdNumber', () => {
  it('keeps the last 4 characters only, and hides a short number whole', () => {
    expect(maskIdNumber('34-1234567-8')).toBe('••••67-8')
    expect(maskIdNumber(' N01-23-456789 ')).toBe('••••6789')
    expect(maskIdNumber('12345')).toBe('••••2345')
    expect(maskIdNumber('1234')).toBe('••••')
    expect(maskIdNumber('')).toBe('••••')
  })
})
