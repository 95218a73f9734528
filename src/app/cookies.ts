/** Tiny cookie helpers: the app keeps a few small values in cookies with the lifetimes of spec section 9. */
export function readCookie(name: string): string | null {
  // Rendered on the server (src/entry-server.tsx): the cookies of the request a session's page is rendered for
  // (docs/decisions/0052), none for the public pages, as for a first visit.
  if (typeof document === 'undefined') {
    const header = serverCookies?.()
    return header ? cookieIn(header, name) : null
  }
  return cookieIn(document.cookie, name)
}

let serverCookies: (() => string | undefined) | undefined

/**
 * Where `readCookie` finds the cookies when there is no document: the server's render of a session's page gives
 * the `Cookie` header of the request it is rendering (src/entry-server.tsx keeps one per render), so the page reads
 * what the browser that hydrates it will read.
 */
export function readServerCookiesFrom(source: () => string | undefined): void {
  serverCookies = source
}

/** A cookie's value in a `Cookie` header (or `document.cookie`); null when absent or badly escaped. */
export function cookieIn(header: string, name: string): string | null {
  const prefix = `${encodeURIComponent(name)}=`
  for (const part of header.split(/;\s*/)) {
    if (!part.startsWith(prefix)) continue
    try {
      return decodeURIComponent(part.slice(prefix.length))
    } catch {
      return null
    }
  }
  return null
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number) {
  // The server's render of a session's page (ADR 0052) has no cookie jar: the browser writes its own.
  if (typeof document === 'undefined') return
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Safari and Firefox
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`
}

export function removeCookie(name: string) {
  if (typeof document === 'undefined') return
  // An expiry in the past as well as Max-Age=0: a cookie jar that compares "expires at now + 0" with now
  // (happy-dom in the unit tests, within the same millisecond) would otherwise keep it, empty.
  // biome-ignore lint/suspicious/noDocumentCookie: see writeCookie
  document.cookie = `${encodeURIComponent(name)}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; SameSite=Lax`
}
