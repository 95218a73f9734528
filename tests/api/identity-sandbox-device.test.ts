/**
 * The sandbox-only trusted device of the first back-office user (SANDBOX_ADMIN_DEVICE_ID, docs/decisions/0009):
 * it lets the end-to-end test read the outbox; it must be impossible in production.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { trustSandboxAdminDevice } from '../../server/services/identity/sandbox-device'
import {
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  seedFirstUser,
} from '../../server/services/identity/users'
import { createTestApp } from '../support/app'
import { call, newAddress, type TestApp } from './identity-helpers'

const DEVICE = 'e2e-admin-device-0001'

const adminLogin = (t: TestApp, deviceId: string) =>
  call<{ mfa: boolean }>(
    t,
    'POST',
    '/public/user/login',
    { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD, captchaToken: 'ok', deviceId },
    { address: newAddress() },
  )

describe('sandbox admin device', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedFirstUser(t.database.db, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD })
  })
  afterAll(() => t.close())

  it('is refused in production, and trusts nothing there', async () => {
    await expect(
      trustSandboxAdminDevice(t.database.db, {
        email: DEFAULT_ADMIN_EMAIL,
        deviceId: DEVICE,
        production: true,
      }),
    ).rejects.toThrow(/must not be set when NODE_ENV=production/)
    expect((await adminLogin(t, DEVICE)).body.data).toMatchObject({ mfa: true })
  })

  it('refuses a malformed id and answers false for an unknown e-mail', async () => {
    await expect(
      trustSandboxAdminDevice(t.database.db, {
        email: DEFAULT_ADMIN_EMAIL,
        deviceId: 'x',
        production: false,
      }),
    ).rejects.toThrow(/8 to 128/)
    expect(
      await trustSandboxAdminDevice(t.database.db, {
        email: 'nobody@hiram.local',
        deviceId: DEVICE,
        production: false,
      }),
    ).toBe(false)
  })

  it('outside production the first user logs in from that device without a code, from no other', async () => {
    expect(
      await trustSandboxAdminDevice(t.database.db, {
        email: DEFAULT_ADMIN_EMAIL,
        deviceId: DEVICE,
        production: false,
      }),
    ).toBe(true)
    const trusted = await adminLogin(t, DEVICE)
    expect(trusted.status).toBe(200)
    expect(trusted.body.data).toMatchObject({ mfa: false })
    expect((await adminLogin(t, 'some-other-device-01')).body.data).toMatchObject({ mfa: true })
  })
})

describe('the server with SANDBOX_ADMIN_DEVICE_ID in production', () => {
  it('refuses to start and says why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hiram-sandbox-prod-'))
    const { DATABASE_URL: _ignored, ...env } = process.env
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...env,
        NODE_ENV: 'production',
        SANDBOX_ADMIN_DEVICE_ID: DEVICE,
        ADMIN_PASSWORD: 'Prod1234secret',
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'warn',
        STATIC_DIR: join(tmpdir(), 'hiram-no-static'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk)
    })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    rmSync(dataDir, { recursive: true, force: true })
    expect(code).toBe(1)
    expect(stderr).toContain('SANDBOX_ADMIN_DEVICE_ID must not be set when NODE_ENV=production')
  }, 60_000)
})
