/**
 * Issue 21 item 2: the server's HTML for the public pages (server/http/prerender.ts, src/entry-server.tsx,
 * docs/decisions/0040). The app in-process with a stand-in build (index.html and one stylesheet) and the server
 * render from the sources: `/` holds the heading and the calculator's labelled controls at the default offer the
 * API prices, the query cache to hydrate with, the CSS inline, and a CSP that allows each inline block by hash.
 */
import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCalculatorConfig } from '../../domain/calculator-config'
import { CHECK_MS, createPrerenderer, fillTemplate, type ServerBundle } from '../../server/http/prerender'
import { inlineStyleHashes, spaCsp } from '../../server/http/security-headers'
import { displayMoney, formatRepayDate } from '../../src/features/calculator/format'
import { createTestApp } from '../support/app'
import { createStandInBuild, STAND_IN_CSS, STAND_IN_TEMPLATE } from '../support/stand-in-build'

let staticDir: string
let t: Awaited<ReturnType<typeof createTestApp>>

beforeAll(async () => {
  staticDir = createStandInBuild('prerender')
  t = await createTestApp(
    {},
    { staticDir, serverBundle: import('../../src/entry-server') as Promise<ServerBundle> },
  )
})

afterAll(async () => {
  await t.close()
  rmSync(staticDir, { recursive: true, force: true })
})

/** The page once the start-up render is done (before it, index.html is served as without a bundle). */
async function renderedPage(path: string): Promise<{ html: string; res: Response }> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const res = await t.request(path)
    const html = await res.text()
    if (html.includes('id="ssr-state"')) return { html, res }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${path} was never rendered`)
}

/** The id of the control a label names, and the control's tag. */
function labelledControl(html: string, label: string): string {
  const id = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}`).exec(html)?.[1]
  expect(id, `a label "${label}"`).toBeDefined()
  const control = new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0]
  expect(control, `the control labelled "${label}"`).toBeDefined()
  return control!
}

describe('the server-rendered home page', () => {
  // The first render transforms the whole app from its sources: slow on a loaded machine.
  it('holds the h1 and the calculator with labelled controls at the default offer', {
    timeout: 120_000,
  }, async () => {
    const { html, res } = await renderedPage('/')
    expect(res.status).toBe(200)
    expect(html).toMatch(/<h1[^>]*>Cash in minutes, fees you can see<\/h1>/)
    expect(html).toMatch(
      /<section class="calculator[^"]*" aria-labelledby="([^"]+)"><h2 id="\1"[^>]*>Loan calculator</,
    )

    const initial = defaultCalculatorConfig.initialStates.new
    const amount = labelledControl(html, 'Amount')
    expect(amount).toContain('type="range"')
    expect(amount).toContain(`value="${initial.initialAmount}"`)
    const term = labelledControl(html, 'Term')
    expect(term).toContain('type="range"')
    expect(term).toContain(`value="${initial.maxTerm}"`)
    labelledControl(html, 'Promo code')

    // The figures are the API's own offer for that request.
    const { body } = await t.json<{
      principal: { amount: number }
      borrowers_advantage_package_fee: { amount: number }
      endDate: string
    }>(`/web/public/arithmetic/offer/stl/first/${initial.initialAmount}/${initial.maxTerm}?optionalFee=true`)
    const stat = (name: string) =>
      new RegExp(`data-stat="${name}"><dt>[^<]*</dt><dd><span class="calculator__value">([^<]+)<`).exec(
        html,
      )?.[1]
    expect(stat('principal')).toBe(displayMoney(body.data.principal.amount))
    expect(stat('repay-date')).toBe(formatRepayDate(body.data.endDate))
    expect(stat('package-fee')).toBe(displayMoney(body.data.borrowers_advantage_package_fee.amount))
  })

  it('comes with its CSS inline, the query cache, and a CSP that allows exactly its inline blocks', async () => {
    const { html, res } = await renderedPage('/')
    expect(html).toContain(`<style>${STAND_IN_CSS}</style>`)
    expect(html).not.toContain('rel="stylesheet"')
    const state = /<script type="application\/json" id="ssr-state">([\s\S]*?)<\/script>/.exec(html)?.[1]
    const keys = (JSON.parse(state!) as [unknown[], unknown][]).map(([key]) => key)
    expect(keys).toContainEqual(['public', 'calculator', 'config'])
    expect(keys).toContainEqual(['public', 'site-content'])
    // The deployment's answer, so the sandbox banner is in the HTML rather than pushing the page down later.
    expect(keys).toContainEqual(['public', 'environment'])
    expect(html).toMatch(
      /<section class="sandbox-banner" aria-label="[^"]+"><p class="sandbox-banner__text">/,
    )
    expect(res.headers.get('content-security-policy')).toBe(spaCsp(html))
    const styleSrc = res.headers
      .get('content-security-policy')!
      .split('; ')
      .find((d) => d.startsWith('style-src'))
    for (const hash of inlineStyleHashes(html).hashes) expect(styleSrc).toContain(hash)
  })

  it('renders the content pages, and leaves the pages of a session to the browser', async () => {
    for (const path of ['/about', '/faq', '/how-to-apply', '/repay', '/documents', '/contact']) {
      const { html } = await renderedPage(path)
      expect(html, path).toMatch(/<h1[^>]*>[^<]+/)
    }
    // The FAQ's later questions come with the page's own texts (the content bundle), rendered all the same.
    expect((await renderedPage('/faq')).html).toContain('Are there hidden fees?')
    const login = await (await t.request('/login')).text()
    expect(login).toContain('<div id="root"></div>')
  })
})

describe('fillTemplate', () => {
  it('escapes the title and keeps the JSON of the cache from closing its script', async () => {
    const html = await fillTemplate(STAND_IN_TEMPLATE, staticDir, {
      html: '<p>x</p>',
      title: 'A <b> & "c"',
      state: JSON.stringify({ text: '</script><script>alert(1)</script>' }),
    })
    expect(html).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>')
    expect(html).not.toContain('</script><script>alert(1)')
    const state = /id="ssr-state">([\s\S]*?)<\/script>/.exec(html)?.[1]
    expect(JSON.parse(state!)).toEqual({ text: '</script><script>alert(1)</script>' })
  })
})

describe('inlineStyleHashes', () => {
  it("hashes style blocks and style attributes, the attributes with 'unsafe-hashes'", () => {
    const plain = spaCsp('<html><head></head></html>')
    expect(plain).toContain("style-src 'self';")
    const csp = spaCsp('<style>a{}</style><input style="--fill:50%">')
    expect(csp).toMatch(/style-src 'self' 'unsafe-hashes' 'sha256-[^']+' 'sha256-[^']+';/)
    // An attribute is hashed as the browser reads it: entities decoded.
    const expected = `'sha256-${createHash('sha256').update('a:"b"').digest('base64')}'`
    expect(inlineStyleHashes('<i style="a:&quot;b&quot;">').hashes).toEqual([expected])
  })
})

describe('createPrerenderer', () => {
  /** A bundle that renders one page and counts its renders, with the Manila date it was given. */
  function countingBundle(fail = false) {
    const renders: string[] = []
    const bundle: ServerBundle = {
      publicPaths: () => ['/'],
      defaultOfferRequest: () => null,
      render: async (url, data) => {
        if (fail) throw new Error('render failed')
        renders.push(data.siteContent.today)
        return { html: `<p>${url}</p>`, title: 'Home', state: '[]', status: 200 }
      },
    }
    return { bundle, renders }
  }

  it('renders again when the Manila date changes, and the request waits for it', async () => {
    const { bundle, renders } = countingBundle()
    const start = Date.parse('2026-11-28T10:00:00Z')
    t.setClock(() => new Date(start))
    try {
      const prerender = createPrerenderer(t.deps, { staticDir, bundle: Promise.resolve(bundle) })
      await prerender.ready
      expect(await prerender.page('/')).toContain('<div id="root"><p>/</p></div>')
      expect(await prerender.page('/login')).toBeUndefined()
      expect(renders).toEqual(['2026-11-28'])
      // Past midnight in Manila (16:00 UTC), once the next look is due: today's page, rendered for this request.
      t.setClock(() => new Date(start + 8 * 60 * 60 * 1000))
      await new Promise((resolve) => setTimeout(resolve, CHECK_MS + 50))
      await prerender.page('/')
      expect(renders).toEqual(['2026-11-28', '2026-11-29'])
    } finally {
      t.setClock(() => new Date())
    }
  })

  it('serves no page at all when the render fails', async () => {
    const { bundle } = countingBundle(true)
    const prerender = createPrerenderer(t.deps, { staticDir, bundle: Promise.resolve(bundle) })
    await prerender.ready
    expect(await prerender.page('/')).toBeUndefined()
    expect(t.logs().some((line) => line.event === 'prerender.failed')).toBe(true)
  })
})
