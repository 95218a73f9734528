/**
 * The sandbox panel (issue 20 item 1; docs/decisions/0039-sandbox-panel.md): in a browser holding the QA cookie on
 * a sandbox deployment, every page's sandbox banner offers the scenarios (domain/sandbox/scenarios.ts). Picking
 * one runs it on the server for a fresh client (domain/contract/sandbox-qa.ts): the answer logs this browser in as
 * that client (its token arrives like a login's) and names the page the client's journey is on, which the panel
 * links to. The list is open on arrival, so it is two clicks from any page: pick the state, open its page. (The
 * panel does not move the browser itself: features link, machines route, tests/features/features-do-not-navigate.)
 *
 * Loaded on its own (src/ui/layout/sandbox-banner.tsx imports it lazily), with its texts (the `sandbox` bundle),
 * so no visitor without the cookie downloads any of it.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { listQaScenarios, runQaScenario } from '../../../domain/contract/sandbox-qa'
import type { ScenarioSummary } from '../../../domain/contract/sandbox-scenarios'
import { SANDBOX_COOKIE } from '../../../domain/journey/routing'
import { DEFAULT_OVERDUE_DAYS, MAX_SCENARIO_DAYS } from '../../../domain/sandbox/scenarios'
import { useApi } from '../../app/app-context'
import { removeCookie } from '../../app/cookies'
import { fmt, useMessages } from '../../i18n/messages'

const HIDDEN_KEY = 'hiram.sandbox-panel.hidden'

type Group = 'journey' | 'application' | 'loan'
const groupOf = (name: string): Group =>
  name.startsWith('journey-') ? 'journey' : name.startsWith('loan-') ? 'loan' : 'application'

const readHidden = () => {
  try {
    return sessionStorage.getItem(HIDDEN_KEY) === '1'
  } catch {
    return false
  }
}

export default function SandboxPanel() {
  const t = useMessages().sandbox.panel
  const api = useApi()
  const daysId = useId()
  const [hidden, setHidden] = useState(readHidden)
  const [left, setLeft] = useState(false)
  const [days, setDays] = useState(String(DEFAULT_OVERDUE_DAYS))
  // Open on arrival; it closes once a scenario has run, so the link to the client's page is in sight.
  const [open, setOpen] = useState(true)
  const scenarios = useQuery({
    queryKey: ['sandbox', 'scenarios'],
    queryFn: ({ signal }) => api.call(listQaScenarios, {}, { signal }),
    select: (page) => page.items,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const run = useMutation({
    mutationFn: ({ scenario, days }: { scenario: ScenarioSummary; days: number | undefined }) =>
      api.call(runQaScenario, { params: { name: scenario.name }, body: days === undefined ? {} : { days } }),
    onSuccess: () => setOpen(false),
  })

  const toggle = (next: boolean) => {
    setHidden(next)
    try {
      sessionStorage.setItem(HIDDEN_KEY, next ? '1' : '0')
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
  }
  if (left) return <p role="status">{t.left}</p>
  if (hidden)
    return (
      <button
        type="button"
        className="button button--ghost sandbox-panel__show"
        onClick={() => toggle(false)}
      >
        {t.show}
      </button>
    )

  const dayCount = Number(days)
  const validDays = Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= MAX_SCENARIO_DAYS
  const groups: Group[] = ['journey', 'application', 'loan']
  const pending = run.isPending ? run.variables?.scenario : null
  return (
    <section className="sandbox-panel" aria-label={t.label}>
      <details
        className="sandbox-panel__scenarios"
        open={open}
        onToggle={(event) => setOpen(event.currentTarget.open)}
      >
        <summary>{t.scenarios}</summary>
        <p>{t.lead}</p>
        <p className="field">
          <label htmlFor={daysId}>{t.days}</label>
          <input
            id={daysId}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_SCENARIO_DAYS}
            value={days}
            aria-invalid={!validDays}
            onChange={(event) => setDays(event.target.value)}
          />
        </p>
        {scenarios.isError ? <p role="alert">{t.loadFailed}</p> : null}
        {groups.map((group) => {
          const inGroup = (scenarios.data ?? []).filter((s) => groupOf(s.name) === group)
          if (inGroup.length === 0) return null
          return (
            <fieldset key={group} className="sandbox-panel__group">
              <legend>{t.groups[group]}</legend>
              <ul className="sandbox-panel__list">
                {inGroup.map((scenario) => (
                  <li key={scenario.name}>
                    <button
                      type="button"
                      className="button button--secondary"
                      title={scenario.description}
                      disabled={run.isPending || (scenario.takesDays && !validDays)}
                      onClick={() =>
                        run.mutate({ scenario, days: scenario.takesDays ? dayCount : undefined })
                      }
                    >
                      {scenario.takesDays
                        ? fmt(t.withDays, { title: scenario.title, days: validDays ? dayCount : '?' })
                        : scenario.title}
                    </button>
                  </li>
                ))}
              </ul>
            </fieldset>
          )
        })}
      </details>
      <p role="status" className="sandbox-panel__status">
        {pending
          ? fmt(t.running, { title: pending.title })
          : run.data
            ? fmt(t.done, {
                what: run.data.what,
                phone: run.data.login.phone,
                password: run.data.login.password ?? '',
              })
            : ''}
      </p>
      {run.data && !run.isPending ? (
        <p>
          <Link to={run.data.destination as never} className="button button--primary">
            {fmt(t.open, { page: run.data.destination })}
          </Link>
        </p>
      ) : null}
      {run.isError ? <p role="alert">{fmt(t.failed, { message: (run.error as Error).message })}</p> : null}
      <p className="button-row">
        <button type="button" className="button button--ghost" onClick={() => toggle(true)}>
          {t.hide}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            removeCookie(SANDBOX_COOKIE)
            setLeft(true)
          }}
        >
          {t.leave}
        </button>
      </p>
    </section>
  )
}
