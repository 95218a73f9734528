/**
 * Writes `routes.json` beside the built index.html: the path patterns of every page the client router knows,
 * read from the route tree TanStack Router generates from src/routes. The server answers other paths with the
 * 404 page and HTTP 404 (server/http/spa.ts) without importing the web app, and a new page cannot be forgotten:
 * the list is made from the same files the router is.
 */
import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'

export const ROUTES_FILE = 'routes.json'

/**
 * The `fullPaths` union of a generated route tree (`'/repay/ewallets/$slug'`, `'/profile/rollover/{-$id}'`).
 * Empty when the tree has no such union, which the plugin turns into a failed build.
 */
export function clientRoutePaths(routeTreeSource: string): string[] {
  const union = /\bfullPaths:\s*((?:\|?\s*'[^'\n]*'\s*)+)/.exec(routeTreeSource)?.[1]
  if (!union) return []
  return [...new Set([...union.matchAll(/'([^'\n]*)'/g)].map((match) => match[1]!))]
}

export function clientRoutesPlugin(routeTree = 'src/route-tree.gen.ts'): Plugin {
  return {
    name: 'hiram-client-routes',
    apply: 'build',
    // The router plugin regenerates the tree at build start, so by now it is the tree this bundle was made from.
    generateBundle() {
      const paths = clientRoutePaths(readFileSync(routeTree, 'utf8'))
      if (paths.length === 0) this.error(`no fullPaths union in ${routeTree}: cannot list the client routes`)
      this.emitFile({ type: 'asset', fileName: ROUTES_FILE, source: `${JSON.stringify(paths, null, 1)}\n` })
    },
  }
}
