/**
 * What the browser learns about the deployment (GET /web/public/environment, docs/decisions/0018): whether any
 * adapter is on its sandbox provider (then every page shows the sandbox banner), whether the instance's sandbox
 * mode is on (docs/decisions/0039) and which captcha script to load.
 */
import * as v from 'valibot'

export const ENVIRONMENT_PATH = '/public/environment'

export const environmentSchema = v.object({
  /** True while any adapter is on its sandbox provider: codes, money and checks are not real. */
  sandbox: v.boolean(),
  /**
   * The instance's sandbox mode, switched on by an administrator (domain/contract/sandbox-mode.ts): every visitor
   * is in sandbox mode, as if they held the QA cookie (the sandbox panel, no journey redirects). Never true unless
   * `sandbox` is.
   */
  sandboxMode: v.boolean(),
  /** The sandboxed adapters (captcha, sms, email, identityVerification, bankData, scoring, payout, ...). */
  sandboxed: v.array(v.string()),
  captcha: v.object({
    /** `sandbox`, `recaptcha` or `turnstile`. */
    provider: v.string(),
    /** The public site key for the provider's browser script; null for the sandbox. */
    siteKey: v.nullable(v.string()),
  }),
})
export type Environment = v.InferOutput<typeof environmentSchema>
