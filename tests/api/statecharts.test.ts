/**
 * Issue 20 item 3 over the API: the live statecharts. A few clients at different journey steps and loans in
 * different states; every state's live count, entries and exits and every transition's count equal a direct
 * query on the same database; the date range filters the funnel and is bounded; the clients or loans in a state,
 * a page at a time; refused without the permission. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Statechart, Statecharts, StateMember } from '../../domain/contract/statecharts'
import { loanNumberOf } from '../../domain/payments/reference'
import { manilaDate } from '../../domain/pricing/manila-date'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'
import { call, type TestApp } from './identity-helpers'
import { clientAt, seedSmallPsgc } from './journey-helpers'

describe('live statecharts', () => {
  let t: TestApp
  let analyst: Staff
  let nobody: Staff
  let from: string
  let to: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    analyst = await staffMember(t, 'underwriter')
    nobody = await staffMember(t)
    await clientAt(t, 'work_info')
    await clientAt(t, 'address')
    await clientAt(t, 'loan_page')
    await clientAt(t, 'payout_processing')
    const [span] = await rows<{ first: Date | string; last: Date | string }>(
      sql`select min(at) as first, max(at) as last from state_transition`,
    )
    from = manilaDate(new Date(span!.first))
    to = manilaDate(new Date(span!.last))
  }, 180_000)
  afterAll(() => t.close())

  async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
    const result = (await t.database.db.execute(query)) as unknown as { rows?: T[] } | T[]
    return Array.isArray(result) ? result : (result.rows ?? [])
  }
  const scalar = async (query: ReturnType<typeof sql>) =>
    Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0)

  const charts = (query = '', token = analyst.token) =>
    call<Statecharts>(t, 'GET', `/private/back-office/statecharts${query}`, undefined, { token })

  /** Whether a stored state (column expression) is `state` or inside it. */
  const inState = (column: ReturnType<typeof sql>, state: string) =>
    sql`(${column} = ${state} or ${column} like ${`${state}.%`})`
  /** A loan's leaf from its columns, spelled out here apart from the service's. */
  const loanLeaf = sql.raw(
    `(case when state = 'active' then concat_ws('.', state, plan, standing) when state = 'on_hold' then concat_ws('.', state, plan) else state end)`,
  )

  async function expectMatchesDatabase(chart: Statechart, range: { from: string; to: string }) {
    const start = `${range.from}T00:00:00+08:00`
    const end = sql`(${`${range.to}T00:00:00+08:00`}::timestamptz + interval '1 day')`
    const during = sql`at >= ${start}::timestamptz and at < ${end}`
    const created =
      chart.machine === 'clientJourney'
        ? await scalar(
            sql`select count(*) as n from client_journey j join client c on c.id = j.client_id
                where c.created_at >= ${start}::timestamptz and c.created_at < ${end}`,
          )
        : await scalar(
            sql`select count(*) as n from loan where created_at >= ${start}::timestamptz and created_at < ${end}`,
          )
    expect(chart.created).toBe(created)
    for (const s of chart.states) {
      const now =
        chart.machine === 'clientJourney'
          ? await scalar(
              sql`select count(*) as n from client_journey where ${inState(sql.raw('step'), s.state)}`,
            )
          : await scalar(sql`select count(*) as n from loan where ${inState(loanLeaf, s.state)}`)
      expect(s.now, `${chart.machine} ${s.state} now`).toBe(now)
      const moves = sql`from state_transition where machine = ${chart.machine} and ${during}`
      const entered = await scalar(
        sql`select count(*) as n ${moves} and ${inState(sql.raw('to_state'), s.state)}
            and not ${inState(sql.raw('from_state'), s.state)}`,
      )
      const initial = chart.initial === s.state || chart.initial.startsWith(`${s.state}.`)
      expect(s.entered, `${chart.machine} ${s.state} entered`).toBe(entered + (initial ? created : 0))
      const left = await scalar(
        sql`select count(*) as n ${moves} and ${inState(sql.raw('from_state'), s.state)}
            and not ${inState(sql.raw('to_state'), s.state)}`,
      )
      expect(s.left, `${chart.machine} ${s.state} left`).toBe(left)
    }
    for (const m of chart.transitions) {
      const n = await scalar(
        sql`select count(*) as n from state_transition where machine = ${chart.machine} and ${during}
            and from_state = ${m.from} and to_state = ${m.to} and event = ${m.event}`,
      )
      expect(m.count, `${chart.machine} ${m.from} -${m.event}-> ${m.to}`).toBe(n)
    }
    const recorded = await scalar(
      sql`select count(*) as n from state_transition where machine = ${chart.machine} and ${during}`,
    )
    expect(chart.transitions.reduce((sum, m) => sum + m.count, 0)).toBe(recorded)
    const total =
      chart.machine === 'clientJourney'
        ? await scalar(sql`select count(*) as n from client_journey`)
        : await scalar(sql`select count(*) as n from loan`)
    expect(chart.total).toBe(total)
  }

  it('counts every state and transition as the database does', async () => {
    const answer = await charts(`?from=${from}&to=${to}`)
    expect(answer.status).toBe(200)
    const data = answer.body.data
    expect(data).toMatchObject({ from, to })
    expect(data.machines.map((m) => m.machine)).toEqual(['clientJourney', 'loanLifecycle'])
    for (const chart of data.machines) await expectMatchesDatabase(chart, data)
    const journey = data.machines[0]!
    const byState = new Map(journey.states.map((s) => [s.state, s]))
    // The four clients created here, each where its walk ended.
    expect(byState.get('work_info')!.now).toBeGreaterThanOrEqual(1)
    expect(byState.get('address')!.now).toBeGreaterThanOrEqual(1)
    expect(byState.get('loan_page')!.now).toBeGreaterThanOrEqual(1)
    expect(byState.get('payout_processing')!.now).toBeGreaterThanOrEqual(1)
    expect(journey.transitions.some((m) => m.count > 0 && m.inModel)).toBe(true)
    const loans = data.machines[1]!
    const active = loans.states.find((s) => s.state === 'active')!
    expect(active.leaf).toBe(false)
    expect(active.now).toBe(
      loans.states.filter((s) => s.leaf && s.state.startsWith('active.')).reduce((sum, s) => sum + s.now, 0),
    )
    expect(active.now).toBeGreaterThanOrEqual(1)
  })

  it('filters the funnel by the date range, and bounds it', async () => {
    const past = await charts('?from=2001-01-01&to=2001-12-31')
    expect(past.status).toBe(200)
    for (const chart of past.body.data.machines) {
      await expectMatchesDatabase(chart, past.body.data)
      expect(chart.transitions.every((m) => m.count === 0)).toBe(true)
      expect(chart.states.every((s) => s.entered === 0 && s.left === 0)).toBe(true)
      expect(chart.total).toBeGreaterThan(0)
    }
    const fallback = await charts()
    expect(fallback.status).toBe(200)
    expect(fallback.body.data.from < fallback.body.data.to).toBe(true)
    for (const query of [
      '?from=2026-03-01&to=2026-02-01',
      '?from=2024-01-01&to=2025-12-31',
      '?from=2026-02-30',
      '?to=yesterday',
    ]) {
      const refused = await charts(query)
      expect(refused.status, query).toBe(400)
    }
  })

  it('lists the clients or loans in a state, a page at a time', async () => {
    const members = (machine: string, state: string, query = '') =>
      call<StateMember[]>(
        t,
        'GET',
        `/private/back-office/statecharts/${machine}/states/${state}${query}`,
        undefined,
        { token: analyst.token },
      )
    const expected = (
      await rows<{ id: number | string }>(sql`select client_id as id from client_journey order by client_id`)
    ).map((r) => Number(r.id))
    const seen: number[] = []
    for (let page = 1; page <= expected.length; page += 1) {
      const pageAnswer = await members('clientJourney', 'work_info', `?page=${page}&perPage=1`)
      expect(pageAnswer.status).toBe(200)
      const total = Number(pageAnswer.res.headers.get('x-total-count'))
      expect(total).toBe(await scalar(sql`select count(*) as n from client_journey where step = 'work_info'`))
      expect(pageAnswer.res.headers.get('x-page')).toBe(String(page))
      expect(pageAnswer.res.headers.get('x-per-page')).toBe('1')
      if (page > total) {
        expect(pageAnswer.body.data).toEqual([])
        break
      }
      const [member] = pageAnswer.body.data
      expect(member).toMatchObject({ summary: 'work_info', state: 'work_info' })
      expect(member!.id).toBe(member!.clientId)
      seen.push(member!.id)
    }
    const atWorkInfo = (
      await rows<{ id: number | string }>(
        sql`select client_id as id from client_journey where step = 'work_info' order by client_id`,
      )
    ).map((r) => Number(r.id))
    expect(seen).toEqual(atWorkInfo)

    const active = await members('loanLifecycle', 'active', '?perPage=100')
    expect(active.status).toBe(200)
    const activeLoans = await rows<{ id: number | string; client_id: number | string }>(
      sql`select id, client_id from loan where state = 'active' order by id`,
    )
    expect(active.body.data.map((l) => [l.id, l.clientId, l.summary])).toEqual(
      activeLoans.map((l) => [Number(l.id), Number(l.client_id), loanNumberOf(Number(l.id))]),
    )
    expect(
      active.body.data.every((l) => l.state.startsWith('active.') && !Number.isNaN(Date.parse(l.since))),
    ).toBe(true)
    expect((await members('loanLifecycle', 'nowhere')).status).toBe(404)
    expect((await members('otherMachine', 'active')).status).toBe(400)
  })

  it('refuses a user without the permission', async () => {
    expect((await charts('', nobody.token)).status).toBe(403)
    const list = await call(
      t,
      'GET',
      '/private/back-office/statecharts/clientJourney/states/work_info',
      undefined,
      {
        token: nobody.token,
      },
    )
    expect(list.status).toBe(403)
  })
})
