// @vitest-environment happy-dom
/**
 * The Android install prompt (issue 22 item 3, docs/decisions/0045-installable-app.md): its rules as one pure
 * function (Android only, not on the form pages, not inside the installed site, not for 30 days after "Not now",
 * the store before the browser's own offer), and the component: nothing on the server or in the first render,
 * a labelled region with "Get the app" linking to the back office's enabled Android entry, "Not now" remembered
 * across mounts for 30 days, and, with no Android entry, the browser's `beforeinstallprompt` turned into
 * "Install Hiram" which calls `prompt()`.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SiteContent } from '../../domain/contract/content-public'
import { AppServicesProvider } from '../../src/app/app-context'
import type { AppServices } from '../../src/app/services'
import { MessagesProvider } from '../../src/i18n/messages'
import { forgetInstallEvent } from '../../src/ui/layout/install-offer'
import {
  DISMISS_DAYS,
  DISMISSED_KEY,
  InstallPrompt,
  installOffer,
  type PromptFacts,
} from '../../src/ui/layout/install-prompt'
import { fakeApi } from '../support/fake-api'
import { messages } from '../support/messages'

const routerState = vi.hoisted(() => ({ pathname: '/' }))
vi.mock('@tanstack/react-router', () => ({
  useRouterState: ({ select }: { select: (state: { location: { pathname: string } }) => unknown }) =>
    select({ location: { pathname: routerState.pathname } }),
}))

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const PLAY = 'https://play.google.com/store/apps/details?id=ph.hiram.app'
const DAY = 86_400_000
const t = messages.siteContent.installPrompt

describe('the prompt rules', () => {
  const now = Date.UTC(2026, 10, 28)
  const facts = (over: Partial<PromptFacts> = {}): PromptFacts => ({
    userAgent: ANDROID,
    pathname: '/',
    androidUrl: PLAY,
    canInstall: false,
    dismissedAt: null,
    now,
    standalone: false,
    appInstalled: false,
    ...over,
  })

  it('offers the store on Android when the Android entry is enabled, before the browser offer', () => {
    expect(installOffer(facts())).toEqual({ kind: 'store', url: PLAY })
    expect(installOffer(facts({ canInstall: true }))).toEqual({ kind: 'store', url: PLAY })
  })

  it('offers installing the site where the browser can and no Android entry is enabled; else nothing', () => {
    expect(installOffer(facts({ androidUrl: undefined, canInstall: true }))).toEqual({ kind: 'install' })
    expect(installOffer(facts({ androidUrl: undefined }))).toBeNull()
  })

  it('shows on Android only (spec: "Mobile app: Android only")', () => {
    expect(installOffer(facts({ userAgent: IPHONE }))).toBeNull()
    expect(installOffer(facts({ userAgent: DESKTOP, androidUrl: undefined, canInstall: true }))).toBeNull()
  })

  it('stays away from the form pages, and is fine on the others', () => {
    for (const pathname of [
      '/registration',
      '/registration/employment',
      '/application/offer',
      '/flow',
      '/login',
      '/recover',
      '/affiliate/sleeper-otp',
      '/admin/content',
      '/admin-invitation',
    ])
      expect(installOffer(facts({ pathname })), pathname).toBeNull()
    for (const pathname of ['/', '/faq', '/repay', '/profile', '/registrations-are-open'])
      expect(installOffer(facts({ pathname })), pathname).not.toBeNull()
  })

  it('rests for 30 days after "Not now", then shows again', () => {
    expect(installOffer(facts({ dismissedAt: now - DAY }))).toBeNull()
    expect(installOffer(facts({ dismissedAt: now - (DISMISS_DAYS * DAY - 1) }))).toBeNull()
    expect(installOffer(facts({ dismissedAt: now - DISMISS_DAYS * DAY }))).not.toBeNull()
  })

  it('never shows inside the installed site, nor once the browser says the app is installed', () => {
    expect(installOffer(facts({ standalone: true }))).toBeNull()
    expect(installOffer(facts({ appInstalled: true }))).toBeNull()
  })
})

function tree(apps: SiteContent['apps']) {
  const { api } = fakeApi((call) => {
    if (call.method === 'GET' && call.path === '/public/site-content')
      return { today: '2026-11-28', banners: [], promoItems: [], apps } satisfies SiteContent
    throw new Error(`unexpected ${call.method} ${call.path}`)
  })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const services = { api, queryClient } as unknown as AppServices
  return (
    <MessagesProvider messages={messages}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          <InstallPrompt />
        </QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>
  )
}

function useAgent(userAgent: string) {
  vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(userAgent)
}

/** A `beforeinstallprompt` as Chromium fires it: cancelable, with prompt() and userChoice. */
function offerInstall() {
  const prompt = vi.fn(async () => undefined)
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt,
    userChoice: Promise.resolve({ outcome: 'accepted' as const }),
  })
  act(() => {
    window.dispatchEvent(event)
  })
  return { event, prompt }
}

describe('the install prompt', () => {
  beforeEach(() => {
    routerState.pathname = '/'
    window.localStorage.clear()
  })
  afterEach(() => {
    cleanup()
    vi.restoreAllMocks()
    // A kept browser offer must not leak into the next test.
    forgetInstallEvent()
    window.localStorage.clear()
  })

  it('renders nothing on the server, so hydration never meets it', () => {
    useAgent(ANDROID)
    expect(renderToString(tree([{ platform: 'android', url: PLAY }]))).not.toContain('install-prompt')
  })

  it('links "Get the app" to the enabled Android entry; "Not now" hides it, and it stays hidden for 30 days', async () => {
    useAgent(ANDROID)
    const first = render(tree([{ platform: 'android', url: PLAY }]))
    const region = await screen.findByRole('region', { name: t.label })
    const link = screen.getByRole('link', { name: t.getApp })
    expect(link.getAttribute('href')).toBe(PLAY)
    expect(link.getAttribute('rel')).toContain('noopener')
    expect(region.textContent).toContain(t.storeTitle)
    expect(document.documentElement.classList.contains('install-prompt-open')).toBe(true)

    fireEvent.click(screen.getByRole('button', { name: t.notNow }))
    await waitFor(() => expect(screen.queryByRole('region', { name: t.label })).toBeNull())
    expect(document.documentElement.classList.contains('install-prompt-open')).toBe(false)
    const dismissedAt = Number(window.localStorage.getItem(DISMISSED_KEY))
    expect(Date.now() - dismissedAt).toBeLessThan(60_000)
    first.unmount()

    // Another page load in this browser: still hidden.
    render(tree([{ platform: 'android', url: PLAY }]))
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByRole('region', { name: t.label })).toBeNull()
    cleanup()

    // Thirty days later it asks again.
    window.localStorage.setItem(DISMISSED_KEY, String(Date.now() - DISMISS_DAYS * DAY - 1000))
    render(tree([{ platform: 'android', url: PLAY }]))
    expect(await screen.findByRole('region', { name: t.label })).toBeTruthy()
  })

  it('shows nothing on an iPhone, and nothing on a registration step', async () => {
    useAgent(IPHONE)
    render(tree([{ platform: 'android', url: PLAY }]))
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByRole('region', { name: t.label })).toBeNull()
    cleanup()

    useAgent(ANDROID)
    routerState.pathname = '/registration/address'
    render(tree([{ platform: 'android', url: PLAY }]))
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByRole('region', { name: t.label })).toBeNull()
  })

  it('with no Android entry, turns the browser offer into "Install Hiram", which prompts once', async () => {
    useAgent(ANDROID)
    render(tree([]))
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByRole('region', { name: t.label })).toBeNull()

    const { event, prompt } = offerInstall()
    // The browser's own mini-infobar is held back: only this prompt shows.
    expect(event.defaultPrevented).toBe(true)
    const region = await screen.findByRole('region', { name: t.label })
    expect(region.textContent).toContain(t.installTitle)
    expect(screen.queryByRole('link', { name: t.getApp })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: t.install }))
    await waitFor(() => expect(prompt).toHaveBeenCalledTimes(1))
    await waitFor(() => expect(screen.queryByRole('region', { name: t.label })).toBeNull())
    expect(window.localStorage.getItem(DISMISSED_KEY)).not.toBeNull()
  })

  it('goes once the site or the app is installed, and rests for 30 days', async () => {
    useAgent(ANDROID)
    render(tree([{ platform: 'android', url: PLAY }]))
    await screen.findByRole('region', { name: t.label })
    act(() => {
      window.dispatchEvent(new Event('appinstalled'))
    })
    await waitFor(() => expect(screen.queryByRole('region', { name: t.label })).toBeNull())
    expect(window.localStorage.getItem(DISMISSED_KEY)).not.toBeNull()
  })

  it('leaves the browser offer alone off Android', async () => {
    useAgent(DESKTOP)
    render(tree([]))
    const { event } = offerInstall()
    expect(event.defaultPrevented).toBe(false)
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByRole('region', { name: t.label })).toBeNull()
  })
})
