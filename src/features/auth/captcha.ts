/**
 * The captcha token sent with sign-up, logins and public code requests (v3 style: no puzzle, a score on the
 * server). Only the sandbox provider exists today: the server scores any token as human, except the
 * documented `sandbox-fail` and `sandbox-risky` (README), which QA can make this browser send by setting the
 * local-storage key below. A real provider replaces `captchaToken` with its script's `execute(action)`; the
 * server's adapter, not this function, decides what passes.
 */
export const SANDBOX_CAPTCHA_KEY = 'hiram:captcha-token'

export async function captchaToken(action: string): Promise<string> {
  try {
    const forced = localStorage.getItem(SANDBOX_CAPTCHA_KEY)
    if (forced) return forced
  } catch {
    // Storage blocked: the ordinary token below.
  }
  return `sandbox-${action}-${crypto.randomUUID()}`
}
