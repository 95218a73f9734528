/**
 * Which provider each adapter uses, from the environment (docs/decisions/0018), and the rule that production is
 * production: with NODE_ENV=production the server refuses to start while any adapter is on its sandbox provider,
 * unless SANDBOX=1 says this deployment is a sandbox on purpose (then every page shows a banner). Codes are never
 * printed to the console in production, whatever SANDBOX_CONSOLE says.
 *
 * A new adapter is one more entry in ADAPTERS and one more field in ProviderSet: the start-up check, the message
 * and the banner follow.
 */
import { randomBytes } from 'node:crypto'
import type { Logger } from 'pino'
import type { AppDeps } from '../deps'
import { sandboxBankData } from './bank-data'
import { type CaptchaProvider, sandboxCaptcha } from './captcha'
import { createSiteverifyCaptcha, type SiteverifyKind } from './captcha-siteverify'
import { createSmtpEmail } from './email-smtp'
import { type FraudSignalsProvider, sandboxFraudSignals } from './fraud-signals'
import { sandboxIdentityVerification } from './identity-verification'
import { createSandboxMessaging } from './messaging'
import { type ChannelSender, createLiveMessaging } from './messaging-live'
import type { PaymentGateway } from './payment-gateway'
import { createSandboxGateway, type DeliverWebhook, type GatewaySecret } from './payment-gateway-sandbox'
import { sandboxPayout } from './payout'
import { sandboxScoring } from './scoring'
import { createSemaphoreSms } from './sms-semaphore'

export type ProviderSet = Pick<
  AppDeps,
  | 'captcha'
  | 'messaging'
  | 'identityVerification'
  | 'bankData'
  | 'scoring'
  | 'payout'
  | 'paymentGateway'
  | 'fraudSignals'
>

export type AdapterKey =
  | 'captcha'
  | 'sms'
  | 'email'
  | 'identityVerification'
  | 'bankData'
  | 'scoring'
  | 'payout'
  | 'paymentGateway'
  | 'fraudSignals'

export interface AdapterInfo {
  key: AdapterKey
  label: string
  /** What switches it to a real provider, for the refusal message; null while only the sandbox exists. */
  switchedBy: string | null
  isSandbox(providers: ProviderSet): boolean
}

const SANDBOX = 'sandbox'

export const ADAPTERS: readonly AdapterInfo[] = [
  {
    key: 'captcha',
    label: 'captcha',
    switchedBy: 'CAPTCHA_PROVIDER=recaptcha or turnstile, with CAPTCHA_SECRET and CAPTCHA_SITE_KEY',
    isSandbox: (p) => p.captcha.name === SANDBOX,
  },
  {
    key: 'sms',
    label: 'SMS',
    switchedBy: 'SMS_PROVIDER=semaphore, with SEMAPHORE_API_KEY',
    isSandbox: (p) => (p.messaging.channels?.sms ?? p.messaging.name) === SANDBOX,
  },
  {
    key: 'email',
    label: 'e-mail',
    switchedBy: 'EMAIL_PROVIDER=smtp, with SMTP_URL (or SMTP_HOST) and SMTP_FROM',
    isSandbox: (p) => (p.messaging.channels?.email ?? p.messaging.name) === SANDBOX,
  },
  {
    key: 'identityVerification',
    label: 'identity verification',
    switchedBy: null,
    isSandbox: (p) => p.identityVerification.name === SANDBOX,
  },
  { key: 'bankData', label: 'bank data', switchedBy: null, isSandbox: (p) => p.bankData.name === SANDBOX },
  { key: 'scoring', label: 'scoring', switchedBy: null, isSandbox: (p) => p.scoring.name === SANDBOX },
  { key: 'payout', label: 'payout', switchedBy: null, isSandbox: (p) => p.payout.name === SANDBOX },
  {
    key: 'paymentGateway',
    label: 'payment gateway',
    switchedBy: null,
    isSandbox: (p) => p.paymentGateway.name === SANDBOX,
  },
  {
    // Issue 22 item 1 (ADR 0042): hello-soda and the fraud tools' session tokens. Deps without one run the sandbox.
    key: 'fraudSignals',
    label: 'fraud-prevention tools',
    switchedBy: null,
    isSandbox: (p) => fraudSignalsOf(p).name === SANDBOX,
  },
]

/** The fraud tools the deps run with: the sandbox when none is given (and then listed as sandboxed). */
export const fraudSignalsOf = (deps: Pick<AppDeps, 'fraudSignals'>): FraudSignalsProvider =>
  deps.fraudSignals ?? sandboxFraudSignals

/** The adapters of `providers` that are on their sandbox provider, in ADAPTERS order. */
export function sandboxedAdapters(providers: ProviderSet): AdapterKey[] {
  return ADAPTERS.filter((adapter) => adapter.isSandbox(providers)).map((adapter) => adapter.key)
}

/** A variable names a provider that does not exist, or a provider lacks a variable it needs. */
export class ProviderConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Provider configuration is incomplete:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ProviderConfigError'
  }
}

/** NODE_ENV=production with sandbox adapters and no SANDBOX=1. */
export class ProductionSandboxError extends Error {
  constructor(readonly sandboxed: AdapterKey[]) {
    const lines = sandboxed.map((key) => {
      const adapter = ADAPTERS.find((a) => a.key === key)
      const how = adapter?.switchedBy ? `set ${adapter.switchedBy}` : 'no real provider yet'
      return `  - ${adapter?.label ?? key}: ${how}`
    })
    super(
      [
        'Refusing to start: NODE_ENV=production, but these adapters are on their sandbox provider:',
        ...lines,
        'Configure a real provider for each, or set SANDBOX=1 to run this deployment as a sandbox on purpose',
        '(every page then shows a sandbox banner; docs/decisions/0018-production-and-sandbox-providers.md).',
      ].join('\n'),
    )
    this.name = 'ProductionSandboxError'
  }
}

export const isProduction = (env: NodeJS.ProcessEnv) => env.NODE_ENV === 'production'
export const sandboxAllowed = (env: NodeJS.ProcessEnv) => env.SANDBOX === '1'

/** Throws ProductionSandboxError when production would run on sandbox adapters without SANDBOX=1. */
export function assertProductionSafe(env: NodeJS.ProcessEnv, sandboxed: readonly AdapterKey[]): void {
  if (isProduction(env) && sandboxed.length > 0 && !sandboxAllowed(env))
    throw new ProductionSandboxError([...sandboxed])
}

/** Codes in the console: local convenience only, never in production. */
export const printsCodes = (env: NodeJS.ProcessEnv) => !isProduction(env) && env.SANDBOX_CONSOLE !== '0'

export interface EnvProviders extends ProviderSet {
  /** Adapters on their sandbox provider (the banner shows when not empty). */
  sandboxed: AdapterKey[]
  /** Whether the sandbox messaging prints codes to the console. */
  consolePrint: boolean
  /** Closes connections the real providers hold (SMTP). */
  close(): Promise<void>
}

class Reader {
  readonly problems: string[] = []
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  text(name: string): string | undefined {
    const value = this.env[name]?.trim()
    return value ? value : undefined
  }

  required(name: string, why: string): string {
    const value = this.text(name)
    if (!value) this.problems.push(`${name} is required ${why}`)
    return value ?? ''
  }

  choice<T extends string>(name: string, choices: readonly T[]): T {
    const value = (this.text(name) ?? choices[0]) as T
    if (!choices.includes(value)) {
      this.problems.push(`${name} must be one of ${choices.join(', ')} (got "${value}")`)
      return choices[0] as T
    }
    return value
  }

  number(name: string, fallback: number, min: number, max: number): number {
    const raw = this.text(name)
    if (raw === undefined) return fallback
    const value = Number(raw)
    if (!Number.isFinite(value) || value < min || value > max) {
      this.problems.push(`${name} must be a number from ${min} to ${max} (got "${raw}")`)
      return fallback
    }
    return value
  }

  flag(name: string, fallback: boolean): boolean {
    const raw = this.text(name)
    if (raw === undefined) return fallback
    if (raw === '1' || raw === 'true') return true
    if (raw === '0' || raw === 'false') return false
    this.problems.push(`${name} must be 1 or 0 (got "${raw}")`)
    return fallback
  }
}

function captchaFromEnv(read: Reader, logger: Logger): CaptchaProvider {
  const kind = read.choice('CAPTCHA_PROVIDER', ['sandbox', 'recaptcha', 'turnstile'] as const)
  if (kind === 'sandbox') return sandboxCaptcha
  const why = `when CAPTCHA_PROVIDER=${kind}`
  const secret = read.required('CAPTCHA_SECRET', why)
  const siteKey = read.required('CAPTCHA_SITE_KEY', why)
  const minScore = read.number('CAPTCHA_MIN_SCORE', 0.5, 0.01, 1)
  const safeScore = read.number('CAPTCHA_SAFE_SCORE', Math.max(0.7, minScore), 0.01, 1)
  if (safeScore < minScore) read.problems.push('CAPTCHA_SAFE_SCORE must not be below CAPTCHA_MIN_SCORE')
  const hostnames = read
    .text('CAPTCHA_HOSTNAMES')
    ?.split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  const timeoutMs = read.number('CAPTCHA_TIMEOUT_MS', 5000, 100, 60_000)
  if (read.problems.length) return sandboxCaptcha
  return createSiteverifyCaptcha({
    kind: kind as SiteverifyKind,
    secret,
    siteKey,
    verifyUrl: read.text('CAPTCHA_VERIFY_URL'),
    minScore,
    safeScore,
    hostnames,
    timeoutMs,
    logger,
  })
}

function smsFromEnv(read: Reader): ChannelSender | undefined {
  const kind = read.choice('SMS_PROVIDER', ['sandbox', 'semaphore'] as const)
  if (kind === 'sandbox') return undefined
  const apiKey = read.required('SEMAPHORE_API_KEY', 'when SMS_PROVIDER=semaphore')
  const senderName = read.text('SEMAPHORE_SENDER_NAME')
  if (senderName && !/^[A-Za-z0-9 ]{1,11}$/.test(senderName))
    read.problems.push('SEMAPHORE_SENDER_NAME must be 1 to 11 letters, digits or spaces')
  return createSemaphoreSms({
    apiKey,
    senderName,
    baseUrl: read.text('SEMAPHORE_BASE_URL'),
    priorityCodes: read.flag('SEMAPHORE_PRIORITY_CODES', false),
    timeoutMs: read.number('SMS_TIMEOUT_MS', 10_000, 100, 120_000),
  })
}

function emailFromEnv(read: Reader): ChannelSender | undefined {
  const kind = read.choice('EMAIL_PROVIDER', ['sandbox', 'smtp'] as const)
  if (kind === 'sandbox') return undefined
  const url = read.text('SMTP_URL')
  const host = read.text('SMTP_HOST')
  if (!url && !host) read.problems.push('SMTP_URL or SMTP_HOST is required when EMAIL_PROVIDER=smtp')
  const from = read.required('SMTP_FROM', 'when EMAIL_PROVIDER=smtp')
  const port = read.number('SMTP_PORT', 587, 1, 65_535)
  const requireTls = read.flag('SMTP_REQUIRE_TLS', true)
  const timeoutMs = read.number('EMAIL_TIMEOUT_MS', 10_000, 100, 120_000)
  if (read.problems.length) return undefined
  try {
    return createSmtpEmail({
      url,
      host,
      port,
      user: read.text('SMTP_USER'),
      pass: read.text('SMTP_PASS'),
      from,
      requireTls,
      timeoutMs,
    })
  } catch (error) {
    read.problems.push((error as Error).message)
    return undefined
  }
}

/**
 * What the sandbox payment gateway needs from the process that runs it, both known only later than this check
 * (server/main.ts): its signing key when SANDBOX_GATEWAY_SECRET is unset (derived from the server's secrets, loaded
 * after the production check so a refused start touches nothing), and how to reach our webhook endpoint (this
 * server's own port, once it listens).
 */
export interface GatewayWiring {
  secret?: () => GatewaySecret
  deliver?: DeliverWebhook
}

/** Nowhere to deliver yet: the attempt fails and the sandbox retries it later. */
const undeliverable: DeliverWebhook = async () => {
  throw new Error('The sandbox gateway has nowhere to deliver its webhooks.')
}

function paymentGatewayFromEnv(read: Reader, wiring: GatewayWiring): PaymentGateway {
  // Only the sandbox so far; PayMongo or Xendit become choices here, with their own secrets.
  read.choice('PAYMENT_GATEWAY', ['sandbox'] as const)
  const fixed = read.text('SANDBOX_GATEWAY_SECRET')
  if (fixed !== undefined && fixed.length < 32)
    read.problems.push('SANDBOX_GATEWAY_SECRET must be at least 32 characters')
  // Neither set nor wired (a script, a test of this module): a key of this process's own.
  const secret = fixed ?? wiring.secret ?? randomBytes(32)
  return createSandboxGateway({ secret, deliver: wiring.deliver ?? undeliverable })
}

/**
 * Every provider the environment asks for. Throws ProviderConfigError (every problem at once) when a variable is
 * wrong or missing; it does not apply the production rule: call assertProductionSafe with `sandboxed` for that.
 */
export function providersFromEnv(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  gatewayWiring: GatewayWiring = {},
): EnvProviders {
  const read = new Reader(env)
  if (env.SANDBOX !== undefined && env.SANDBOX !== '' && env.SANDBOX !== '1' && env.SANDBOX !== '0')
    read.problems.push(`SANDBOX must be 1 or unset (got "${env.SANDBOX}")`)
  const captcha = captchaFromEnv(read, logger)
  const sms = smsFromEnv(read)
  const email = emailFromEnv(read)
  const paymentGateway = paymentGatewayFromEnv(read, gatewayWiring)
  // Only the sandbox so far (ADR 0042); a real provider becomes a choice here, with its keys.
  read.choice('FRAUD_SIGNALS_PROVIDER', ['sandbox'] as const)
  if (read.problems.length) {
    void sms?.close?.()
    void email?.close?.()
    throw new ProviderConfigError(read.problems)
  }
  const consolePrint = printsCodes(env)
  const sandboxMessaging = createSandboxMessaging(logger, consolePrint)
  const messaging =
    sms || email ? createLiveMessaging({ logger, sandbox: sandboxMessaging, sms, email }) : sandboxMessaging
  const providers: ProviderSet = {
    captcha,
    messaging,
    identityVerification: sandboxIdentityVerification,
    bankData: sandboxBankData,
    scoring: sandboxScoring,
    payout: sandboxPayout,
    paymentGateway,
    fraudSignals: sandboxFraudSignals,
  }
  return {
    ...providers,
    sandboxed: sandboxedAdapters(providers),
    consolePrint,
    async close() {
      if ('close' in messaging && typeof messaging.close === 'function') await messaging.close()
    },
  }
}
