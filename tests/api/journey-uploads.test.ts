import { readdirSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documentUploadConfigSchema } from '../../domain/journey/uploads'
import { uploadedFile } from '../../server/db/schema-journey'
import { writeConfig } from '../../server/services/config'
import { createTestApp } from '../support/app'
import { type Answer, call, later, type TestApp } from './identity-helpers'
import {
  clientAt,
  expectOk,
  flow,
  identityDoc,
  JPEG,
  PDF,
  PNG,
  seedSmallPsgc,
  upload,
  uploadIdPhoto,
} from './journey-helpers'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
})
afterAll(async () => {
  await t?.close()
})

const violations = (answer: Answer) =>
  Object.fromEntries((answer.body.response.violations ?? []).map((v) => [v.propertyPath, v.message]))
const storedFiles = () => readdirSync(t.deps.uploadsDir).sort()
const setUploadConfig = (value: Record<string, number>) =>
  writeConfig(t.database.db, 'document-upload', documentUploadConfigSchema, {
    maxImageAge: 30,
    maxAttempts: 0,
    maxFileSize: 10 * 1024 * 1024,
    ...value,
  })

describe('identity-document photos', () => {
  it('recognises the format from the bytes: JPEG and PNG pass, a PDF or a renamed text file do not', async () => {
    const c = await clientAt(t, 'document_upload')
    expect((await uploadIdPhoto(t, c.token, 'front', JPEG)).status).toBe(201)
    expect((await uploadIdPhoto(t, c.token, 'back', PNG)).status).toBe(201)
    const pdf = await uploadIdPhoto(t, c.token, 'selfie', PDF)
    expect(pdf.status).toBe(400)
    expect(violations(pdf)).toEqual({ file: 'error-wrong-format' })
    const text = await upload(
      t,
      '/private/client/id-document/upload',
      c.token,
      {
        type: 'selfie',
        file: new TextEncoder().encode('<html>not an image</html>'),
        capturedAt: new Date().toISOString(),
      },
      'selfie.jpg',
    )
    expect(violations(text)).toEqual({ file: 'error-wrong-format' })
    const rows = await t.database.db.select().from(uploadedFile).where(eq(uploadedFile.clientId, c.clientId))
    expect(rows.map((r) => [r.kind, r.mime]).sort()).toEqual([
      ['back', 'image/png'],
      ['front', 'image/jpeg'],
    ])
  })

  it('stores under random names and serves the bytes back to the owner only', async () => {
    const owner = await clientAt(t, 'document_upload')
    const other = await clientAt(t, 'document_upload')
    const answer = await uploadIdPhoto(t, owner.token, 'front', PNG)
    expect(answer.status).toBe(201)
    const [row] = await t.database.db
      .select()
      .from(uploadedFile)
      .where(eq(uploadedFile.clientId, owner.clientId))
    expect(row!.storageName).toMatch(/^[0-9a-f]{32}$/)
    expect(storedFiles()).toContain(row!.storageName)

    const mine = await t.request('/web/private/client/id-document/download/front', {
      headers: { authorization: `Bearer ${owner.token}` },
    })
    expect(mine.status).toBe(200)
    expect(mine.headers.get('content-type')).toBe('image/png')
    expect(mine.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(PNG)

    const theirs = await call(t, 'GET', '/private/client/id-document/download/front', undefined, {
      token: other.token,
    })
    expect(theirs.status).toBe(404)
    const anonymous = await call(t, 'GET', '/private/client/id-document/download/front')
    expect(anonymous.status).toBe(401)
  })

  it('a new photo of a side replaces the old one (file removed); delete removes it; counting every attempt', async () => {
    const c = await clientAt(t, 'document_upload')
    const config = await call<{ attempt: number; maxImageAge: number; maxAttempts: number }>(
      t,
      'GET',
      '/private/client/flow/document-upload-config',
      undefined,
      { token: c.token },
    )
    expect(config.body.data).toMatchObject({ maxImageAge: 30, maxAttempts: 0, attempt: 1 })
    await uploadIdPhoto(t, c.token, 'front', JPEG)
    const [first] = await t.database.db
      .select()
      .from(uploadedFile)
      .where(eq(uploadedFile.clientId, c.clientId))
    const second = await uploadIdPhoto(t, c.token, 'front', PNG)
    expect(second.body.data).toMatchObject({ attempt: 2 })
    expect(storedFiles()).not.toContain(first!.storageName)
    const deleted = await call(t, 'DELETE', '/private/client/id-document/delete/front', undefined, {
      token: c.token,
    })
    expect(deleted.status).toBe(200)
    const gone = await call(t, 'GET', '/private/client/id-document/download/front', undefined, {
      token: c.token,
    })
    expect(gone.status).toBe(404)
    const again = await call(t, 'DELETE', '/private/client/id-document/delete/front', undefined, {
      token: c.token,
    })
    expect(again.status).toBe(404)
    const after = await call<{ attempt: number }>(
      t,
      'GET',
      '/private/client/flow/document-upload-config',
      undefined,
      {
        token: c.token,
      },
    )
    expect(after.body.data.attempt).toBe(3)
  })

  it('finish needs the front photo and a valid document; then the step is veriff', async () => {
    const c = await clientAt(t, 'document_upload')
    const noPhoto = await call(t, 'POST', '/private/client/id-document/finish', identityDoc, {
      token: c.token,
    })
    expect(noPhoto.status).toBe(422)
    expect(noPhoto.body.response.code).toBe('idPhotoMissing')
    await uploadIdPhoto(t, c.token)
    const badNumber = await call(
      t,
      'POST',
      '/private/client/id-document/finish',
      { documentType: 'PP', documentNumber: 'P123', expiryDate: '2020-01-01' },
      { token: c.token },
    )
    expect(badNumber.status).toBe(400)
    expect(violations(badNumber)).toEqual({
      documentNumber: 'error-wrong-format',
      expiryDate: 'Invalid expiration date. It should be within the next 10 years.',
    })
    const noExpiry = await call(
      t,
      'POST',
      '/private/client/id-document/finish',
      { documentType: 'DL', documentNumber: 'N01-12-123456', expiryDate: '2030-02' },
      { token: c.token },
    )
    expect(violations(noExpiry)).toEqual({ expiryDate: 'Invalid format of expiration date' })
    expect((await flow(t, c.token)).step).toBe('document_upload')
    const done = await call(t, 'POST', '/private/client/id-document/finish', identityDoc, { token: c.token })
    expect(done.status).toBe(200)
    expect((await flow(t, c.token)).step).toBe('veriff')
  })

  it("the expiry window is judged on the server's clock", async () => {
    // Valid by the wall clock, expired on a server clock three years ahead (where this client lives).
    const passport = {
      documentType: 'PP',
      documentNumber: 'P1234567A',
      expiryDate: `${new Date().getUTCFullYear() + 2}-01-01`,
    }
    await setUploadConfig({ maxImageAge: 0 })
    try {
      await later(t, 3 * 365 * 86_400_000, async () => {
        const c = await clientAt(t, 'document_upload')
        await expectOk(uploadIdPhoto(t, c.token), 201)
        const expired = await call(t, 'POST', '/private/client/id-document/finish', passport, {
          token: c.token,
        })
        expect(violations(expired)).toEqual({
          expiryDate: 'Invalid expiration date. It should be within the next 10 years.',
        })
        expect((await flow(t, c.token)).step).toBe('document_upload')
      })
    } finally {
      await setUploadConfig({})
    }
  })

  it('a refused upload leaves no file behind', async () => {
    const c = await clientAt(t, 'work_info')
    const before = storedFiles()
    const refused = await uploadIdPhoto(t, c.token)
    expect(refused.status).toBe(409)
    expect(storedFiles()).toEqual(before)
  })

  it('a missing file or an unknown side is a 400', async () => {
    const c = await clientAt(t, 'document_upload')
    const noFile = await upload(t, '/private/client/id-document/upload', c.token, { type: 'front' })
    expect(violations(noFile)).toEqual({ file: 'error-required' })
    const side = await upload(t, '/private/client/id-document/upload', c.token, { type: 'left', file: JPEG })
    expect(violations(side)).toEqual({ type: 'error-wrong-format' })
    const body = JSON.stringify({ type: 'front' })
    const json = await t.request('/web/private/client/id-document/upload', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${c.token}`,
        'content-type': 'application/json',
        'content-length': String(body.length),
      },
      body,
    })
    // An upload route reads multipart only (docs/decisions/0002).
    expect(json.status).toBe(415)
    // Without a declared length the body is not read at all.
    const chunked = await t.request('/web/private/client/id-document/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${c.token}`, 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--',
    })
    expect(chunked.status).toBe(411)
  })
})

describe('limits from the upload configuration', () => {
  it('image age: a photo older than the limit, without a capture time, or badly dated is refused; 0 = unlimited', async () => {
    const c = await clientAt(t, 'document_upload')
    const send = (capturedAt?: string) =>
      upload(t, '/private/client/id-document/upload', c.token, {
        type: 'front',
        file: JPEG,
        ...(capturedAt === undefined ? {} : { capturedAt }),
      })
    expect(violations(await send(new Date(Date.now() - 31_000).toISOString()))).toEqual({
      file: 'error-file-age',
    })
    expect(violations(await send())).toEqual({ file: 'error-file-age' })
    expect(violations(await send('yesterday'))).toEqual({ capturedAt: 'error-wrong-format' })
    expect((await send(new Date(Date.now() - 10_000).toISOString())).status).toBe(201)
    await setUploadConfig({ maxImageAge: 0 })
    try {
      expect((await send()).status).toBe(201)
      expect((await send(new Date(Date.now() - 86_400_000).toISOString())).status).toBe(201)
    } finally {
      await setUploadConfig({})
    }
  })

  it('size: a file over the limit is error-file-size (413 before reading when the length says so)', async () => {
    const c = await clientAt(t, 'document_upload')
    await setUploadConfig({ maxFileSize: 100 })
    try {
      const big = new Uint8Array(200)
      big.set(JPEG)
      const answer = await uploadIdPhoto(t, c.token, 'front', big)
      expect(answer.status).toBe(400)
      expect(violations(answer)).toEqual({ file: 'error-file-size' })
      const huge = new Uint8Array(200 * 1024)
      huge.set(JPEG)
      const early = await uploadIdPhoto(t, c.token, 'front', huge)
      expect(early.status).toBe(413)
      expect(violations(early)).toEqual({ file: 'error-file-size' })
    } finally {
      await setUploadConfig({})
    }
  })

  it('attempts: with a maximum, the attempt after the last is refused (uploadMetric)', async () => {
    const c = await clientAt(t, 'document_upload')
    await setUploadConfig({ maxAttempts: 2 })
    try {
      expect((await uploadIdPhoto(t, c.token)).status).toBe(201)
      expect((await uploadIdPhoto(t, c.token)).status).toBe(201)
      const third = await uploadIdPhoto(t, c.token)
      expect(third.status).toBe(422)
      expect(third.body.response.code).toBe('uploadMetric')
    } finally {
      await setUploadConfig({})
    }
  })
})

describe('supporting documents', () => {
  it('accept JPEG, PNG and PDF at any step; client documents only of the two types', async () => {
    const c = await clientAt(t, 'work_info')
    const statement = await upload(t, '/private/client/bank-statement/upload', c.token, { file: PDF })
    expect(statement.status).toBe(201)
    expect(statement.body.data).toMatchObject({ mime: 'application/pdf', type: 'bank_statement' })
    const payslip = await upload(t, '/private/client/document/upload', c.token, {
      type: 'payslip',
      file: PNG,
    })
    expect(payslip.status).toBe(201)
    const cert = await upload(t, '/private/client/client-document', c.token, {
      type: 'employment_certificate',
      file: JPEG,
    })
    expect(cert.status).toBe(201)
    const wrongType = await upload(t, '/private/client/client-document', c.token, {
      type: 'selfie',
      file: JPEG,
    })
    expect(violations(wrongType)).toEqual({ type: 'error-wrong-format' })
    const notPdf = await upload(t, '/private/client/bank-statement/upload', c.token, {
      file: new TextEncoder().encode('GIF89a....'),
    })
    expect(violations(notPdf)).toEqual({ file: 'error-wrong-format' })
  })
})
