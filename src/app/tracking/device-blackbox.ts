/**
 * The device blackbox (`iovation.ioBB`, spec sections 3 and 7) collected by the fraud provider's browser script.
 * Which collector runs follows the provider the server named in its fraud-session answer
 * (POST /private/client/affiliates/session): the sandbox's is deterministic, `sbx1.` plus 48 hex characters of a
 * SHA-256 of the device id, so the same browser always gives the same blackbox and tests can predict it. A
 * provider this app has no collector for is an error, never an empty string sent as if collected.
 */
export interface DeviceBlackboxCollector {
  readonly name: string
  collect(deviceId: string): Promise<string>
}

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('')

export const sandboxBlackbox: DeviceBlackboxCollector = {
  name: 'sandbox',
  async collect(deviceId) {
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(`iovation-sandbox|${deviceId}`),
    )
    return `sbx1.${hex(digest).slice(0, 48)}`
  },
}

const collectors: Record<string, DeviceBlackboxCollector> = { sandbox: sandboxBlackbox }

export function blackboxCollectorFor(provider: string): DeviceBlackboxCollector {
  const collector = collectors[provider]
  if (!collector) throw new Error(`No device blackbox collector for the fraud provider "${provider}".`)
  return collector
}
