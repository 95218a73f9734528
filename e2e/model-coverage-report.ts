/**
 * Playwright's global teardown: how much of the server's two statecharts the end-to-end run reached (issue 20
 * item 4, the browser half). The e2e server starts on an empty embedded database, so every transition it recorded
 * (state_transition) came from this run: the browser tests and the API calls they make to set up their clients.
 * Read from the live statecharts (GET /web/private/back-office/statecharts, ADR 0038) while the server still runs,
 * and printed beside the API suite's line; the API suite is the one that must reach 100%.
 */
import type { Statechart, Statecharts } from '../domain/contract/statecharts'
import { E2E_ADMIN, E2E_ADMIN_DEVICE_ID } from './sandbox'

const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.floor((part / whole) * 100))

function line(chart: Statechart): string {
  const leaves = chart.states.filter((s) => s.leaf)
  const reached = leaves.filter((s) => s.now > 0 || s.entered > 0 || s.left > 0)
  const modelled = chart.transitions.filter((t) => t.inModel)
  const taken = modelled.filter((t) => t.count > 0)
  const name = chart.machine === 'clientJourney' ? 'journey' : 'loan lifecycle'
  const missing = leaves.filter((s) => !reached.includes(s)).map((s) => s.state)
  return (
    `${name} states ${percent(reached.length, leaves.length)}%, transitions ${percent(taken.length, modelled.length)}% ` +
    `(${reached.length}/${leaves.length}, ${taken.length}/${modelled.length})` +
    (missing.length ? `; states not reached: ${missing.join(', ')}` : '')
  )
}

export default async function modelCoverageReport() {
  const base = `http://localhost:${Number(process.env.E2E_PORT ?? 3199)}/web`
  try {
    const login = await fetch(`${base}/public/user/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-device-id': E2E_ADMIN_DEVICE_ID,
        connection: 'close',
      },
      body: JSON.stringify({ ...E2E_ADMIN, captchaToken: 'e2e', deviceId: E2E_ADMIN_DEVICE_ID }),
    })
    const authorization = login.headers.get('authorization')
    if (!login.ok || !authorization) throw new Error(`login answered ${login.status}`)
    const answer = await fetch(`${base}/private/back-office/statecharts`, {
      headers: { authorization, connection: 'close' },
    })
    if (!answer.ok) throw new Error(`statecharts answered ${answer.status}`)
    const { data } = (await answer.json()) as { data: Statecharts }
    console.info(`model coverage through the browser (e2e run): ${data.machines.map(line).join('; ')}`)
  } catch (error) {
    // A report, not a test: the run's own result stands; say why there is no figure.
    console.info(`model coverage through the browser: not measured (${(error as Error).message})`)
  }
}
