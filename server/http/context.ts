import type { Principal } from '../auth/authenticate'
import type { AppDeps } from '../deps'

export interface AppEnv {
  Variables: {
    deps: AppDeps
    requestId: string
    /** The matched route's pattern (relative to /web), for the request log. */
    route?: string
    /** Set on private routes once the token and its session are checked. */
    principal: Principal
    /** Response headers a route added with setHeader (server/http/envelope.ts). */
    headers?: Record<string, string>
    /** Set-Cookie values a route added with addCookie. */
    cookies?: string[]
  }
}
