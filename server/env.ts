import { resolve } from 'node:path'

/** Everything the server reads from the environment, in one place. */
export function readEnv(env: NodeJS.ProcessEnv = process.env) {
  return {
    port: Number.parseInt(env.PORT ?? '3000', 10),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    staticDir: resolve(env.STATIC_DIR ?? './dist'),
  }
}
export type Env = ReturnType<typeof readEnv>
