/**
 * Issue 21 (the logged-in pages' first paint), docs/decisions/0052: a request that carries a client's session
 * gets its page rendered by the server for that session, from the same app, asking the server's own API in
 * process. The app in-process with a stand-in build and the server render from the sources (as
 * tests/web/prerender.test.ts): My loan and a registration step come with the client's own data and the device-data
 * consent notice, marked for the session and inert until hydrated, never cached; a request without a session, with
 * a bad one, or one the journey sends elsewhere gets the app's shell as before; two sessions never see each
 * other's page; and the logs carry ids, never the client's personal values.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SSR_STATE_ID } from '../../domain/page-shell'
import {
  createPrerenderer,
  MAX_SESSION_RENDERS,
  type ServerBundle,
  type SessionRequest,
} from '../../server/http/prerender'
import { spaCsp } from '../../server/http/security-headers'
import { seedSmallPsgc } from '../api/journey-helpers'
import { createTestApp } from '../support/app'
import { createStandInBuild } from '../support/stand-in-build'

let staticDir: string
let t: Awaited<ReturnType<typeof createTestApp>>

beforeAll(async () => {
  staticDir = createStandInBuild('session-render')
  t = await createTestApp(
    {},
    {
      staticDir,
      serverBundle: import('../../src/entry-server') as Promise<ServerBundle>,
      // Rendered from the sources, transformed on first use: far slower than the built bundle's deadline.
      sessionRenderMs: 60_000,
    },
  )
  await seedSmallPsgc(t as never)
}, 120_000)

afterAll(async () => {
  await t.close()
  rmSync(staticDir, { recursive: true, force: true })
})

interface Scenario {
  token: string
  clientId: number
  loanNumber?: string
  login: { phone: string; email: string }
}

let caller = 0
/** A fresh client in a sandbox scenario's state, and its session token; each from an address of its own. */
async function scenario(name: string): Promise<Scenario> {
  const res = await t.request(`/web/public/sandbox/scenarios/${name}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: 'qa-disable-flow=1',
      'x-forwarded-for': `10.21.0.${++caller}`,
    },
    body: '{}',
  })
  expect(res.status, await res.clone().text()).toBe(201)
  const { data } = (await res.json()) as {
    data: { clientId: number; login: { phone: string; email: string }; loanId?: number }
  }
  const token = res.headers.get('authorization')!.replace(/^Bearer\s+/i, '')
  return { token, clientId: data.clientId, login: data.login }
}

/** The page at a path as a browser with this cookie asks for it. */
async function page(path: string, cookie?: string) {
  const res = await t.request(path, {
    headers: { 'x-forwarded-for': '10.21.1.1', 'accept-encoding': 'identity', ...(cookie ? { cookie } : {}) },
  })
  return { res, html: await res.text() }
}

const stateOf = (html: string) => {
  const json = new RegExp(
    `<script type="application/json" id="${SSR_STATE_ID}" data-for="session">([^<]*)</script>`,
  ).exec(html)?.[1]
  return json === undefined ? undefined : (JSON.parse(json) as [unknown[], unknown][])
}

describe('pages rendered for the session', () => {
  let active: Scenario
  let details: Scenario

  beforeAll(async () => {
    active = await scenario('loan-active')
    details = await scenario('journey-details')
  }, 120_000)

  it('My loan: the client own loan, the consent notice, marked for the session, inert, never cached', {
    timeout: 120_000,
  }, async () => {
    const { res, html } = await page('/profile/my-loan', `auth.token=${active.token}`)
    expect(res.status).toBe(200)
    expect(html).toContain('<div id="root" inert>')
    expect(html).toMatch(/<h1[^>]*>My loan<\/h1>/)
    const state = stateOf(html)
    expect(state, 'the query cache for the session').toBeDefined()
    const loan = state!.find(([key]) => key[0] === 'loan' && key[1] === 'active')?.[1] as
      | { loanNumber: string; paymentReference: string }
      | undefined
    expect(loan).toBeDefined()
    // What the page shows is the cache it hydrates with: the loan number and payment reference in both.
    expect(html).toContain(`<dd>${loan!.loanNumber}</dd>`)
    expect(html).toContain(`<dd>${loan!.paymentReference}</dd>`)
    // The device-data consent notice is part of the first paint (not a late arrival that becomes the LCP).
    expect(html).toMatch(/class="consent-notice"/)
    expect(html).toContain('May we use your device and usage data')
    // The client's own data: never kept by a cache, and a different answer for another cookie.
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(res.headers.get('vary')).toMatch(/Cookie/)
    expect(res.headers.get('etag')).toBeNull()
    expect(res.headers.get('content-security-policy')).toBe(spaCsp(html))
  })

  it('a registration step: the step form, the progress, for the client at that step', {
    timeout: 120_000,
  }, async () => {
    const { res, html } = await page('/registration/details', `auth.token=${details.token}`)
    expect(res.status).toBe(200)
    expect(html).toContain('data-for="session"')
    expect(html).toMatch(/<h1[^>]*>Your personal details<\/h1>/)
    expect(html).toMatch(/<label class="field__label" for="[^"]+">First name<\/label>/)
    expect(html).toContain('aria-label="Registration progress"')
  })

  it('two sessions at once: each gets its own page', { timeout: 120_000 }, async () => {
    const other = await scenario('loan-active')
    const [mine, theirs] = await Promise.all([
      page('/profile/my-loan', `auth.token=${active.token}`),
      page('/profile/my-loan', `auth.token=${other.token}`),
    ])
    const number = (html: string) =>
      (stateOf(html)!.find(([key]) => key[0] === 'loan' && key[1] === 'active')![1] as { loanNumber: string })
        .loanNumber
    expect(number(mine.html)).not.toBe(number(theirs.html))
    expect(mine.html).toContain(`<dd>${number(mine.html)}</dd>`)
    expect(mine.html).not.toContain(`<dd>${number(theirs.html)}</dd>`)
    // The device-data consent is asked per client: each page holds its own client's.
    const consentOf = (html: string) =>
      stateOf(html)!.find(([key]) => key[0] === 'tracking' && key[1] === 'consent')?.[0][2]
    expect(consentOf(mine.html)).toBe(String(active.clientId))
    expect(consentOf(theirs.html)).toBe(String(other.clientId))
  })

  it('left to the browser: no session, a bad or unknown token, a page the journey sends the client away from', {
    timeout: 120_000,
  }, async () => {
    const shell = (html: string) => {
      expect(html).not.toContain('data-for="session"')
      expect(html).not.toContain(' inert>')
    }
    shell((await page('/profile/my-loan')).html)
    shell((await page('/profile/my-loan', 'auth.token=not-a-token')).html)
    shell((await page('/profile/my-loan', `auth.token=${active.token.slice(0, -4)}AAAA`)).html)
    // The client at the details step has no loan: the journey sends them to their step, so the browser does.
    const away = await page('/profile/my-loan', `auth.token=${details.token}`)
    expect(away.res.status).toBe(200)
    shell(away.html)
    // The client on a loan asking for a registration step: the same.
    shell((await page('/registration/details', `auth.token=${active.token}`)).html)
  })

  it('logs the renders with ids and timings, never the client personal values', async () => {
    await page('/profile/my-loan', `auth.token=${active.token}`)
    const renders = t.logs().filter((line) => line.event === 'prerender.session')
    expect(renders.some((line) => line.rendered === true && typeof line.ms === 'number')).toBe(true)
    expect(renders.some((line) => line.rendered === false)).toBe(true)
    const raw = t.rawLogs()
    for (const value of [active.login.phone, active.login.email, details.login.email, active.token])
      expect(raw).not.toContain(value)
  })
})

describe('the server does not wait long, nor render too many at once', () => {
  /** A bundle whose session renders wait on `gate` (or on being told to stop), as a slow server would. */
  function slowBundle() {
    let open: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    const signals: AbortSignal[] = []
    const bundle: ServerBundle = {
      publicPaths: () => [],
      defaultOfferRequest: () => null,
      render: async () => ({ html: '', title: '', state: '[]', status: 200 }),
      renderSession: async (url, input) => {
        signals.push(input.signal!)
        await Promise.race([
          gate,
          new Promise((resolve) => input.signal!.addEventListener('abort', resolve, { once: true })),
        ])
        return { html: `<p>${url}</p>`, title: 'My loan', state: '[]', status: 200 }
      },
    }
    return { bundle, signals, open: () => open() }
  }

  const request = (requestId: string): SessionRequest => ({
    token: 'a.b.c',
    cookies: '',
    fetch: () => Promise.reject(new Error('not asked')),
    requestId,
  })

  it('past its deadline the page is left to the browser, and the render is told to stop', async () => {
    const { bundle, signals } = slowBundle()
    const prerender = createPrerenderer(t.deps, {
      staticDir,
      bundle: Promise.resolve(bundle),
      sessionRenderMs: 100,
    })
    expect(await prerender.sessionPage('/profile/my-loan', request('late-1'))).toBeUndefined()
    expect(signals).toHaveLength(1)
    expect(signals[0]!.aborted).toBe(true)
    // The render that finished after the deadline is logged as late, and never sent.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const line = t.logs().find((entry) => entry.requestId === 'late-1' && entry.event === 'prerender.session')
    expect(line).toMatchObject({ rendered: false, late: true })
  })

  it(`at most ${MAX_SESSION_RENDERS} at once: the next request gets the shell at once`, async () => {
    const { bundle, signals, open } = slowBundle()
    const prerender = createPrerenderer(t.deps, {
      staticDir,
      bundle: Promise.resolve(bundle),
      sessionRenderMs: 30_000,
    })
    const rendering = Array.from({ length: MAX_SESSION_RENDERS }, (_, i) =>
      prerender.sessionPage('/profile/my-loan', request(`busy-${i}`)),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(signals).toHaveLength(MAX_SESSION_RENDERS)
    expect(await prerender.sessionPage('/profile/my-loan', request('busy-extra'))).toBeUndefined()
    expect(signals).toHaveLength(MAX_SESSION_RENDERS)
    expect(
      t.logs().some((entry) => entry.requestId === 'busy-extra' && entry.event === 'prerender.session_busy'),
    ).toBe(true)
    open()
    const pages = await Promise.all(rendering)
    for (const page of pages) expect(page).toContain('<div id="root" inert><p>/profile/my-loan</p></div>')
    // Once they are done, the next one renders again.
    expect(await prerender.sessionPage('/profile/my-loan', request('busy-after'))).toContain(
      '<p>/profile/my-loan</p>',
    )
  })
})
