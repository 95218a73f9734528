/**
 * The Node HTTP server the app runs on, with the limits that belong below Hono (issue 13, item 2;
 * docs/decisions/0002): header size, and how long a client may take to send a request (slowloris: a client
 * that sends its headers or body a byte at a time holds a connection, and enough of them hold the server).
 * Body sizes are bounded per route, in route.ts and body-limit.ts.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'

export interface HttpLimits {
  /** Request line plus headers, bytes; past it Node answers 431. Node's default is 16 KB. */
  maxHeaderSize: number
  /** Time to receive the request line and headers, ms; past it Node answers 408 and closes. */
  headersTimeout: number
  /**
   * Time to receive the whole request, body included, ms. A 10 MB upload over a 1 Mbit/s phone link takes
   * about 80 s; two minutes leaves room for it and none for a client that trickles.
   */
  requestTimeout: number
  /** An idle keep-alive connection is closed after this long, ms (Node's default). */
  keepAliveTimeout: number
  /** How often Node looks for requests past their timeouts, ms: the timeouts are only as fine as this. */
  connectionsCheckingInterval: number
}

export const defaultHttpLimits: HttpLimits = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
}

export interface ListenOptions {
  port: number
  hostname?: string
  limits?: Partial<HttpLimits>
}

/** `serve()` of @hono/node-server with the limits set on the server it creates. */
export function startHttpServer(
  app: { fetch: (request: Request, env: never) => Response | Promise<Response> },
  { port, hostname, limits }: ListenOptions,
  onListening?: (info: AddressInfo) => void,
): Server {
  const { keepAliveTimeout, ...serverOptions } = { ...defaultHttpLimits, ...limits }
  const server = serve(
    {
      fetch: app.fetch as Parameters<typeof serve>[0]['fetch'],
      port,
      hostname,
      serverOptions,
    },
    onListening,
  ) as Server
  // Set on the server object, which every supported Node version reads.
  server.keepAliveTimeout = keepAliveTimeout
  return server
}
