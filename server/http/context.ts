import type { Logger } from 'pino'
import type { Database } from '../db/client'

export interface AppDeps {
  database: Database
  logger: Logger
}

export interface AppEnv {
  Variables: {
    deps: AppDeps
    requestId: string
  }
}
