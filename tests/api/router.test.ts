/**
 * The route table runs on Hono's RegExpRouter (one regular expression per method). Hono's default SmartRouter
 * silently falls back to its slower trie when one path is ambiguous to the RegExpRouter: a parameter where
 * another route has a static segment, as the spec's `application/:id/offer/actual` beside
 * `application/actual`. mountRoutes serves those few behind one wildcard route (server/http/route.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../support/app'

describe('the /web route table', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('runs on the RegExpRouter', async () => {
    await t.request('/web/health')
    const router = (t.app as unknown as { router: { activeRouter: { name: string } } }).router
    expect(router.activeRouter.name).toBe('RegExpRouter')
  })

  it('still tells the static paths from the ambiguous parameter routes beside them', async () => {
    // Static: answered by its own route (401: a client token is needed), not read as an application id.
    const actual = await t.json('/web/private/client/application/actual')
    expect(actual.res.status).toBe(401)
    // Parameter: matched behind the wildcard, so its route asks for a client token (unmatched would be 404).
    const offer = await t.json('/web/private/client/application/42/offer/actual')
    expect(offer.res.status).toBe(401)
    const promo = await t.json('/web/private/client/application/42/promocode', { method: 'POST' })
    expect(promo.res.status).toBe(401)
    // Nothing under the prefix: the API's own 404, not the wildcard's.
    const nothing = await t.json('/web/private/client/application/42/nothing-here')
    expect(nothing.res.status).toBe(404)
    expect(nothing.body.response.code).toBe('notFound')
  })
})
