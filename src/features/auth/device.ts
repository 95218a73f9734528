/**
 * The device id the server uses to recognise a browser (docs/decisions/0006): a random UUID kept in local
 * storage, sent as `x-device-id`. A login from a device the account has not confirmed asks for a second factor.
 */
export const DEVICE_ID_KEY = 'hiram:device-id'

export function deviceId(): string {
  try {
    const known = localStorage.getItem(DEVICE_ID_KEY)
    if (known && /^[\w-]{8,128}$/.test(known)) return known
    const fresh = crypto.randomUUID()
    localStorage.setItem(DEVICE_ID_KEY, fresh)
    return fresh
  } catch {
    // Storage blocked: a new id each time, so every login from here asks for the second factor.
    return crypto.randomUUID()
  }
}

export const deviceHeaders = () => ({ 'x-device-id': deviceId() })
