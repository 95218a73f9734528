/**
 * PGlite is one process per data directory. This lock makes a second process fail fast with a clear message
 * instead of corrupting the directory. The lock file holds the owner's pid; a lock whose pid is gone (the owner
 * was killed with SIGKILL) is stale and taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'hiram.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return () => {
        if (released) return
        released = true
        rmSync(file, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number.parseInt(readFileSync(file, 'utf8').trim(), 10)
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner))
        throw new DataDirLockedError(dir, owner)
      rmSync(file, { force: true })
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`)
}
