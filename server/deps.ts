/**
 * What every use case runs with: the database, the clock, the logger and the providers. Built once by
 * server/main.ts (or a test), handed to the HTTP layer, the jobs and the scripts alike; it lives outside
 * server/http/ because services and jobs read it without any HTTP in sight.
 */
import type { Logger } from 'pino'
import type { Secrets } from './auth/secrets'
import type { Database } from './db/client'
import type { BankDataProvider } from './providers/bank-data'
import type { CaptchaProvider } from './providers/captcha'
import type { FraudSignalsProvider } from './providers/fraud-signals'
import type { IdentityVerificationProvider } from './providers/identity-verification'
import type { MessagingProvider } from './providers/messaging'
import type { PaymentGateway } from './providers/payment-gateway'
import type { PayoutProvider } from './providers/payout'
import type { ScoringProvider } from './providers/scoring'

export interface AppDeps {
  database: Database
  logger: Logger
  secrets: Secrets
  /** The clock every service reads, so tests can move time. */
  now: () => Date
  /** SMS and e-mail; the sandbox provider stores them in the outbox. Never awaited inside a transaction. */
  messaging: MessagingProvider
  captcha: CaptchaProvider
  /** Veriff-style identity verification; the sandbox decides by the client's last name. */
  identityVerification: IdentityVerificationProvider
  /** Kontomatik-style bank data; the sandbox answers by the credentials typed. */
  bankData: BankDataProvider
  /** Credit scoring for the decision engine; the sandbox decides by the client's first name. */
  scoring: ScoringProvider
  /** Sends loan money out; the sandbox decides by the payout account. */
  payout: PayoutProvider
  /** Collects repayments (webhooks, checkout, reconciliation); the sandbox is a gateway inside this process. */
  paymentGateway: PaymentGateway
  /**
   * Hello-soda and the fraud tools' session tokens (ADR 0042). Left out, the sandbox runs, and the adapter counts
   * as sandboxed (the banner, and production's refusal without SANDBOX=1): read it through `fraudSignalsOf`.
   */
  fraudSignals?: FraudSignalsProvider
  /** Where uploaded files are written (DATA_DIR/uploads); created on first use. */
  uploadsDir: string
  /** Behind a reverse proxy: read the caller's address and scheme from X-Forwarded-* (TRUST_PROXY=1). */
  trustProxy?: boolean
}
