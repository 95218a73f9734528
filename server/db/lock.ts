/**
 * PGlite is one process per data directory. This lock makes a second process fail fast with a clear message
 * instead of corrupting the directory.
 *
 * A pid alone does not say who owns the lock: after a SIGKILL or a reboot the pid may belong to anything (a
 * shell, a `sleep`, another program), and a lock naming it would block start-up until removed by hand. So the
 * lock file records the owner (pid, the kernel's start time of that process, the directory) as JSON, and the lock
 * is held only while that very process lives: same pid, same start time (Linux /proc), same directory. Anything
 * else is stale and taken over, saying so. Old lock files hold a bare pid: those count as held only while the pid
 * runs something that looks like a Hiram server (node with server/main), where /proc can tell.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dir} is already in use by another Hiram process (pid ${pid}). ` +
        'Stop that process, or set DATA_DIR to another directory.',
    )
    this.name = 'DataDirLockedError'
  }
}

/** What the lock file says about its owner. */
export interface LockOwner {
  pid: number
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot): with the pid, names one process for ever. */
  startTime?: string
  dir?: string
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The start time of a process from /proc, or undefined where there is no /proc (macOS) or no such process. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces or parentheses: count after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[0] is field 3 (state), so field 22 is fields[19].
    const value = fields[19]
    return value && /^\d+$/.test(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** The arguments of a process from /proc, or undefined where /proc cannot tell. */
function processCommandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } catch {
    return undefined
  }
}

/** A node process running the server (`node ... server/main.ts`, `tsx server/main.ts`, a built main.js). */
function looksLikeHiramServer(args: string[]): boolean {
  const node = args.some((arg) => /(^|\/)(node|nodejs|tsx)(\.exe)?$/.test(arg))
  const main = args.some((arg) => /(^|\/)server\/main(\.[cm]?[jt]s)?$/.test(arg))
  return node && main
}

export function parseLockFile(text: string): LockOwner | undefined {
  const trimmed = text.trim()
  if (/^\d+$/.test(trimmed)) return { pid: Number.parseInt(trimmed, 10) }
  try {
    const parsed = JSON.parse(trimmed) as Partial<LockOwner>
    if (!Number.isInteger(parsed.pid) || (parsed.pid ?? 0) <= 0) return undefined
    return {
      pid: parsed.pid!,
      startTime: typeof parsed.startTime === 'string' ? parsed.startTime : undefined,
      dir: typeof parsed.dir === 'string' ? parsed.dir : undefined,
    }
  } catch {
    return undefined
  }
}

/**
 * Why the lock is not held (stale), or null when its owner is a live Hiram process on this directory. Where /proc
 * cannot tell (another OS), a live pid is trusted, as before: refusing wrongly is recoverable, two writers are not.
 */
export function staleReason(owner: LockOwner | undefined, dir: string): string | null {
  if (!owner) return 'the lock file is unreadable'
  if (owner.pid === process.pid) return 'it names this very process'
  if (!isAlive(owner.pid)) return `process ${owner.pid} is gone`
  if (owner.dir !== undefined && resolve(owner.dir) !== resolve(dir))
    return `process ${owner.pid} locked ${owner.dir}; this directory is a copy of it`
  const startTime = processStartTime(owner.pid)
  if (owner.startTime !== undefined && startTime !== undefined) {
    return owner.startTime === startTime
      ? null
      : `pid ${owner.pid} now belongs to another process than the one that took the lock`
  }
  const args = processCommandLine(owner.pid)
  if (args === undefined) return null
  return looksLikeHiramServer(args) ? null : `process ${owner.pid} is not a Hiram server`
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

export interface LockOptions {
  /** Told when a stale lock is taken over; the console by default, since no logger exists this early. */
  onStale?: (message: string) => void
}

export function lockDataDir(dir: string, options: LockOptions = {}): () => void {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'hiram.lock')
  const me: LockOwner = { pid: process.pid, startTime: processStartTime(process.pid), dir: resolve(dir) }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, JSON.stringify(me))
      closeSync(fd)
      let released = false
      return () => {
        if (released) return
        released = true
        rmSync(file, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      let text: string
      try {
        text = readFileSync(file, 'utf8')
      } catch (readError) {
        // Removed between our open and our read: its owner just stopped; try again.
        if ((readError as NodeJS.ErrnoException).code === 'ENOENT') continue
        throw readError
      }
      // Empty: its owner is between creating and writing it (held), unless it has been empty for seconds.
      if (!text.trim() && ageMs(file) < 5000) throw new DataDirLockedError(dir, 0)
      const owner = parseLockFile(text)
      const reason = staleReason(owner, dir)
      if (reason === null) throw new DataDirLockedError(dir, owner!.pid)
      ;(options.onStale ?? console.warn)(`Took over the stale lock of the data directory ${dir}: ${reason}.`)
      rmSync(file, { force: true })
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`)
}
