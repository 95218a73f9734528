/**
 * Serves the built SPA: hashed assets with a long cache, everything else falls back to index.html so client
 * routes survive a reload. Paths under /web never reach here.
 */
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { Hono } from 'hono'
import type { AppEnv } from './context'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
}

export function serveSpa(app: Hono<AppEnv>, root: string) {
  const index = join(root, 'index.html')
  app.get('*', async (c) => {
    const requested = normalize(join(root, decodeURIComponent(c.req.path)))
    if (requested.startsWith(root + sep)) {
      const info = await stat(requested).catch(() => undefined)
      if (info?.isFile()) {
        const immutable = requested.includes(`${sep}assets${sep}`)
        return c.body(await readFile(requested), 200, {
          'content-type': types[extname(requested)] ?? 'application/octet-stream',
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        })
      }
    }
    return c.html(await readFile(index, 'utf8'), 200, { 'cache-control': 'no-cache' })
  })
}
