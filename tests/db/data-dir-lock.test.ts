/**
 * The data directory lock (server/db/lock.ts, issue 13 item 10): a lock naming a live process that is not the
 * Hiram server that took it is stale and taken over; a lock whose owner is still that server is refused. Real
 * processes (`sleep`, node) stand in for owners, since the check reads their start time and command line.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DataDirLockedError, lockDataDir, parseLockFile, processStartTime } from '../../server/db/lock'

const linux = existsSync(`/proc/${process.pid}/stat`)
const children: ChildProcess[] = []
const dirs: string[] = []

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'hiram-lock-'))
  dirs.push(dir)
  return dir
}

/** A live process that is certainly not a Hiram server. */
function sleeper(): number {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' })
  children.push(child)
  return child.pid!
}

/** A live node process whose command line is the server's (`node -e ... server/main.ts`), doing nothing. */
function hiramLookalike(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'server/main.ts'], {
    stdio: 'ignore',
  })
  children.push(child)
  return child.pid!
}

/** Waits until the child has exec'd (its /proc entry shows the new command line). */
async function settled(pid: number, text: string) {
  for (let i = 0; i < 100; i++) {
    if (!linux || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function takeOver(dir: string) {
  const notices: string[] = []
  const release = lockDataDir(dir, { onStale: (message) => notices.push(message) })
  return { release, notices }
}

describe('data directory lock', () => {
  it('records its owner as JSON: pid, start time and directory', () => {
    const dir = tempDir()
    const release = lockDataDir(dir)
    const owner = parseLockFile(readFileSync(join(dir, 'hiram.lock'), 'utf8'))
    expect(owner).toMatchObject({ pid: process.pid, dir })
    if (linux) expect(owner?.startTime).toMatch(/^\d+$/)
    release()
    expect(existsSync(join(dir, 'hiram.lock'))).toBe(false)
  })

  it.runIf(linux)(
    'takes over an old plain-pid lock naming a live process that is not Hiram (sleep)',
    async () => {
      const dir = tempDir()
      const pid = sleeper()
      await settled(pid, 'sleep')
      writeFileSync(join(dir, 'hiram.lock'), String(pid))
      const { release, notices } = takeOver(dir)
      expect(notices).toHaveLength(1)
      expect(notices[0]).toContain('stale')
      expect(notices[0]).toContain(`process ${pid} is not a Hiram server`)
      expect(parseLockFile(readFileSync(join(dir, 'hiram.lock'), 'utf8'))?.pid).toBe(process.pid)
      release()
    },
  )

  it.runIf(linux)(
    'takes over a JSON lock whose pid now belongs to another process (start time differs)',
    async () => {
      const dir = tempDir()
      const pid = sleeper()
      await settled(pid, 'sleep')
      const wrong = String(Number(processStartTime(pid)) - 1)
      writeFileSync(join(dir, 'hiram.lock'), JSON.stringify({ pid, startTime: wrong, dir }))
      const { release, notices } = takeOver(dir)
      expect(notices).toHaveLength(1)
      expect(notices[0]).toContain('another process')
      release()
    },
  )

  it('takes over a lock whose process is gone, and one written for another directory (a copied data dir)', async () => {
    const dir = tempDir()
    const child = spawn('sleep', ['0'], { stdio: 'ignore' })
    await new Promise((resolve) => child.once('exit', resolve))
    writeFileSync(join(dir, 'hiram.lock'), JSON.stringify({ pid: child.pid, dir }))
    const gone = takeOver(dir)
    expect(gone.notices[0]).toContain('is gone')
    gone.release()

    const owner = hiramLookalike()
    await settled(owner, 'server/main')
    writeFileSync(
      join(dir, 'hiram.lock'),
      JSON.stringify({ pid: owner, startTime: processStartTime(owner), dir: '/elsewhere/data' }),
    )
    const copied = takeOver(dir)
    expect(copied.notices[0]).toContain('/elsewhere/data')
    copied.release()
  })

  it('refuses a JSON lock whose owner is that very process, alive, on this directory', async () => {
    const dir = tempDir()
    const pid = sleeper()
    await settled(pid, 'sleep')
    // The recorded start time is the process's own: whatever it runs, it is the process that took the lock.
    writeFileSync(join(dir, 'hiram.lock'), JSON.stringify({ pid, startTime: processStartTime(pid), dir }))
    const error = (() => {
      try {
        lockDataDir(dir, { onStale: () => {} })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(DataDirLockedError)
    expect((error as DataDirLockedError).pid).toBe(pid)
    expect((error as Error).message).toContain(dir)
    // Refusing leaves the owner's lock alone.
    expect(parseLockFile(readFileSync(join(dir, 'hiram.lock'), 'utf8'))?.pid).toBe(pid)
  })

  it.runIf(linux)(
    'refuses an old plain-pid lock naming a live node process running server/main',
    async () => {
      const dir = tempDir()
      const pid = hiramLookalike()
      await settled(pid, 'server/main')
      writeFileSync(join(dir, 'hiram.lock'), String(pid))
      expect(() => lockDataDir(dir, { onStale: () => {} })).toThrow(DataDirLockedError)
    },
  )

  it('refuses a lock file still being written (empty and fresh); releasing twice is harmless', () => {
    const dir = tempDir()
    // An empty lock file just created: its owner is between creating and writing it.
    writeFileSync(join(dir, 'hiram.lock'), '')
    expect(() => lockDataDir(dir, { onStale: () => {} })).toThrow(DataDirLockedError)
    rmSync(join(dir, 'hiram.lock'))
    const release = lockDataDir(dir)
    release()
    // Released twice is harmless (close then SIGTERM both release).
    release()
    expect(existsSync(join(dir, 'hiram.lock'))).toBe(false)
  })
})
