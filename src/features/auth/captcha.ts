/**
 * The captcha token sent with sign-up, logins and public code requests (v3 style: no puzzle, a score on the
 * server). The sandbox provider (the default) scores any token as human, except the
 * documented `sandbox-fail` and `sandbox-risky` (README), which QA can make this browser send by setting the
 * local-storage key below. When the server verifies with a real provider, the token comes from that provider's
 * script (captcha-provider.ts); the server's adapter, not this function, decides what passes.
 */
import { providerToken } from './captcha-provider'

export const SANDBOX_CAPTCHA_KEY = 'hiram:captcha-token'

export async function captchaToken(action: string): Promise<string> {
  // A real provider on the server (docs/decisions/0018): its script's token, and no QA override.
  const real = await providerToken(action)
  if (real !== null) return real
  try {
    const forced = localStorage.getItem(SANDBOX_CAPTCHA_KEY)
    if (forced) return forced
  } catch {
    // Storage blocked: the ordinary token below.
  }
  return `sandbox-${action}-${crypto.randomUUID()}`
}
