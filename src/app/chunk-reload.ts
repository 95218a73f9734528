/**
 * After a deploy, an open tab may ask for a chunk that no longer exists. Reload once to pick up the new build;
 * the marker stops a reload loop when the chunk is missing for another reason.
 */
const MARKER = 'hiram.chunk-reload'

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error)
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  )
}

export function reloadForChunkError(): boolean {
  if (sessionStorage.getItem(MARKER)) return false
  sessionStorage.setItem(MARKER, String(Date.now()))
  location.reload()
  return true
}

export function installChunkReload() {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunkError()) event.preventDefault()
  })
  // A page that loaded fine clears the marker, so a later deploy can reload again.
  window.addEventListener('load', () => setTimeout(() => sessionStorage.removeItem(MARKER), 10_000))
}
