import { resolve } from 'node:path'

/**
 * Everything the server reads from the environment, in one place. A variable set to the empty string counts as
 * unset: `DATA_DIR=` must not put the database, its lock and the secrets in the working directory.
 */
export function readEnv(env: NodeJS.ProcessEnv = process.env) {
  const value = (name: string, fallback: string) => env[name] || fallback
  return {
    port: Number.parseInt(value('PORT', '3000'), 10),
    host: value('HOST', '0.0.0.0'),
    dataDir: resolve(value('DATA_DIR', './data')),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: value('LOG_LEVEL', 'info'),
    staticDir: resolve(value('STATIC_DIR', './dist')),
  }
}
export type Env = ReturnType<typeof readEnv>
