/**
 * Live statecharts (issue 20, item 3; docs/decisions/0038-live-statecharts.md): the server's persisted lifecycles
 * with the number of clients or loans in each state now and a funnel over a Manila date range from the recorded
 * history (`state_transition`). The states and the model's transitions come from the machine definitions (the
 * same ones docs/statecharts/ is drawn from); the numbers from a few set-based reads (GROUP BY) whose answers are
 * as small as the charts, so the work in memory is bounded by the model, never by the number of clients.
 */
import { and, asc, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import type { AnyStateMachine } from 'xstate'
import type {
  StatechartMachine,
  StatechartState,
  Statecharts,
  StatechartTransition,
  StateMember,
} from '../../../domain/contract/statecharts'
import { STATECHART_DEFAULT_DAYS, STATECHART_MAX_DAYS } from '../../../domain/contract/statecharts'
import { invalid, notFound } from '../../../domain/errors'
import {
  advanceJourney,
  clientJourneyMachine,
  eventsAcceptedAt,
  JOURNEY_MODEL_VERSION,
  journeySteps,
} from '../../../domain/journey/client-journey.machine'
import {
  advanceLoan,
  LOAN_MODEL_VERSION,
  loanEventsAcceptedAt,
  loanLeaves,
  loanLifecycleMachine,
} from '../../../domain/loan/loan-lifecycle.machine'
import { loanNumberOf } from '../../../domain/payments/reference'
import { addDays, daysBetween, manilaDate, manilaDayStart } from '../../../domain/pricing/manila-date'
import type { DbOrTx } from '../../db/client'
import { client } from '../../db/schema-identity'
import { clientJourney, stateTransition } from '../../db/schema-journey'
import { loan } from '../../db/schema-lending'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * A loan's leaf in SQL, as `leafOf` (domain/loan/loan-lifecycle.machine.ts) builds it from the row's state, plan
 * and standing: 'active.<plan>.<standing>', 'on_hold.<plan>', or the state.
 */
const loanLeafSql: SQL<string> = sql<string>`case ${loan.state}
  when 'active' then 'active.' || ${loan.plan} || '.' || ${loan.standing}
  when 'on_hold' then 'on_hold.' || ${loan.plan}
  else ${loan.state} end`

interface ChartModel {
  machine: StatechartMachine
  subject: 'client' | 'loan'
  initial: string
  /** Every state's path, parents before their children, in the chart's order. */
  states: { state: string; parent: string | null; leaf: boolean }[]
  leaves: readonly string[]
  /** The model's transitions between leaves. */
  transitions: { from: string; to: string; event: string }[]
}

/** Every state of a chart by its dotted path, parents first, walking the machine's own state nodes. */
function statesOf(machine: AnyStateMachine) {
  const out: ChartModel['states'] = []
  const walk = (node: AnyStateMachine['root'], parent: string | null) => {
    for (const child of Object.values(node.states)) {
      const path = child.path.join('.')
      const children = Object.keys(child.states).length
      out.push({ state: path, parent, leaf: children === 0 })
      if (children) walk(child, path)
    }
  }
  walk(machine.root, null)
  return out
}

function leafTransitions<L extends string, E extends string>(
  leaves: readonly L[],
  accepted: (leaf: L) => readonly E[],
  advance: (leaf: L, event: E) => string | null,
) {
  return leaves.flatMap((from) =>
    accepted(from).flatMap((event) => {
      const to = advance(from, event)
      return to ? [{ from, to, event }] : []
    }),
  )
}

const journeyModel: ChartModel = {
  machine: 'clientJourney',
  subject: 'client',
  initial: String(clientJourneyMachine.config.initial),
  states: statesOf(clientJourneyMachine),
  leaves: journeySteps,
  transitions: leafTransitions(
    journeySteps,
    eventsAcceptedAt,
    (step, type) => advanceJourney({ version: JOURNEY_MODEL_VERSION, value: step }, { type })?.value ?? null,
  ),
}

const loanModel: ChartModel = {
  machine: 'loanLifecycle',
  subject: 'loan',
  initial: String(loanLifecycleMachine.config.initial),
  states: statesOf(loanLifecycleMachine),
  leaves: loanLeaves,
  transitions: leafTransitions(
    loanLeaves,
    loanEventsAcceptedAt,
    (leaf, type) =>
      advanceLoan({ version: LOAN_MODEL_VERSION, value: leaf }, { type } as Parameters<typeof advanceLoan>[1])
        ?.value ?? null,
  ),
}

export const statechartModels: Record<StatechartMachine, ChartModel> = {
  clientJourney: journeyModel,
  loanLifecycle: loanModel,
}

/** Whether `leaf` is `state` or inside it. */
const within = (leaf: string, state: string) => leaf === state || leaf.startsWith(`${state}.`)

export interface StatechartRange {
  from: string
  to: string
}

/** The range asked for, with the defaults, or a 400 naming the field that breaks it. */
export function statechartRange(query: { from?: string; to?: string }, now: Date): StatechartRange {
  const to =
    query.to ??
    (query.from ? minDay(addDays(query.from, STATECHART_DEFAULT_DAYS - 1), manilaDate(now)) : manilaDate(now))
  const from = query.from ?? addDays(to, -(STATECHART_DEFAULT_DAYS - 1))
  if (from > to) throw invalid([{ propertyPath: 'from', message: 'Must not be after the end of the range.' }])
  if (daysBetween(from, to) + 1 > STATECHART_MAX_DAYS)
    throw invalid([{ propertyPath: 'to', message: `A range is at most ${STATECHART_MAX_DAYS} days.` }])
  return { from, to }
}

const minDay = (a: string, b: string) => (a < b ? a : b)

/** The instants [start, end) of a Manila date range. */
function instants(range: StatechartRange) {
  return { start: manilaDayStart(range.from), end: new Date(manilaDayStart(range.to).getTime() + DAY_MS) }
}

/** Both charts with their numbers. Four grouped reads in all. */
export async function statecharts(db: DbOrTx, range: StatechartRange): Promise<Statecharts> {
  const { start, end } = instants(range)
  const [journeyNow, loanNow, moves, journeyCreated, loansCreated] = await Promise.all([
    db
      .select({ leaf: clientJourney.step, n: sql<number>`count(*)`.mapWith(Number) })
      .from(clientJourney)
      .groupBy(clientJourney.step),
    db
      .select({ leaf: loanLeafSql, n: sql<number>`count(*)`.mapWith(Number) })
      .from(loan)
      .groupBy(loanLeafSql),
    db
      .select({
        machine: stateTransition.machine,
        from: stateTransition.fromState,
        to: stateTransition.toState,
        event: stateTransition.event,
        n: sql<number>`count(*)`.mapWith(Number),
      })
      .from(stateTransition)
      .where(and(gte(stateTransition.at, start), lt(stateTransition.at, end)))
      .groupBy(
        stateTransition.machine,
        stateTransition.fromState,
        stateTransition.toState,
        stateTransition.event,
      ),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(clientJourney)
      .innerJoin(client, eq(client.id, clientJourney.clientId))
      .where(and(gte(client.createdAt, start), lt(client.createdAt, end))),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(loan)
      .where(and(gte(loan.createdAt, start), lt(loan.createdAt, end))),
  ])
  const chart = (
    model: ChartModel,
    now: { leaf: string; n: number }[],
    created: number,
  ): Statecharts['machines'][number] => {
    const recorded = moves.filter((m) => m.machine === model.machine)
    const counted = new Map(recorded.map((m) => [`${m.from}|${m.to}|${m.event}`, m.n]))
    const transitions: StatechartTransition[] = model.transitions.map((t) => ({
      ...t,
      count: counted.get(`${t.from}|${t.to}|${t.event}`) ?? 0,
      inModel: true,
    }))
    const inModel = new Set(model.transitions.map((t) => `${t.from}|${t.to}|${t.event}`))
    for (const m of recorded) {
      if (!inModel.has(`${m.from}|${m.to}|${m.event}`))
        transitions.push({ from: m.from, to: m.to, event: m.event, count: m.n, inModel: false })
    }
    const states: StatechartState[] = model.states.map(({ state, parent, leaf }) => ({
      state,
      parent,
      leaf,
      now: now.filter((r) => within(r.leaf, state)).reduce((sum, r) => sum + r.n, 0),
      entered:
        recorded
          .filter((m) => within(m.to, state) && !within(m.from, state))
          .reduce((sum, m) => sum + m.n, 0) + (within(model.initial, state) ? created : 0),
      left: recorded
        .filter((m) => within(m.from, state) && !within(m.to, state))
        .reduce((sum, m) => sum + m.n, 0),
    }))
    return {
      machine: model.machine,
      subject: model.subject,
      initial: model.initial,
      total: now.reduce((sum, r) => sum + r.n, 0),
      created,
      states,
      transitions,
    }
  }
  return {
    ...range,
    machines: [
      chart(journeyModel, journeyNow, journeyCreated[0]?.n ?? 0),
      chart(loanModel, loanNow, loansCreated[0]?.n ?? 0),
    ],
  }
}

export interface PageQuery {
  page: number
  perPage: number
}

/**
 * The clients or loans in one state now (a parent: in any of its leaves), oldest first. `since` is the last
 * transition into the leaf from elsewhere, read for the page's rows only (the history index by subject).
 */
export async function stateMembers(
  db: DbOrTx,
  machine: StatechartMachine,
  state: string,
  q: PageQuery,
): Promise<{ items: StateMember[]; total: number }> {
  const model = statechartModels[machine]
  if (!model.states.some((s) => s.state === state)) throw notFound('State')
  const offset = (q.page - 1) * q.perPage
  const leaves = model.leaves.filter((leaf) => within(leaf, state))
  const entered = (subject: SQL, leaf: SQL) =>
    sql<Date | null>`(select max(${stateTransition.at}) from ${stateTransition}
      where ${stateTransition.machine} = ${machine} and ${stateTransition.subjectId} = ${subject}
        and ${stateTransition.toState} = ${leaf} and ${stateTransition.fromState} <> ${leaf})`.mapWith(
      stateTransition.at,
    )
  const inLeaves = (expression: SQL | typeof clientJourney.step) =>
    sql`${expression} in (${sql.join(
      leaves.map((leaf) => sql`${leaf}`),
      sql`, `,
    )})`
  if (machine === 'clientJourney') {
    const where = inLeaves(clientJourney.step)
    const [total] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(clientJourney)
      .where(where)
    const rows = await db
      .select({
        clientId: clientJourney.clientId,
        leaf: clientJourney.step,
        createdAt: client.createdAt,
        since: entered(sql`${clientJourney.clientId}`, sql`${clientJourney.step}`),
      })
      .from(clientJourney)
      .innerJoin(client, eq(client.id, clientJourney.clientId))
      .where(where)
      .orderBy(asc(clientJourney.clientId))
      .limit(q.perPage)
      .offset(offset)
    return {
      total: total?.n ?? 0,
      items: rows.map((r) => ({
        id: r.clientId,
        clientId: r.clientId,
        summary: r.leaf,
        state: r.leaf,
        since: (r.since ?? r.createdAt).toISOString(),
      })),
    }
  }
  const where = inLeaves(loanLeafSql)
  const [total] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(loan)
    .where(where)
  const rows = await db
    .select({
      id: loan.id,
      clientId: loan.clientId,
      leaf: loanLeafSql,
      createdAt: loan.createdAt,
      since: entered(sql`${loan.id}`, loanLeafSql),
    })
    .from(loan)
    .where(where)
    .orderBy(asc(loan.id))
    .limit(q.perPage)
    .offset(offset)
  return {
    total: total?.n ?? 0,
    items: rows.map((r) => ({
      id: r.id,
      clientId: r.clientId,
      summary: loanNumberOf(r.id),
      state: r.leaf,
      since: (r.since ?? r.createdAt).toISOString(),
    })),
  }
}
