/**
 * The app with a few probe routes and no database: the HTTP rules under test (limits, guards, headers) run
 * before any route touches one, and a test that needs no database starts in milliseconds, not seconds.
 */
import * as v from 'valibot'
import { defineContract } from '../../domain/contract/define'
import type { AppDeps } from '../../server/deps'
import { type AppOptions, createApp } from '../../server/http/app'
import { ok } from '../../server/http/envelope'
import { type AnyRoute, implement } from '../../server/http/route'
import { createLogger } from '../../server/logger'

export const probeRoutes: AnyRoute[] = [
  implement(
    defineContract({
      method: 'post',
      path: '/public/echo',
      summary: 'echo',
      tags: ['probe'],
      access: 'public',
      body: v.object({ text: v.optional(v.string()) }),
    }),
    (c, { body }) => ok(c, { length: body.text?.length ?? 0 }),
  ),
  implement(
    defineContract({
      method: 'post',
      path: '/public/big',
      summary: 'a route that declares a larger body',
      tags: ['probe'],
      access: 'public',
      bodyLimit: 256 * 1024,
      body: v.object({ text: v.string() }),
    }),
    (c, { body }) => ok(c, { length: body.text.length }),
  ),
  implement(
    defineContract({
      method: 'post',
      path: '/public/nobody',
      summary: 'a route without a body',
      tags: ['probe'],
      access: 'public',
    }),
    (c) => ok(c, { done: true }),
  ),
  implement(
    defineContract({
      method: 'post',
      path: '/public/upload',
      summary: 'a multipart route',
      tags: ['probe'],
      access: 'public',
      bodyType: 'multipart',
      bodyLimit: 1024 * 1024,
    }),
    async (c) => {
      const form = await c.req.parseBody()
      return ok(c, { fields: Object.keys(form) })
    },
  ),
  implement(
    defineContract({
      method: 'get',
      path: '/public/ping',
      summary: 'ping',
      tags: ['probe'],
      access: 'public',
    }),
    (c) => ok(c, { pong: true }),
  ),
]

export function lightApp(options: { trustProxy?: boolean } & AppOptions = {}) {
  const { trustProxy, ...appOptions } = options
  const deps = { logger: createLogger('silent'), trustProxy } as unknown as AppDeps
  return createApp(deps, { routes: probeRoutes, ...appOptions })
}
