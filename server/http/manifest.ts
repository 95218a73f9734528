/**
 * The web app manifest (issue 22 item 3; spec sections 1, 3 and 9; docs/decisions/0045-installable-app.md), at
 * `/manifest.webmanifest`, linked from index.html. It makes the site installable (name, start page, standalone
 * window, the brand's colours, PNG icons of 192 and 512 pixels plain and maskable, the SVG mark) and, when the
 * back office's Android entry is enabled and is a Google Play address, names that app as the site's related
 * application (`related_applications`), so the browser can tell whether it is installed.
 *
 * Built at request time from the same cached answer the layout reads (server/services/content/site-content.ts):
 * a back-office change shows here on the next request of this process, and within the content TTL elsewhere.
 * Served with a short cache and an ETag; mounted before the SPA's catch-all, so no file and no fallback shadows it.
 */
import { createHash } from 'node:crypto'
import type { Context, Hono } from 'hono'
import type { PublicAppLink } from '../../domain/contract/content-public'
import { errorForLog } from '../db/errors'
import type { AppDeps } from '../deps'
import { siteContent } from '../services/content/site-content'
import type { AppEnv } from './context'
import { API_CSP, documentHeaders } from './security-headers'

export const MANIFEST_PATH = '/manifest.webmanifest'

/** The design's colours (src/ui/styles/tokens.css): --color-primary for the bar, --color-bg for the splash. */
export const THEME_COLOR = '#0b5d4b'
export const BACKGROUND_COLOR = '#fbfcfb'

/** An Android application id (Java package name rules): letters, digits and underscores, two parts or more. */
const PACKAGE_ID = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/

/**
 * The application id of a Google Play store address (`https://play.google.com/store/apps/details?id=…`), or
 * undefined for any other address: only a Play listing can be a `play` related application.
 */
export function playStoreId(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  if (parsed.protocol !== 'https:' || parsed.hostname !== 'play.google.com') return undefined
  if (!parsed.pathname.startsWith('/store/apps/details')) return undefined
  const id = parsed.searchParams.get('id') ?? ''
  return PACKAGE_ID.test(id) && id.length <= 150 ? id : undefined
}

export interface RelatedApplication {
  platform: 'play'
  url: string
  id: string
}

export interface WebManifest {
  id: string
  name: string
  short_name: string
  description: string
  lang: string
  dir: 'ltr'
  start_url: string
  scope: string
  display: 'standalone'
  theme_color: string
  background_color: string
  categories: string[]
  icons: { src: string; sizes: string; type: string; purpose: 'any' | 'maskable' }[]
  related_applications: RelatedApplication[]
  prefer_related_applications: boolean
}

/**
 * The manifest for the enabled installable-app entries (the public site content's `apps`). Only the Android
 * entry can become a related application, and only with a Play address carrying an `id`.
 *
 * `prefer_related_applications` stays false: with true, Chrome stops offering to install the site and offers
 * only the Play app. The site's own prompt (src/ui/layout/install-prompt.tsx) already sends Android visitors to
 * the store, and a visitor who cannot or will not use Play (no account, no room for an app) should still be
 * able to add the site; the related entry still lets the browser and the page know when the app is installed.
 */
export function webManifest(apps: readonly PublicAppLink[]): WebManifest {
  const android = apps.find((app) => app.platform === 'android')
  const id = android && playStoreId(android.url)
  return {
    id: '/',
    name: 'Hiram: fast, fair cash loans',
    short_name: 'Hiram',
    description:
      'Fast, transparent short-term cash loans for Filipinos. SEC-registered lending, clear fees, no hidden charges.',
    lang: 'en',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    categories: ['finance'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
    related_applications: android && id ? [{ platform: 'play', url: android.url, id }] : [],
    prefer_related_applications: false,
  }
}

/** Whether an `If-None-Match` header names this ETag (weak comparison). */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  Boolean(ifNoneMatch) &&
  ifNoneMatch!.split(',').some((tag) => {
    const trimmed = tag.trim().replace(/^W\//, '')
    return trimmed === '*' || trimmed === etag.replace(/^W\//, '')
  })

/**
 * GET /manifest.webmanifest: the manifest as application/manifest+json, cached five minutes then revalidated by
 * ETag (304 while the entry is unchanged). A site-content read that fails still answers a manifest, without the
 * related app and not to be kept: installing the site does not depend on the database.
 */
export function serveManifest(app: Hono<AppEnv>, deps: AppDeps) {
  app.get(MANIFEST_PATH, async (c: Context<AppEnv>) => {
    const apps = await siteApps(deps)
    const body = JSON.stringify(webManifest(apps ?? []))
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    const headers: Record<string, string> = {
      ...documentHeaders(c, API_CSP, deps.trustProxy),
      'content-type': 'application/manifest+json',
      // Without the entries (a failed read), not kept: the next request asks again.
      'cache-control': apps ? 'public, max-age=300' : 'no-cache',
      etag,
    }
    if (matches(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers })
    return new Response(body, { headers })
  })
}

/** The enabled entries, or undefined when they could not be read (then the manifest goes without them). */
async function siteApps(deps: AppDeps): Promise<readonly PublicAppLink[] | undefined> {
  try {
    return (await siteContent(deps)).apps
  } catch (error) {
    deps.logger.warn({ err: errorForLog(error) }, 'manifest without site content')
    return undefined
  }
}
