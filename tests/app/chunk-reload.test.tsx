// @vitest-environment happy-dom
/**
 * The failed chunk load (src/app/chunk-reload.ts): after a deploy an open tab asks for a chunk that is gone. Vite's
 * `vite:preloadError` (a failed preload) and the router's error page for a failed dynamic import both reload the
 * page once to pick up the new build; the session-storage marker stops a second reload (no loop when the chunk
 * is missing for another reason), and a page that stayed loaded for 10 s clears it so a later deploy reloads again.
 */
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installChunkReload, isChunkLoadError } from '../../src/app/chunk-reload'
import { GenericErrorPage } from '../../src/ui/errors/generic-error-page'
import { Harness } from '../features/application/harness'
import { withCall } from '../support/fake-api'
import { messages } from '../support/messages'

const MARKER = 'hiram.chunk-reload'
let reload: ReturnType<typeof vi.fn<() => void>>

beforeEach(() => {
  sessionStorage.clear()
  reload = vi.fn<() => void>()
  vi.spyOn(window.location, 'reload').mockImplementation(reload)
})

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
  sessionStorage.clear()
})

/** What Vite dispatches on window when a preload of a chunk fails. */
function preloadError() {
  const event = new Event('vite:preloadError', { cancelable: true })
  window.dispatchEvent(event)
  return event
}

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: https://hiram.example/assets/faq-1a2b3c.js')

/** The care e-mail under the page asks for the contacts: none here (it shows its fallback). */
const api = withCall({
  page: async () => ({ items: [] }),
})

function errorPage(error: unknown) {
  return render(
    <Harness api={api}>
      <GenericErrorPage error={error as Error} reset={() => {}} />
    </Harness>,
  )
}

describe('failed chunk load', () => {
  it('tells a missing chunk from other errors', () => {
    expect(isChunkLoadError(chunkError())).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/faq.css'))).toBe(true)
    expect(isChunkLoadError(new Error('boom'))).toBe(false)
    expect(isChunkLoadError(undefined)).toBe(false)
  })

  it('a failed preload reloads the page once; the next failure is left to the error page, not reloaded', () => {
    vi.useFakeTimers()
    installChunkReload()
    const first = preloadError()
    expect(reload).toHaveBeenCalledTimes(1)
    // Handled: Vite does not rethrow it.
    expect(first.defaultPrevented).toBe(true)
    expect(sessionStorage.getItem(MARKER)).not.toBeNull()

    // The reloaded page fails the same way (the chunk is missing for another reason): no loop.
    const second = preloadError()
    const third = preloadError()
    expect(reload).toHaveBeenCalledTimes(1)
    expect([second.defaultPrevented, third.defaultPrevented]).toEqual([false, false])

    // A page that loaded and stayed up 10 s clears the marker: a later deploy reloads again, once.
    window.dispatchEvent(new Event('load'))
    vi.advanceTimersByTime(9_999)
    expect(preloadError().defaultPrevented).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(sessionStorage.getItem(MARKER)).toBeNull()
    expect(preloadError().defaultPrevented).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)
  })

  it('the error page of a failed dynamic import reloads once, and shows the error page without looping', () => {
    errorPage(chunkError())
    expect(reload).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(messages.errors.genericTitle)
    cleanup()

    // After the reload the chunk is still missing: the error page stays, no second reload.
    errorPage(chunkError())
    errorPage(chunkError())
    expect(reload).toHaveBeenCalledTimes(1)
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(2)
  })

  it('any other error on the error page never reloads', () => {
    errorPage(new Error('boom'))
    expect(reload).not.toHaveBeenCalled()
    expect(sessionStorage.getItem(MARKER)).toBeNull()
  })
})
