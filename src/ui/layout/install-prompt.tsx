/**
 * The Android install prompt (issue 22 item 3; spec sections 1 and 9: "Mobile app: Android only, enabled";
 * docs/decisions/0045-installable-app.md). On an Android browser, a small labelled region at the foot of the
 * screen offers the app of the back office's enabled Android entry ("Get the app", a link to the store); with no
 * such entry, where the browser offers installing the site itself (`beforeinstallprompt`), it offers that
 * instead ("Install Hiram"). "Not now" hides it for 30 days, remembered in this browser's localStorage.
 *
 * Never server-rendered and never in the first client render (it appears after mount, so hydration matches),
 * never on a page where the visitor is in the middle of a form (registration, application, sign-in: QUIET_PATHS),
 * never inside the installed site, never once the browser says the app is installed.
 */
import { useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { browserCapabilities } from '../../app/browser-capabilities'
import { useMessages } from '../../i18n/messages'
import { useFootPanel } from './foot-panel'
import { forgetInstallEvent, isAndroid, keptInstallEvent } from './install-offer'
import { useSiteContent } from './site-content'

export { isAndroid }

/** Where "Not now" is remembered (the time it was pressed, in ms since the epoch). */
export const DISMISSED_KEY = 'hiram.install-prompt.dismissed-at'
export const DISMISS_DAYS = 30
const DAY_MS = 86_400_000

/**
 * Pages where a prompt over the foot of the screen would cover the form the visitor is filling in: the
 * registration steps, the application and its flow, the affiliate code entry, sign-in and recovery, the back
 * office and the sandbox tools. A path is quiet when it is one of these or under one.
 */
export const QUIET_PATHS = [
  '/registration',
  '/application',
  '/flow',
  '/affiliate',
  '/login',
  '/recover',
  '/admin',
  '/admin-invitation',
  '/sandbox',
] as const

export const isQuietPath = (pathname: string) =>
  QUIET_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`))

export interface PromptFacts {
  userAgent: string
  pathname: string
  /** The store address of the enabled Android entry, if any. */
  androidUrl: string | undefined
  /** Whether the browser offered installing the site (a kept `beforeinstallprompt`). */
  canInstall: boolean
  /** When "Not now" was last pressed (ms), or null. */
  dismissedAt: number | null
  now: number
  /** Running as the installed site (display-mode standalone). */
  standalone: boolean
  /** The browser reports the related Android app as installed. */
  appInstalled: boolean
}

export type InstallOffer = { kind: 'store'; url: string } | { kind: 'install' } | null

/** What the prompt offers, if anything: the rules of the header, in one pure function. */
export function installOffer(facts: PromptFacts): InstallOffer {
  if (!isAndroid(facts.userAgent) || facts.standalone || isQuietPath(facts.pathname)) return null
  if (facts.dismissedAt !== null && facts.now - facts.dismissedAt < DISMISS_DAYS * DAY_MS) return null
  if (facts.androidUrl) return facts.appInstalled ? null : { kind: 'store', url: facts.androidUrl }
  return facts.canInstall ? { kind: 'install' } : null
}

function readDismissed(): number | null {
  try {
    const value = Number(window.localStorage.getItem(DISMISSED_KEY))
    return Number.isFinite(value) && value > 0 ? value : null
  } catch {
    return null // storage refused (a private window): the prompt may show again, no harm
  }
}

function rememberDismissed(at: number) {
  try {
    window.localStorage.setItem(DISMISSED_KEY, String(at))
  } catch {
    // storage refused: hidden for this page only
  }
}

/** The event Chromium browsers fire when the site can be installed (not in TypeScript's DOM library). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

// The browser's offer, as kept by install-offer.ts since the app started and as it comes from now on.
const subscribers = new Set<() => void>()
const notify = () => {
  for (const subscriber of subscribers) subscriber()
}
function subscribeInstallEvent(subscriber: () => void) {
  // After install-offer.ts's listener, which has already kept the event (on Android only).
  if (subscribers.size === 0) window.addEventListener('beforeinstallprompt', notify)
  subscribers.add(subscriber)
  return () => {
    subscribers.delete(subscriber)
    if (subscribers.size === 0) window.removeEventListener('beforeinstallprompt', notify)
  }
}
const currentInstallEvent = () => keptInstallEvent() as BeforeInstallPromptEvent | null
const noInstallEvent = () => null

/** The kept offer, now spent (an event can prompt once). */
function takeInstallEvent(): BeforeInstallPromptEvent | null {
  const event = currentInstallEvent()
  forgetInstallEvent()
  notify()
  return event
}

/** Whether the related app is installed, where the browser can tell (Chromium on Android, getInstalledRelatedApps). */
async function relatedAppInstalled(): Promise<boolean> {
  if (!browserCapabilities().installedRelatedApps) return false
  const ask = (navigator as Navigator & { getInstalledRelatedApps?: () => Promise<unknown[]> })
    .getInstalledRelatedApps
  if (typeof ask !== 'function') return false
  try {
    return (await ask.call(navigator)).length > 0
  } catch {
    return false
  }
}

/** The class on <html> while the prompt shows: room at the page's end and for focused controls (layout.css). */
const OPEN_CLASS = 'install-prompt-open'

export function InstallPrompt() {
  const m = useMessages().siteContent.installPrompt
  const { apps } = useSiteContent()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const installEvent = useSyncExternalStore(subscribeInstallEvent, currentInstallEvent, noInstallEvent)
  // Read in the browser after mount only: the server and the first client render show nothing.
  const [browser, setBrowser] = useState<{ userAgent: string; standalone: boolean } | null>(null)
  const [dismissedAt, setDismissedAt] = useState<number | null>(null)
  const [appInstalled, setAppInstalled] = useState(false)
  const androidUrl = apps.find((app) => app.platform === 'android')?.url
  const region = useRef<HTMLElement>(null)

  useEffect(() => {
    setDismissedAt(readDismissed())
    setBrowser({
      userAgent: navigator.userAgent,
      standalone: window.matchMedia?.('(display-mode: standalone)').matches ?? false,
    })
  }, [])
  useEffect(() => {
    // Installed (from this prompt or the browser's menu): nothing more to offer, and no prompt for 30 days.
    const onInstalled = () => {
      forgetInstallEvent()
      const now = Date.now()
      rememberDismissed(now)
      setDismissedAt(now)
    }
    window.addEventListener('appinstalled', onInstalled)
    return () => window.removeEventListener('appinstalled', onInstalled)
  }, [])
  useEffect(() => {
    if (!androidUrl) return
    let live = true
    void relatedAppInstalled().then((installed) => live && setAppInstalled(installed))
    return () => {
      live = false
    }
  }, [androidUrl])

  const offer = browser
    ? installOffer({
        ...browser,
        pathname,
        androidUrl,
        canInstall: installEvent !== null,
        dismissedAt,
        now: Date.now(),
        appInstalled,
      })
    : null

  // While shown: the page keeps room below its end for the prompt, and a focused control is scrolled clear of it.
  useFootPanel(region, offer !== null, { openClass: OPEN_CLASS, heightVariable: '--install-prompt-height' })

  if (!offer) return null

  const dismiss = () => {
    const now = Date.now()
    rememberDismissed(now)
    setDismissedAt(now)
  }
  // The link's own click must still open the store: hidden once the click is over, not during it.
  const leaveForStore = () => {
    rememberDismissed(Date.now())
    window.setTimeout(() => setDismissedAt(Date.now()), 0)
  }
  const install = async () => {
    // The event can prompt once: whatever the answer, it is spent, and the prompt rests for 30 days.
    const event = takeInstallEvent()
    if (!event) return
    dismiss()
    try {
      await event.prompt()
    } catch {
      // the browser withdrew the offer: nothing to do
    }
  }

  const store = offer.kind === 'store'
  return (
    <section ref={region} className="install-prompt" aria-label={m.label}>
      <div className="install-prompt__inner">
        <img className="install-prompt__icon" src="/icons/icon-192.png" alt="" width={40} height={40} />
        <div className="install-prompt__text">
          <h2 className="install-prompt__title">{store ? m.storeTitle : m.installTitle}</h2>
          <p>{store ? m.storeText : m.installText}</p>
        </div>
        <div className="install-prompt__actions">
          {store ? (
            // Going to the store counts as an answer: the prompt rests as after "Not now".
            <a
              className="button button--primary"
              href={offer.url}
              target="_blank"
              rel="noopener noreferrer"
              onClick={leaveForStore}
            >
              {m.getApp}
            </a>
          ) : (
            <button type="button" className="button button--primary" onClick={() => void install()}>
              {m.install}
            </button>
          )}
          <button type="button" className="button button--secondary" onClick={dismiss}>
            {m.notNow}
          </button>
        </div>
      </div>
    </section>
  )
}
