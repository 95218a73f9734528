/**
 * The real server process with NODE_ENV=production (docs/decisions/0018): it refuses to start on sandbox adapters,
 * naming them, before it touches the database; with SANDBOX=1 it starts, tells the browser to show the banner, and
 * a sign-up's SMS code is not printed to the console.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const MAIN = 'server/main.ts'
const dirs: string[] = []
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function startServer(extra: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-prod-start-'))
  dirs.push(dataDir)
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(env))
    if (/^(SANDBOX|CAPTCHA_|SMS_|SEMAPHORE_|EMAIL_|SMTP_|DATABASE_URL$|ADMIN_)/.test(name)) delete env[name]
  Object.assign(env, {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    STATIC_DIR: join(dataDir, 'no-static'),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  })
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, dataDir, exited, out: () => stdout, err: () => stderr }
}

describe('NODE_ENV=production start-up', () => {
  it('refuses sandbox adapters, naming each and what switches it, before opening the database', async () => {
    const server = startServer({})
    expect(await server.exited).toBe(1)
    const said = server.err() + server.out()
    expect(said).toContain('Refusing to start: NODE_ENV=production')
    expect(said).toContain('SMS: set SMS_PROVIDER=semaphore')
    expect(said).toContain('identity verification: no real provider yet')
    expect(said).toContain('SANDBOX=1')
    // Nothing was opened: the data directory is as the test made it.
    expect(readdirSync(server.dataDir)).toEqual([])
  }, 120_000)

  it('with SANDBOX=1 starts, asks for the banner, and prints no codes', async () => {
    const server = startServer({ SANDBOX: '1', SANDBOX_CONSOLE: '1' })
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /running at http:\/\/localhost:(\d+)/.exec(server.out())
        if (match) {
          clearInterval(timer)
          resolve(Number(match[1]))
        } else if (server.child.exitCode !== null) {
          clearInterval(timer)
          reject(new Error(`server exited: ${server.err()}`))
        }
      }, 200)
    })
    const base = `http://127.0.0.1:${port}/web`
    const environment = (await (await fetch(`${base}/public/environment`)).json()) as {
      data: { sandbox: boolean; sandboxed: string[] }
    }
    expect(environment.data.sandbox).toBe(true)
    expect(environment.data.sandboxed).toContain('sms')

    const phone = `0917${String(Date.now()).slice(-7)}`
    const signUp = await fetch(`${base}/public/client`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mobilePhone: { number: phone },
        email: `prod-start-${Date.now()}@example.ph`,
        password: 'secret123',
        passwordRepeat: 'secret123',
        consents: { terms: true, privacy: true, marketing: false },
        captchaToken: 'ok',
        deviceId: 'prod-start-device',
      }),
    })
    expect(signUp.status).toBe(201)
    server.child.kill('SIGTERM')
    await server.exited
    expect(server.out()).not.toContain('[sandbox sms]')
    expect(server.out()).not.toContain(phone)
    expect(existsSync(server.dataDir)).toBe(true)
  }, 240_000)
})
