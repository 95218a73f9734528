/**
 * /admin/statecharts (issue 20, item 3; docs/decisions/0038-live-statecharts.md): every machine's diagram, the
 * very files docs/statecharts/ holds (generated from the machine definitions by scripts/statecharts.ts and checked
 * up to date by its --check), imported as URLs so the build ships them as they are; and for the server's
 * lifecycles the clients or loans in each state now (each count opens the list of them, linked to the client's
 * file) and the transitions over a chosen Manila date range. Tables scroll inside named regions on a phone.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import {
  getStatecharts,
  listStateMembers,
  type Statechart,
  type StatechartMachine,
} from '../../../domain/contract/statecharts'
import { journeyPhases } from '../../../domain/journey/client-journey.machine'
import type { ApiClient } from '../../api/client'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { manilaDateTime } from './admin-api'
import { AdminPager, ScrollTable } from './admin-parts'

/** docs/statecharts/<stem>.svg by stem ('client-journey'): URLs of the very files, emitted into the build. */
const diagrams: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('../../../docs/statecharts/*.svg', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ).map(([file, url]) => [file.replace(/^.*\//, '').replace(/\.svg$/, ''), url]),
)

/** The server's lifecycles and the diagram each is drawn in. */
const serverDiagram: Record<StatechartMachine, string> = {
  clientJourney: 'client-journey',
  loanLifecycle: 'loan-lifecycle',
}
const serverStems = new Set(Object.values(serverDiagram))
/** The browser's machines (machines/*.machine.ts): every other diagram (a part, `<stem>.<state>`, goes with its stem). */
const browserStems = Object.keys(diagrams)
  .filter((stem) => !serverStems.has(stem) && !stem.includes('.'))
  .sort()
/**
 * A machine too wide for one diagram is drawn as an overview plus one part per compound state (split.ts); the
 * journey as an overview of its phases plus one part per phase, shown in the phases' order (the client's order).
 */
const phaseOrder: readonly string[] = Object.keys(journeyPhases)
const rankOf = (part: string) => {
  const at = phaseOrder.indexOf(part.slice(part.indexOf('.') + 1))
  return at < 0 ? phaseOrder.length : at
}
const partsOf = (stem: string) =>
  Object.keys(diagrams)
    .filter((other) => other.startsWith(`${stem}.`))
    .sort((a, b) => rankOf(a) - rankOf(b) || a.localeCompare(b))

export const STATE_MEMBERS_PER_PAGE = 20

export const statechartQueryKeys = {
  charts: (from: string, to: string) => ['admin', 'statecharts', from, to] as const,
  members: (machine: string, state: string, page: number) =>
    ['admin', 'statecharts', 'members', machine, state, page] as const,
}

const fetchCharts = (api: ApiClient, range: Range, signal?: AbortSignal) =>
  api.call(
    getStatecharts,
    { query: { from: range.from || undefined, to: range.to || undefined } },
    { signal },
  )

interface Range {
  from: string
  to: string
}

/** "active.on_terms.overdue" reads as "overdue", indented under its parents. */
const lastPart = (state: string) => state.slice(state.lastIndexOf('.') + 1).replaceAll('_', ' ')
const depthOf = (state: string) => state.split('.').length - 1

function Diagram({ stem, name }: { stem: string; name: string }) {
  const m = useMessages().admin.statecharts
  if (!diagrams[stem]) return <p>{m.noDiagram}</p>
  return (
    <>
      <Figure url={diagrams[stem]!} name={name} />
      {partsOf(stem).map((part) => (
        <Figure
          key={part}
          url={diagrams[part]!}
          name={`${name}: ${part.slice(stem.length + 1).replaceAll('_', ' ')}`}
        />
      ))}
    </>
  )
}

function Figure({ url, name }: { url: string; name: string }) {
  const m = useMessages().admin.statecharts
  return (
    <figure className="statechart">
      <img
        src={url}
        alt={fmt(m.diagramAlt, { name })}
        loading="lazy"
        style={{ maxWidth: '100%', height: 'auto' }}
      />
      <figcaption>
        <a href={url} target="_blank" rel="noopener">
          {fmt(m.openFull, { name })}
        </a>
      </figcaption>
    </figure>
  )
}

export function Statecharts() {
  const m = useMessages().admin
  const s = m.statecharts
  const api = useApi()
  const [draft, setDraft] = useState<Range>({ from: '', to: '' })
  const [range, setRange] = useState<Range>({ from: '', to: '' })
  const charts = useQuery({
    queryKey: statechartQueryKeys.charts(range.from, range.to),
    queryFn: ({ signal }) => fetchCharts(api, range, signal),
    placeholderData: (previous) => previous,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (draft.from === range.from && draft.to === range.to) void charts.refetch()
    else setRange(draft)
  }
  const machines = s.machines as Record<string, string>
  return (
    <>
      <section className="section" aria-labelledby="statecharts-server-title">
        <h2 id="statecharts-server-title" className="section__title">
          {s.serverTitle}
        </h2>
        <form aria-label={s.range.label} onSubmit={submit}>
          <fieldset>
            <legend>{s.range.label}</legend>
            <TextField
              label={s.range.from}
              type="date"
              name="from"
              value={draft.from}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            />
            <TextField
              label={s.range.to}
              type="date"
              name="to"
              value={draft.to}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            />
          </fieldset>
          <p className="button-row">
            <button type="submit" className="button">
              {s.range.submit}
            </button>
          </p>
        </form>
        {charts.isPending ? <p role="status">{m.loading}</p> : null}
        {charts.isError ? (
          <div role="alert">
            <p>
              {charts.error instanceof Error && charts.error.message ? charts.error.message : m.loadFailed}
            </p>
            <button type="button" className="button button--secondary" onClick={() => charts.refetch()}>
              {m.retry}
            </button>
          </div>
        ) : null}
        {charts.data ? (
          <>
            <p role="status">{fmt(s.range.shown, { from: charts.data.from, to: charts.data.to })}</p>
            {charts.data.machines.map((chart) => (
              <ServerChart
                key={chart.machine}
                chart={chart}
                name={machines[chart.machine] ?? chart.machine}
              />
            ))}
          </>
        ) : null}
      </section>
      <section className="section" aria-labelledby="statecharts-browser-title">
        <h2 id="statecharts-browser-title" className="section__title">
          {s.browserTitle}
        </h2>
        <p>{s.browserLead}</p>
        {browserStems.map((stem) => (
          <section key={stem} aria-labelledby={`statechart-${stem}`}>
            <h3 id={`statechart-${stem}`}>{stem.replaceAll('-', ' ')}</h3>
            <Diagram stem={stem} name={stem.replaceAll('-', ' ')} />
          </section>
        ))}
      </section>
    </>
  )
}

function ServerChart({ chart, name }: { chart: Statechart; name: string }) {
  const s = useMessages().admin.statecharts
  const [open, setOpen] = useState<string | null>(null)
  const [showUnused, setShowUnused] = useState(false)
  const subject = (s.subjects as Record<string, string>)[chart.subject] ?? chart.subject
  const left = new Map(chart.states.map((state) => [state.state, state.left]))
  const transitions = chart.transitions.filter((t) => showUnused || t.count > 0)
  const titleId = `statechart-${chart.machine}`
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId}>{name}</h3>
      <Diagram stem={serverDiagram[chart.machine]} name={name} />
      <p>{fmt(s.states.total, { total: chart.total, created: chart.created })}</p>
      <ScrollTable label={fmt(s.states.region, { name })}>
        <table>
          <caption className="visually-hidden">{fmt(s.states.caption, { name })}</caption>
          <thead>
            <tr>
              <th scope="col">{s.states.state}</th>
              <th scope="col">{s.states.now}</th>
              <th scope="col">{s.states.entered}</th>
              <th scope="col">{s.states.left}</th>
            </tr>
          </thead>
          <tbody>
            {chart.states.map((state) => (
              <tr key={state.state}>
                <th scope="row" style={{ paddingInlineStart: `${depthOf(state.state) * 1.25}em` }}>
                  <code title={state.state}>{lastPart(state.state)}</code>
                </th>
                <td>
                  <button
                    type="button"
                    className="button button--secondary button--sm"
                    aria-label={fmt(s.states.show, { count: state.now, subject, state: state.state })}
                    aria-expanded={open === state.state}
                    aria-controls={open === state.state ? `${titleId}-members` : undefined}
                    disabled={state.now === 0}
                    onClick={() => setOpen(open === state.state ? null : state.state)}
                  >
                    {state.now}
                  </button>
                </td>
                <td>{state.entered}</td>
                <td>{state.left}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      {open ? (
        <StateMembers
          id={`${titleId}-members`}
          machine={chart.machine}
          state={open}
          subject={subject}
          onClose={() => setOpen(null)}
        />
      ) : null}
      <ScrollTable label={fmt(s.transitions.region, { name })}>
        <table>
          <caption className="visually-hidden">{fmt(s.transitions.caption, { name })}</caption>
          <thead>
            <tr>
              <th scope="col">{s.transitions.from}</th>
              <th scope="col">{s.transitions.event}</th>
              <th scope="col">{s.transitions.to}</th>
              <th scope="col">{s.transitions.count}</th>
              <th scope="col">{s.transitions.share}</th>
            </tr>
          </thead>
          <tbody>
            {transitions.map((t) => {
              const exits = left.get(t.from) ?? 0
              const share = t.from !== t.to && exits > 0 ? `${Math.round((t.count / exits) * 100)}%` : '–'
              return (
                <tr key={`${t.from}|${t.event}|${t.to}`}>
                  <td>
                    <code>{t.from}</code>
                  </td>
                  <td>
                    <code>{t.event}</code>
                    {t.inModel ? null : ` ${s.transitions.oldModel}`}
                  </td>
                  <td>
                    <code>{t.to}</code>
                  </td>
                  <td>{t.count}</td>
                  <td>{share}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </ScrollTable>
      <p className="button-row">
        <button
          type="button"
          className="button button--secondary button--sm"
          aria-pressed={showUnused}
          onClick={() => setShowUnused(!showUnused)}
        >
          {showUnused ? s.transitions.hideUnused : s.transitions.showAll}
        </button>
      </p>
    </section>
  )
}

function StateMembers({
  id,
  machine,
  state,
  subject,
  onClose,
}: {
  id: string
  machine: StatechartMachine
  state: string
  subject: string
  onClose: () => void
}) {
  const m = useMessages().admin
  const s = m.statecharts.members
  const api = useApi()
  const [page, setPage] = useState(1)
  const list = useQuery({
    queryKey: statechartQueryKeys.members(machine, state, page),
    queryFn: ({ signal }) =>
      api.call(
        listStateMembers,
        { params: { machine, state }, query: { page, perPage: STATE_MEMBERS_PER_PAGE } },
        { signal },
      ),
    placeholderData: (previous) => previous,
  })
  const words = { subject, state }
  const data = list.data
  const pages = Math.max(1, data?.totalPages ?? 1)
  return (
    <section id={id} className="section" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>{fmt(s.title, words)}</h4>
      <p className="button-row">
        <button type="button" className="button button--secondary button--sm" onClick={onClose}>
          {s.close}
        </button>
      </p>
      {list.isPending ? <p role="status">{m.loading}</p> : null}
      {list.isError ? (
        <div role="alert">
          <p>{m.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => list.refetch()}>
            {m.retry}
          </button>
        </div>
      ) : null}
      {data && data.items.length === 0 ? <p>{s.empty}</p> : null}
      {data && data.items.length > 0 ? (
        <ScrollTable label={fmt(s.region, words)}>
          <table>
            <caption className="visually-hidden">{fmt(s.caption, words)}</caption>
            <thead>
              <tr>
                <th scope="col">{s.client}</th>
                <th scope="col">{s.summary}</th>
                <th scope="col">{s.state}</th>
                <th scope="col">{s.since}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((member) => (
                <tr key={member.id}>
                  <td>
                    <Link to="/admin/clients/$id" params={{ id: String(member.clientId) }}>
                      {fmt(s.clientLink, { id: member.clientId })}
                    </Link>
                  </td>
                  <td>{member.summary}</td>
                  <td>
                    <code>{member.state}</code>
                  </td>
                  <td>{manilaDateTime(member.since)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      ) : null}
      {data ? (
        <AdminPager
          label={fmt(s.paging, words)}
          position={fmt(s.position, { page, pages, total: data.total })}
          previous={s.previous}
          next={s.next}
          page={page}
          pages={pages}
          onPage={setPage}
        />
      ) : null}
    </section>
  )
}
