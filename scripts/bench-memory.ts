/**
 * Part of `npm run bench` (issue 13, item 2): the server's resident memory while four 100 MB JSON bodies are
 * sent to an anonymous route at once, with their length declared and chunked, and how long a guest offer takes
 * meanwhile. The server must refuse each with 413 while it is still being sent, without reading it (the body
 * limits of docs/decisions/0002): its memory should not move by more than a few MB, and other callers should
 * not wait for the large bodies.
 */
import http from 'node:http'

const BODY_BYTES = 100 * 1024 * 1024
const BODIES = 4
/** The sign-up route: anonymous, with a JSON body, the first one an attacker would aim at. */
const TARGET = '/web/public/client'
/** What the server's memory may grow by, in MB, for the section to pass. */
export const MEMORY_TARGET_MB = 16

interface Sent {
  status: number
  sentMb: number
  ms: number
}

/** One large body, sent as fast as the server takes it; resolves when the server answers. */
function sendBody(port: number, declared: boolean): Promise<Sent> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20)
    const started = performance.now()
    let sent = 0
    let answered = false
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: TARGET,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(BODY_BYTES) } : {}),
      },
    })
    req.on('error', () => {
      // The server closes the connection once it has answered, while this client may still be writing. A reset
      // before the answer is recorded as status 0: the section then fails rather than the whole benchmark.
      if (!answered) resolve({ status: 0, sentMb: sent / 2 ** 20, ms: performance.now() - started })
      answered = true
    })
    req.on('response', (res) => {
      if (answered) return
      answered = true
      res.resume()
      resolve({ status: res.statusCode ?? 0, sentMb: sent / 2 ** 20, ms: performance.now() - started })
    })
    const pump = () => {
      while (!answered && !req.destroyed && sent < BODY_BYTES) {
        sent += chunk.byteLength
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered && !req.destroyed) req.end()
    }
    pump()
  })
}

export interface MemoryRow {
  mode: string
  baselineMb: number
  peakMb: number
  statuses: number[]
  maxSentMb: number
  maxAnswerMs: number
  offerMs: number[]
}

async function rssMb(memoryUrl: string) {
  return ((await (await fetch(memoryUrl)).json()) as { rss: number }).rss / 2 ** 20
}

async function phase(
  port: number,
  memoryUrl: string,
  offerUrl: string,
  declared: boolean,
): Promise<MemoryRow> {
  const baselineMb = await rssMb(memoryUrl)
  let peakMb = baselineMb
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      peakMb = Math.max(peakMb, await rssMb(memoryUrl))
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()
  const bodies = Promise.all(Array.from({ length: BODIES }, () => sendBody(port, declared)))
  const offerMs: number[] = []
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    await (await fetch(offerUrl)).arrayBuffer()
    offerMs.push(performance.now() - started)
  }
  const sent = await bodies
  // Past the answers: the server drains what is already on its sockets, then closes them.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  sampling = false
  await sampler
  return {
    mode: declared ? 'Content-Length: 104857600' : 'chunked',
    baselineMb,
    peakMb,
    statuses: sent.map((s) => s.status),
    maxSentMb: Math.max(...sent.map((s) => s.sentMb)),
    maxAnswerMs: Math.max(...sent.map((s) => s.ms)),
    offerMs,
  }
}

/** Both phases against a running bench server; `memoryUrl` answers `{ rss }` of the server process. */
export async function measureLargeBodies(port: number, memoryUrl: string, offerUrl: string) {
  const rows = [await phase(port, memoryUrl, offerUrl, true), await phase(port, memoryUrl, offerUrl, false)]
  const pass = rows.every(
    (r) => r.peakMb - r.baselineMb <= MEMORY_TARGET_MB && r.statuses.every((s) => s === 413 || s === 0),
  )
  const lines = rows.map(
    (r) =>
      `| ${r.mode} | ${r.statuses.join(', ')} | ${r.maxSentMb.toFixed(0)} | ${r.maxAnswerMs.toFixed(0)} | ${r.baselineMb.toFixed(1)} | ${r.peakMb.toFixed(1)} | ${(r.peakMb - r.baselineMb).toFixed(1)} | ${Math.max(...r.offerMs).toFixed(0)} |`,
  )
  const markdown = `## Large request bodies

${BODIES} bodies of ${BODY_BYTES / 2 ** 20} MB sent at once to \`POST ${TARGET}\` (anonymous, JSON, 64 KB limit), as
fast as loopback takes them, while 5 guest offers are requested one after another. Resident memory of the server
process sampled every 10 ms, from before the bodies until 1 s after the last answer.

| Body | answers | most sent before the answer (MB) | slowest answer ms | RSS before MB | RSS peak MB | growth MB | slowest offer meanwhile ms |
|---|---|---:|---:|---:|---:|---:|---:|
${lines.join('\n')}

Every body refused and memory growth ≤ ${MEMORY_TARGET_MB} MB: **${pass ? 'PASS' : 'FAIL'}**. An answer of 0 is a
connection the server closed before this client got round to reading its 413: the server answers at the
headers, discards what still arrives for 0.5 s (@hono/node-server's lingering close), then closes, and a client
busy writing 100 MB on a loaded machine can miss that window. (The client's
count includes what its own socket buffered. The server reads at most the 64 KB limit of a chunked body and
none of a declared one, answers, then discards what still arrives for at most 0.5 s or 64 MB and closes.)
`
  return { rows, pass, markdown }
}
