/** Tiny cookie helpers: the app keeps a few small values in cookies with the lifetimes of spec section 9. */
export function readCookie(name: string): string | null {
  // Rendered on the server (src/entry-server.tsx): no cookies there, as for a first visit.
  if (typeof document === 'undefined') return null
  const prefix = `${encodeURIComponent(name)}=`
  for (const part of document.cookie.split('; ')) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length))
  }
  return null
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number) {
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Safari and Firefox
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`
}

export function removeCookie(name: string) {
  // An expiry in the past as well as Max-Age=0: a cookie jar that compares "expires at now + 0" with now
  // (happy-dom in the unit tests, within the same millisecond) would otherwise keep it, empty.
  // biome-ignore lint/suspicious/noDocumentCookie: see writeCookie
  document.cookie = `${encodeURIComponent(name)}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; SameSite=Lax`
}
