/**
 * The server's environment: an empty variable is an unset one (DATA_DIR= must not mean the working directory);
 * the sandbox's shorter code interval is refused in production unless SANDBOX=1.
 */
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EnvError, readEnv } from '../../server/env'

describe('readEnv', () => {
  it('uses the defaults for unset and for empty variables alike', () => {
    for (const env of [
      {},
      { DATA_DIR: '', STATIC_DIR: '', PORT: '', HOST: '', LOG_LEVEL: '', SANDBOX_CODE_INTERVAL_SECONDS: '' },
    ]) {
      const read = readEnv(env)
      expect(read.dataDir).toBe(resolve('./data'))
      expect(read.staticDir).toBe(resolve('./dist'))
      expect(read.port).toBe(3000)
      expect(read.host).toBe('0.0.0.0')
      expect(read.logLevel).toBe('info')
      // The real minute between two codes to one number.
      expect(read.sandboxCodeIntervalSeconds).toBeUndefined()
    }
  })

  it('takes what is set', () => {
    const read = readEnv({
      DATA_DIR: '/tmp/hiram-x',
      PORT: '3100',
      DATABASE_URL: 'postgres://root@127.0.0.1/x',
    })
    expect(read.dataDir).toBe('/tmp/hiram-x')
    expect(read.port).toBe(3100)
    expect(read.databaseUrl).toBe('postgres://root@127.0.0.1/x')
  })

  it('takes a shorter code interval outside production, and in production only with SANDBOX=1', () => {
    const interval = { SANDBOX_CODE_INTERVAL_SECONDS: '2' }
    expect(readEnv(interval).sandboxCodeIntervalSeconds).toBe(2)
    expect(readEnv({ ...interval, NODE_ENV: 'test' }).sandboxCodeIntervalSeconds).toBe(2)
    expect(readEnv({ ...interval, NODE_ENV: 'production', SANDBOX: '1' }).sandboxCodeIntervalSeconds).toBe(2)
    expect(readEnv({ SANDBOX_CODE_INTERVAL_SECONDS: '60' }).sandboxCodeIntervalSeconds).toBe(60)
    for (const refused of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', SANDBOX: 'true' }])
      expect(() => readEnv({ ...interval, ...refused })).toThrow(
        new EnvError(
          'SANDBOX_CODE_INTERVAL_SECONDS is a sandbox setting: refused with NODE_ENV=production unless SANDBOX=1',
        ),
      )
  })

  it('refuses a code interval that is not whole seconds from 1 to 60', () => {
    for (const raw of ['0', '61', '1.5', '-1', ' 2', '2s', 'abc', '1e1'])
      expect(() => readEnv({ SANDBOX_CODE_INTERVAL_SECONDS: raw }), raw).toThrow(
        new EnvError(`SANDBOX_CODE_INTERVAL_SECONDS must be whole seconds from 1 to 60, not "${raw}"`),
      )
  })
})
