/** The page's CSP lets a real captcha provider's script and frame in, and nothing third-party otherwise. */
import { describe, expect, it } from 'vitest'
import { spaCsp } from '../../server/http/security-headers'

const html = '<html><head><script>window.x=1</script><script src="/assets/a.js"></script></head></html>'
const directive = (csp: string, name: string) =>
  csp
    .split('; ')
    .find((part) => part.startsWith(`${name} `))
    ?.slice(name.length + 1)

describe('spaCsp', () => {
  it('with the sandbox captcha allows only our own origin and the inline script by its hash', () => {
    const csp = spaCsp(html, 'sandbox')
    expect(directive(csp, 'script-src')).toMatch(/^'self' 'sha256-[A-Za-z0-9+/=]+'$/)
    expect(directive(csp, 'frame-src')).toBe("'none'")
    expect(directive(csp, 'connect-src')).toBe("'self'")
    expect(csp).not.toContain('https://')
  })

  it.each([
    ['recaptcha', 'https://www.google.com https://www.gstatic.com'],
    ['turnstile', 'https://challenges.cloudflare.com'],
  ])('with %s allows its script and frame', (provider, origins) => {
    const csp = spaCsp(html, provider)
    expect(directive(csp, 'script-src')).toContain(origins)
    expect(directive(csp, 'frame-src')).toBe(origins)
    expect(directive(csp, 'frame-ancestors')).toBe("'none'")
  })
})
