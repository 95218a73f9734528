/** Controls for driving a real machine in a test: promises the test settles, and microtask turns. */

export interface Deferred<T> {
  promise: Promise<T>
  resolve: (value: T) => void
  reject: (error: unknown) => void
}

/** A promise the test settles when it wants (a request the machine is waiting on). */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  // Superseded requests are settled on purpose or never; neither may look like an unhandled rejection.
  promise.catch(() => {})
  return { promise, resolve, reject }
}

/** Enough microtask turns for a settled promise to reach the machine as a done/error event. */
export async function flush() {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}
