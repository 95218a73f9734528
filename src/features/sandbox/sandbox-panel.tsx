/**
 * The sandbox panel (issue 20 item 1; docs/decisions/0039-sandbox-panel.md): in a browser in sandbox mode on a
 * sandbox deployment (the QA cookie, the instance's sandbox mode, or a logged-in client's own), every page's
 * sandbox banner offers the scenarios (domain/sandbox/scenarios.ts). Picking one runs it on the server
 * (domain/contract/sandbox-qa.ts) for a fresh client, whose session the answer hands this browser (its token
 * arrives like a login's), or, when a client is logged in and chooses "me", for that client; either way the answer
 * names the page the client's journey is on, which the panel links to. The list is open on arrival, so it is two
 * clicks from any page: pick the state, open its page. (The panel does not move the browser itself: features link,
 * machines route, tests/features/features-do-not-navigate.)
 *
 * Loaded on its own (src/ui/layout/sandbox-banner.tsx imports it lazily), with its texts (the `sandbox` bundle),
 * so no visitor outside sandbox mode downloads any of it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import {
  listClientScenarios,
  listQaScenarios,
  runClientScenario,
  runQaScenario,
} from '../../../domain/contract/sandbox-qa'
import type { ScenarioSummary } from '../../../domain/contract/sandbox-scenarios'
import { SANDBOX_COOKIE } from '../../../domain/journey/routing'
import { DEFAULT_OVERDUE_DAYS, MAX_SCENARIO_DAYS } from '../../../domain/sandbox/scenarios'
import { useApi, useAuthActor } from '../../app/app-context'
import { removeCookie } from '../../app/cookies'
import { isPublicQueryKey } from '../../app/services'
import { fmt, useMessages } from '../../i18n/messages'

/** Why this browser is in sandbox mode (src/ui/layout/sandbox-banner.tsx). */
export interface SandboxGrants {
  /** The QA cookie. */
  qa: boolean
  /** The instance's sandbox mode. */
  instance: boolean
  /** The logged-in client's own sandbox mode. */
  client: boolean
}

/** Whom a scenario runs for: a fresh client (this browser is then logged in as them), or the client logged in. */
type Target = 'new' | 'me'

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

export default function SandboxPanel({
  grants,
  clientLoggedIn,
}: {
  grants: SandboxGrants
  clientLoggedIn: boolean
}) {
  const t = useMessages().sandbox.panel
  const api = useApi()
  const auth = useAuthActor()
  const queryClient = useQueryClient()
  const daysId = useId()
  const [hidden, setHidden] = useState(readHidden)
  const [left, setLeft] = useState(false)
  const [days, setDays] = useState(String(DEFAULT_OVERDUE_DAYS))
  // Open on arrival; it closes once a scenario has run, so the link to the client's page is in sight.
  const [open, setOpen] = useState(true)
  // A fresh client needs the QA cookie or the instance's sandbox mode; "me", a client logged in in sandbox mode.
  const mayMakeClients = grants.qa || grants.instance
  const targets: Target[] = [
    ...(mayMakeClients ? ['new' as const] : []),
    ...(clientLoggedIn ? ['me' as const] : []),
  ]
  // A fresh client by default where one may be made: QA picking one state after another gets a new client each time.
  const [chosen, setChosen] = useState<Target>(mayMakeClients ? 'new' : 'me')
  const target: Target = targets.includes(chosen) ? chosen : (targets[0] ?? 'new')
  const scenarios = useQuery({
    // The client's own list when only their switch lets them in (the public one needs the cookie or the instance's).
    queryKey: ['sandbox', 'scenarios', mayMakeClients ? 'qa' : 'client'],
    queryFn: ({ signal }) =>
      mayMakeClients
        ? api.call(listQaScenarios, {}, { signal })
        : api.call(listClientScenarios, {}, { signal }),
    select: (page) => page.items,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const run = useMutation({
    mutationFn: ({
      scenario,
      days,
      on,
    }: {
      scenario: ScenarioSummary
      days: number | undefined
      on: Target
    }) => {
      const input = { params: { name: scenario.name }, body: days === undefined ? {} : { days } }
      return on === 'me' ? api.call(runClientScenario, input) : api.call(runQaScenario, input)
    },
    onSuccess: (_, { on }) => {
      setOpen(false)
      if (on !== 'me') return
      // The same session, a changed client: what the app holds of them (profile, loan, flow) is stale.
      auth.send({ type: 'USER.RELOAD' })
      void queryClient.invalidateQueries({ predicate: (query) => !isPublicQueryKey(query.queryKey) })
    },
  })

  const toggle = (next: boolean) => {
    setHidden(next)
    try {
      sessionStorage.setItem(HIDDEN_KEY, next ? '1' : '0')
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
  }
  // The back office's switches stay on whatever this browser does: only an administrator turns them off.
  if (left) return <p role="status">{grants.instance || grants.client ? t.leftSwitchOn : t.left}</p>
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
        <p>{target === 'me' ? t.leadMe : t.lead}</p>
        {targets.length > 1 ? (
          <fieldset className="field field--choices">
            <legend className="field__label">{t.target.legend}</legend>
            <div className="choices">
              {targets.map((option) => (
                <label key={option} className="choice">
                  <input
                    type="radio"
                    name={`${daysId}-target`}
                    value={option}
                    checked={target === option}
                    onChange={() => setChosen(option)}
                  />
                  <span>{t.target[option]}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
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
                        run.mutate({
                          scenario,
                          days: scenario.takesDays ? dayCount : undefined,
                          on: target,
                        })
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
            ? run.variables?.on === 'me'
              ? fmt(t.doneMe, { what: run.data.what })
              : fmt(t.done, {
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
        {grants.qa ? (
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
        ) : null}
      </p>
    </section>
  )
}
