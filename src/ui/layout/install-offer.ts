/**
 * The browser's offer to install the site (`beforeinstallprompt`), kept from the moment the app starts: Chromium
 * may fire it before the page has loaded, and the install prompt itself (install-prompt.tsx, ADR 0045) is loaded
 * only after the load event, off the home page's critical path. This is the small part the layout imports at
 * once: it only listens and keeps the event; the prompt reads it, and listens itself from then on.
 *
 * On Android the browser's own mini-infobar is held back (preventDefault) so that only the site's prompt shows;
 * elsewhere the browser offers installing in its own way and the event is left alone.
 */

export const isAndroid = (userAgent: string) => /\bAndroid\b/i.test(userAgent)

let kept: Event | null = null

/** The offer kept so far (Android only), or null. */
export const keptInstallEvent = () => kept

/** Forgets the kept offer (it was used, which spends it, or the site was installed). */
export const forgetInstallEvent = () => {
  kept = null
}

if (typeof window !== 'undefined')
  window.addEventListener('beforeinstallprompt', (event) => {
    if (!isAndroid(navigator.userAgent)) return
    event.preventDefault()
    kept = event
  })
