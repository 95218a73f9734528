/**
 * The headers that tell a browser what the site may do (issue 13, item 6; docs/decisions/0002). Every answer,
 * API and web app, carries them; the constants are plain strings so the API's header record stays one literal
 * (docs/decisions/0017).
 */
import { createHash } from 'node:crypto'
import type { Context } from 'hono'
import type { AppEnv } from './context'

/**
 * `strict-origin-when-cross-origin` rather than `no-referrer`: other sites learn at most our origin (paths and
 * queries can hold a lead token), and a browser still sends a real `Origin` on our own form posts (under
 * `no-referrer` it sends `Origin: null`, which the cross-site rule in guards.ts would refuse).
 */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin'

/**
 * Camera and geolocation for the site itself (the ID capture and the address step); every other powerful
 * feature off, for us and for anything we might ever embed. Only features browsers know, so the console stays
 * free of "unrecognised feature" noise.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'geolocation=(self)',
  'microphone=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'midi=()',
  'display-capture=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'browsing-topics=()',
].join(', ')

/** A JSON answer opened as a document runs nothing, loads nothing and cannot be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** Two years with subdomains: sent only when the request reached us over TLS (isSecure). */
export const HSTS = 'max-age=63072000; includeSubDomains'

/**
 * Whether the caller's connection was TLS: our own socket, or, behind a trusted proxy (TRUST_PROXY=1), the
 * proxy's `X-Forwarded-Proto`. HSTS over plain HTTP would be ignored at best, and pins localhost at worst.
 */
export function isSecure(c: Context<AppEnv>, trustProxy: boolean | undefined): boolean {
  if (trustProxy) return c.req.raw.headers.get('x-forwarded-proto') === 'https'
  const incoming = (c.env as { incoming?: { socket?: { encrypted?: boolean } } } | undefined)?.incoming
  return Boolean(incoming?.socket?.encrypted)
}

/** Headers every answer of the web app carries besides its own CSP (files, the HTML, its 404 and 400). */
export function documentHeaders(
  c: Context<AppEnv>,
  csp: string,
  trustProxy: boolean | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': REFERRER_POLICY,
    'permissions-policy': PERMISSIONS_POLICY,
    // For browsers that predate frame-ancestors.
    'x-frame-options': 'DENY',
  }
  if (isSecure(c, trustProxy)) headers['strict-transport-security'] = HSTS
  return headers
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** The sha256 source expressions of a page's inline scripts, the only inline code the page's CSP allows. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  // An inline script is a <script> without src; its text is hashed exactly as written between the tags.
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', text = ''] = match
    if (/\bsrc\s*=/i.test(attributes)) continue
    hashes.push(sha256(text))
  }
  return hashes
}

/**
 * The sha256 source expressions of a page's inline styles: its <style> blocks, and the style attributes of
 * markup rendered on the server (docs/decisions/0040). An attribute needs 'unsafe-hashes' beside its hash;
 * `attributes` says whether there were any. Attribute values are hashed as the browser reads them: the few
 * entities React writes are decoded first.
 */
export function inlineStyleHashes(html: string): { hashes: string[]; attributes: boolean } {
  const hashes = new Set<string>()
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi))
    hashes.add(sha256(match[1] ?? ''))
  let attributes = false
  for (const match of html.matchAll(/<[a-z][^>]*?\sstyle="([^"]*)"/gi)) {
    attributes = true
    const value = (match[1] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
    hashes.add(sha256(value))
  }
  return { hashes: [...hashes], attributes }
}

/**
 * Third-party origins a real captcha provider needs in the page (docs/decisions/0018): its script, and the
 * frame it may show. The sandbox needs none.
 */
const captchaOrigins: Record<string, string[]> = {
  recaptcha: ['https://www.google.com', 'https://www.gstatic.com'],
  turnstile: ['https://challenges.cloudflare.com'],
}

/**
 * The web app's policy: its own scripts and styles, inline scripts and styles only by hash, images also as data: and
 * blob: (photo previews of the ID capture), PDFs opened as blob: documents, API calls to ourselves only; a real
 * captcha provider's script and frame when one is configured (`captchaProvider`, the provider's name).
 */
export function spaCsp(html: string, captchaProvider?: string): string {
  const thirdParty = (captchaProvider && captchaOrigins[captchaProvider]) || []
  const scripts = ["'self'", ...inlineScriptHashes(html), ...thirdParty].join(' ')
  const inlineStyles = inlineStyleHashes(html)
  const styles = ["'self'", ...(inlineStyles.attributes ? ["'unsafe-hashes'"] : []), ...inlineStyles.hashes]
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    `style-src ${styles.join(' ')}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...thirdParty].join(' ')}`,
    "media-src 'self' blob:",
    `frame-src ${thirdParty.length ? thirdParty.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}
