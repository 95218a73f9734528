/**
 * GET /web/public/environment (docs/decisions/0018): what the browser learns about the deployment. The banner
 * shows while any adapter is on its sandbox provider; the captcha provider and its public site key let the page
 * load the right script. Derived from the providers the app actually runs with, never from a separate flag; the
 * instance's sandbox mode (docs/decisions/0039) is read from the database on a sandbox deployment only.
 */

import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { environmentSchema } from '../../domain/environment'
import { testSecrets } from '../../server/auth/secrets'
import type { Database } from '../../server/db/client'
import type { AppDeps } from '../../server/deps'
import { createApp } from '../../server/http/app'
import { createLogger } from '../../server/logger'
import { sandboxBankData } from '../../server/providers/bank-data'
import { sandboxCaptcha } from '../../server/providers/captcha'
import { createSiteverifyCaptcha } from '../../server/providers/captcha-siteverify'
import { sandboxFraudSignals } from '../../server/providers/fraud-signals'
import { sandboxIdentityVerification } from '../../server/providers/identity-verification'
import { createSandboxMessaging } from '../../server/providers/messaging'
import { createLiveMessaging } from '../../server/providers/messaging-live'
import { createSandboxGateway } from '../../server/providers/payment-gateway-sandbox'
import { sandboxPayout } from '../../server/providers/payout'
import { sandboxScoring } from '../../server/providers/scoring'
import { createTestDatabase } from '../support/database'

const logger = createLogger('silent')
const sandboxMessaging = createSandboxMessaging(logger, false)
const sandboxGateway = createSandboxGateway({
  secret: 'environment-route-test-gateway-secret',
  deliver: async () => new Response(null, { status: 503 }),
})

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** The app with the given providers; the route reads only the instance's sandbox mode (a sandbox deployment). */
function appWith(overrides: Partial<AppDeps> = {}) {
  const deps: AppDeps = {
    database,
    logger,
    secrets: testSecrets(),
    now: () => new Date(),
    messaging: sandboxMessaging,
    captcha: sandboxCaptcha,
    identityVerification: sandboxIdentityVerification,
    bankData: sandboxBankData,
    scoring: sandboxScoring,
    payout: sandboxPayout,
    paymentGateway: sandboxGateway,
    uploadsDir: '/nonexistent',
    ...overrides,
  }
  return createApp(deps)
}

async function environment(overrides: Partial<AppDeps> = {}) {
  const res = await appWith(overrides).request('/web/public/environment')
  expect(res.status).toBe(200)
  const body = (await res.json()) as { success: boolean; data: unknown }
  expect(body.success).toBe(true)
  return v.parse(environmentSchema, body.data)
}

const fakeSender = (channel: 'sms' | 'email', name: string) => ({ name, channel, deliver: async () => {} })

describe('GET /web/public/environment', () => {
  it('says sandbox, naming every adapter, when everything is the sandbox (local runs, SANDBOX=1)', async () => {
    expect(await environment()).toEqual({
      sandbox: true,
      sandboxMode: false,
      sandboxed: [
        'captcha',
        'sms',
        'email',
        'identityVerification',
        'bankData',
        'scoring',
        'payout',
        'paymentGateway',
        'fraudSignals',
      ],
      captcha: { provider: 'sandbox', siteKey: null },
    })
  })

  it('names only the adapters still on the sandbox, and hands out the captcha site key, never its secret', async () => {
    const captcha = createSiteverifyCaptcha({
      kind: 'recaptcha',
      secret: 'server-secret',
      siteKey: 'public-key',
    })
    const messaging = createLiveMessaging({
      logger,
      sandbox: sandboxMessaging,
      sms: fakeSender('sms', 'semaphore'),
      email: fakeSender('email', 'smtp'),
    })
    const answer = await environment({ captcha, messaging })
    expect(answer).toEqual({
      sandbox: true,
      sandboxMode: false,
      sandboxed: ['identityVerification', 'bankData', 'scoring', 'payout', 'paymentGateway', 'fraudSignals'],
      captcha: { provider: 'recaptcha', siteKey: 'public-key' },
    })
    expect(JSON.stringify(answer)).not.toContain('server-secret')
  })

  it('says not sandbox once every adapter is real', async () => {
    const real = { name: 'real' }
    const answer = await environment({
      captcha: createSiteverifyCaptcha({ kind: 'turnstile', secret: 's', siteKey: 'k' }),
      messaging: createLiveMessaging({
        logger,
        sandbox: sandboxMessaging,
        sms: fakeSender('sms', 'semaphore'),
        email: fakeSender('email', 'smtp'),
      }),
      identityVerification: { ...sandboxIdentityVerification, ...real },
      bankData: { ...sandboxBankData, ...real },
      scoring: { ...sandboxScoring, ...real },
      payout: { ...sandboxPayout, ...real },
      paymentGateway: { ...sandboxGateway, ...real },
      fraudSignals: { ...sandboxFraudSignals, ...real },
    })
    expect(answer.sandbox).toBe(false)
    expect(answer.sandboxMode).toBe(false)
    expect(answer.sandboxed).toEqual([])
  })

  it('says sandbox, with the sandbox mode off, when the database cannot say (the banner still shows)', async () => {
    const answer = await environment({ database: { kind: 'memory' } as unknown as Database })
    expect(answer.sandbox).toBe(true)
    expect(answer.sandboxMode).toBe(false)
  })

  it('is described in the OpenAPI document', async () => {
    const res = await appWith().request('/web/openapi.json')
    const doc = (await res.json()) as { paths: Record<string, unknown> }
    expect(doc.paths).toHaveProperty(['/web/public/environment'])
  })
})
