/** The server's environment: an empty variable is an unset one (DATA_DIR= must not mean the working directory). */
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readEnv } from '../../server/env'

describe('readEnv', () => {
  it('uses the defaults for unset and for empty variables alike', () => {
    for (const env of [{}, { DATA_DIR: '', STATIC_DIR: '', PORT: '', HOST: '', LOG_LEVEL: '' }]) {
      const read = readEnv(env)
      expect(read.dataDir).toBe(resolve('./data'))
      expect(read.staticDir).toBe(resolve('./dist'))
      expect(read.port).toBe(3000)
      expect(read.host).toBe('0.0.0.0')
      expect(read.logLevel).toBe('info')
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
})
