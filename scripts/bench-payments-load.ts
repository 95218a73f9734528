/**
 * The payments benchmark's load loop (scripts/bench-payments.ts), one for every layer so they are measured
 * alike: the direct baselines in the bench server call the services with it, the load generator calls the
 * webhook over HTTP with it.
 *
 * `concurrency` callers share the list of client ids (one call each). Closed loop: a caller takes the next id
 * as soon as its previous call answered; latency from the call's start. Paced (`rate`): id i is due at
 * start + i / rate; a caller waits for the slot of the id it takes, and latency counts from the slot, so a
 * call that had to wait for a free caller counts its wait (no coordinated omission).
 */

export interface LoadStats {
  requests: number
  posted: number
  errors: number
  elapsedMs: number
  p50: number
  p99: number
  max: number
  /** This process's CPU time during the run, µs. */
  cpuMicros: number
  firstError?: string
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

const round1 = (ms: number) => Math.round(ms * 10) / 10

/** `call` answers whether the payment was posted; a throw is an error. */
export async function runLoad(
  ids: number[],
  concurrency: number,
  rate: number | undefined,
  call: (clientId: number) => Promise<boolean>,
): Promise<LoadStats> {
  const latencies: number[] = []
  let next = 0
  let posted = 0
  let errors = 0
  let firstError: string | undefined
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const worker = async () => {
    while (next < ids.length) {
      const index = next++
      let t0 = performance.now()
      if (rate) {
        const slot = started + (index * 1000) / rate
        if (slot > t0) await new Promise((resolve) => setTimeout(resolve, slot - t0))
        t0 = slot
      }
      try {
        if (await call(ids[index]!)) posted++
        else {
          errors++
          firstError ??= 'answered, but not posted'
        }
      } catch (error) {
        errors++
        firstError ??= error instanceof Error ? error.message : String(error)
      }
      latencies.push(performance.now() - t0)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsedMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  latencies.sort((a, b) => a - b)
  return {
    requests: ids.length,
    posted,
    errors,
    elapsedMs: round1(elapsedMs),
    p50: round1(percentile(latencies, 50)),
    p99: round1(percentile(latencies, 99)),
    max: round1(latencies.at(-1) ?? 0),
    cpuMicros: cpu.user + cpu.system,
    ...(firstError ? { firstError } : {}),
  }
}
