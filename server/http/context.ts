import type { Logger } from 'pino'
import type { Principal } from '../auth/authenticate'
import type { Secrets } from '../auth/secrets'
import type { Database } from '../db/client'

export interface AppDeps {
  database: Database
  logger: Logger
  secrets: Secrets
  /** The clock every service reads, so tests can move time. */
  now: () => Date
}

export interface AppEnv {
  Variables: {
    deps: AppDeps
    requestId: string
    /** Set on private routes once the token and its session are checked. */
    principal: Principal
  }
}
