/**
 * What the browser learns about the deployment (GET /web/public/environment, docs/decisions/0018): whether any
 * adapter is on its sandbox provider (then every page shows the sandbox banner) and which captcha script to load.
 */
import * as v from 'valibot'

export const ENVIRONMENT_PATH = '/public/environment'

export const environmentSchema = v.object({
  /** True while any adapter is on its sandbox provider: codes, money and checks are not real. */
  sandbox: v.boolean(),
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
