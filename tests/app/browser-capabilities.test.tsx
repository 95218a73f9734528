// @vitest-environment happy-dom
/**
 * The browser capability cache (spec section 9: "Browser capability cache 1440 minutes"; ADR 0049): a detection
 * is kept in localStorage with its time and user agent and reused for 1440 minutes; it is made again once stale,
 * when the kept value is not JSON or not the expected shape, when the user agent changed, and on every call
 * where storage throws, which never reaches the caller.
 */
import { cleanup, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  BROWSER_CAPABILITY_CACHE_MINUTES,
  type BrowserCapabilities,
  freshCapabilities,
} from '../../domain/browser-capabilities'
import {
  BROWSER_CAPABILITIES_KEY,
  browserCapabilities,
  detectBrowserCapabilities,
} from '../../src/app/browser-capabilities'
import { PhotoUpload } from '../../src/features/registration/photo-upload'
import { ShareLocation } from '../../src/features/registration/share-location'
import { renderWithApp, scriptedApi } from '../features/registration/harness'

const MINUTE = 60_000
const START = Date.parse('2026-11-28T02:00:00Z')
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0.0.0 Mobile Safari/537.36'
const PHONE_UPDATED = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/132.0.0.0 Mobile Safari/537.36'
const FOUND: BrowserCapabilities = { geolocation: true, cameraCapture: true, installedRelatedApps: false }

function harness(userAgent = PHONE) {
  const clock = { now: START }
  const detect = vi.fn(() => ({ ...FOUND }))
  const read = (options: { userAgent?: string } = {}) =>
    browserCapabilities({ now: () => clock.now, userAgent, detect, ...options })
  return { clock, detect, read }
}

beforeEach(() => window.localStorage.clear())
afterEach(() => window.localStorage.clear())

describe('browser capability cache', () => {
  it('is 1440 minutes, as the spec says', () => {
    expect(BROWSER_CAPABILITY_CACHE_MINUTES).toBe(1440)
  })

  it('detects once and keeps the answer with its time and user agent', () => {
    const { detect, read } = harness()
    expect(read()).toEqual(FOUND)
    expect(detect).toHaveBeenCalledTimes(1)
    expect(JSON.parse(window.localStorage.getItem(BROWSER_CAPABILITIES_KEY) ?? '')).toEqual({
      detectedAt: START,
      userAgent: PHONE,
      capabilities: FOUND,
    })
  })

  it('reuses the kept detection within 1440 minutes without asking the browser again', () => {
    const { clock, detect, read } = harness()
    read()
    clock.now = START + 1440 * MINUTE - 1
    expect(read()).toEqual(FOUND)
    expect(detect).toHaveBeenCalledTimes(1)
  })

  it('detects again once 1440 minutes have passed, and keeps the new time', () => {
    const { clock, detect, read } = harness()
    read()
    clock.now = START + 1440 * MINUTE
    detect.mockReturnValue({ ...FOUND, installedRelatedApps: true })
    expect(read().installedRelatedApps).toBe(true)
    expect(detect).toHaveBeenCalledTimes(2)
    const kept = JSON.parse(window.localStorage.getItem(BROWSER_CAPABILITIES_KEY) ?? '')
    expect(kept.detectedAt).toBe(START + 1440 * MINUTE)
    clock.now += 1000 * MINUTE
    read()
    expect(detect).toHaveBeenCalledTimes(2)
  })

  it('detects again when the kept detection is dated in the future (the clock was put back)', () => {
    const { clock, detect, read } = harness()
    read()
    clock.now = START - MINUTE
    read()
    expect(detect).toHaveBeenCalledTimes(2)
  })

  it.each([
    ['not JSON', '{"detectedAt":'],
    ['JSON null', 'null'],
    ['a capability missing', JSON.stringify({ detectedAt: START, userAgent: PHONE, capabilities: {} })],
    [
      'a capability not a boolean',
      JSON.stringify({ detectedAt: START, userAgent: PHONE, capabilities: { ...FOUND, geolocation: 'yes' } }),
    ],
    ['a negative time', JSON.stringify({ detectedAt: -1, userAgent: PHONE, capabilities: FOUND })],
  ])('detects again and overwrites an invalid stored value (%s)', (_, stored) => {
    window.localStorage.setItem(BROWSER_CAPABILITIES_KEY, stored)
    const { detect, read } = harness()
    expect(read()).toEqual(FOUND)
    expect(detect).toHaveBeenCalledTimes(1)
    expect(freshCapabilities(window.localStorage.getItem(BROWSER_CAPABILITIES_KEY), START, PHONE)).toEqual(
      FOUND,
    )
  })

  it('never hands on a permission, even one written into the kept value', () => {
    const record = {
      detectedAt: START,
      userAgent: PHONE,
      capabilities: { ...FOUND, geolocationGranted: true },
    }
    window.localStorage.setItem(BROWSER_CAPABILITIES_KEY, JSON.stringify(record))
    const { detect, read } = harness()
    expect(read()).toEqual(FOUND)
    expect(detect).not.toHaveBeenCalled()
  })

  it('detects again when the user agent changed (an updated browser may do more)', () => {
    const { detect, read } = harness()
    read()
    read({ userAgent: PHONE_UPDATED })
    expect(detect).toHaveBeenCalledTimes(2)
    expect(JSON.parse(window.localStorage.getItem(BROWSER_CAPABILITIES_KEY) ?? '').userAgent).toBe(
      PHONE_UPDATED,
    )
    read({ userAgent: PHONE_UPDATED })
    expect(detect).toHaveBeenCalledTimes(2)
  })

  it('detects on every call, and never throws, when storage throws', () => {
    const { detect } = harness()
    const refused = (): Storage => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    }
    const throwing = {
      getItem: refused,
      setItem: refused,
    } as unknown as Storage
    const options = { now: () => START, userAgent: PHONE, detect }
    expect(browserCapabilities({ ...options, storage: refused })).toEqual(FOUND)
    expect(browserCapabilities({ ...options, storage: () => throwing })).toEqual(FOUND)
    expect(browserCapabilities({ ...options, storage: () => undefined })).toEqual(FOUND)
    expect(browserCapabilities({ ...options, storage: refused })).toEqual(FOUND)
    expect(detect).toHaveBeenCalledTimes(4)
  })

  it('detects every time when only writing throws (a full quota)', () => {
    const { detect } = harness()
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError')
      },
    } as unknown as Storage
    const options = { now: () => START, userAgent: PHONE, detect, storage: () => full }
    expect(browserCapabilities(options)).toEqual(FOUND)
    expect(browserCapabilities(options)).toEqual(FOUND)
    expect(detect).toHaveBeenCalledTimes(2)
  })
})

describe('detectBrowserCapabilities', () => {
  afterEach(() => {
    Reflect.deleteProperty(HTMLInputElement.prototype, 'capture')
    Reflect.deleteProperty(navigator, 'getInstalledRelatedApps')
  })

  it('reads whether the APIs exist, never a permission', () => {
    expect(detectBrowserCapabilities()).toEqual({
      geolocation: 'geolocation' in navigator,
      cameraCapture: false,
      installedRelatedApps: false,
    })
    Object.defineProperty(HTMLInputElement.prototype, 'capture', {
      value: '',
      configurable: true,
      writable: true,
    })
    Object.defineProperty(navigator, 'getInstalledRelatedApps', { value: async () => [], configurable: true })
    expect(detectBrowserCapabilities()).toMatchObject({ cameraCapture: true, installedRelatedApps: true })
  })

  it('is used by default: the real detection, kept in localStorage', () => {
    const first = browserCapabilities()
    expect(first).toEqual(detectBrowserCapabilities())
    const kept = JSON.parse(window.localStorage.getItem(BROWSER_CAPABILITIES_KEY) ?? '')
    expect(kept.userAgent).toBe(navigator.userAgent)
    expect(Math.abs(kept.detectedAt - Date.now())).toBeLessThan(5_000)
  })
})

describe('the registration steps read the kept detection instead of the browser', () => {
  afterEach(cleanup)

  function keep(capabilities: BrowserCapabilities) {
    const record = { detectedAt: Date.now() - 60 * MINUTE, userAgent: navigator.userAgent, capabilities }
    window.localStorage.setItem(BROWSER_CAPABILITIES_KEY, JSON.stringify(record))
  }
  const photo = () => (
    <PhotoUpload
      side="front"
      config={{ maxImageAge: 30, maxAttempts: 0, maxFileSize: 1000 }}
      state={{ uploaded: false, preview: null }}
      onChange={() => {}}
      error={null}
      onError={() => {}}
    />
  )

  it('the documents step opens the camera where the kept detection says the browser can capture', () => {
    // happy-dom has no `capture` on file inputs: only the kept answer can say yes.
    keep({ geolocation: true, cameraCapture: true, installedRelatedApps: false })
    renderWithApp(scriptedApi({}).api, photo())
    expect(screen.getByLabelText(/front of the id/i).getAttribute('capture')).toBe('environment')
  })

  it('the address step leaves out "Share my location" where the kept detection found no Geolocation API', () => {
    keep({ geolocation: false, cameraCapture: false, installedRelatedApps: false })
    renderWithApp(scriptedApi({}).api, <ShareLocation />)
    expect(screen.queryByRole('button', { name: /share my location/i })).toBeNull()
    cleanup()
    window.localStorage.removeItem(BROWSER_CAPABILITIES_KEY)
    renderWithApp(scriptedApi({}).api, <ShareLocation />)
    expect(screen.getByRole('button', { name: /share my location/i })).toBeTruthy()
  })
})
