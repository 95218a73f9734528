/**
 * /profile/rollover/{id} (issue 17 item 5): extending the active loan. Without an id the page offers the best
 * available choice (the extension in progress, else the cheapest available); with one, that extension. The steps
 * (machines/extension-flow.machine.ts): choose -> review the disclosure -> sign with the SMS code -> pay the fee.
 * The new due date takes effect when the fee posts: while the fee is being paid the payment watch
 * (src/app/payment-watch.tsx) asks for the loan every few seconds, each answer goes to the flow (LOAN_UPDATED),
 * and the extension in effect ends it with the new due date on screen.
 *
 * The page never navigates: the flow's state decides what it shows; links lead on.
 */
import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import { formatDate, formatPhp } from '../../../domain/format'
import {
  type ExtensionFlowSnapshot,
  type ExtensionStep,
  extensionFlowMachine,
  extensionOptions,
  stepOf,
} from '../../../machines/extension-flow.machine'
import { useApi } from '../../app/app-context'
import { PaymentWatch } from '../../app/payment-watch'
import { extensionFlowActors, useActiveLoan } from '../../app/servicing'
import { fmt, useMessages } from '../../i18n/messages'
import { ChooseStep, ReviewStep, STEP_TITLE_ID, StepTitle } from './choose-and-review'
import { PayStep } from './pay-step'
import { SignStep } from './sign-step'
import type { ExtensionTexts } from './texts'

/** `requestedId`: the id in the address, or null; `pollMs`: the payment watch's interval (tests). */
export function ExtensionScreen({
  requestedId = null,
  pollMs,
}: {
  requestedId?: number | null
  pollMs?: number
}) {
  const m = useMessages()
  const t = m.application.extension
  const query = useActiveLoan()
  let body: ReactNode
  // An answer on screen stays while a later one is asked for (or fails): the flow keeps its place.
  if (query.data !== undefined)
    body = query.data ? (
      <ExtensionFlow loan={query.data} requestedId={requestedId} pollMs={pollMs} />
    ) : (
      <>
        <p role="status">{t.noLoan}</p>
        <p className="button-row">
          <Link to="/profile/my-loan" className="button button--primary">
            {t.toMyLoan}
          </Link>
        </p>
      </>
    )
  else if (query.isError)
    body = (
      <div className="callout callout--warning" role="alert">
        <p className="callout__body">{m.application.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          {m.application.retry}
        </button>
      </div>
    )
  else body = <p role="status">{m.application.loadingData}</p>
  return (
    <section className="page page--narrow extension-screen" aria-labelledby="extension-title">
      <div className="page-header">
        <h1 id="extension-title" className="page-header__title">
          {m.titles.profile_rollover}
        </h1>
        <p className="lead">{t.lead}</p>
      </div>
      {body}
    </section>
  )
}

const steps: ExtensionStep[] = ['choose', 'review', 'sign', 'pay']

function ExtensionFlow({
  loan,
  requestedId,
  pollMs,
}: {
  loan: ActiveLoan
  requestedId: number | null
  pollMs?: number
}) {
  const api = useApi()
  const queryClient = useQueryClient()
  const t = useMessages().application.extension
  const [machine] = useState(() =>
    extensionFlowMachine.provide({ actors: extensionFlowActors(api, queryClient) }),
  )
  const [input] = useState(() => ({ rollovers: loan.rollovers, dueDate: loan.dueDate, requestedId }))
  const actor = useActorRef(machine, { input })
  const snapshot = useSelector(actor, (s) => s)
  // Every answer of the active loan (the payment watch's polls, the refetch after a choice) goes to the flow.
  useEffect(() => {
    actor.send({ type: 'LOAN_UPDATED', rollovers: loan.rollovers, dueDate: loan.dueDate })
  }, [actor, loan])
  const step = stepOf(snapshot)
  const where = step ?? String(snapshot.value)
  // A new step takes the focus to its title, so a screen reader reads where the client now is.
  const firstPlace = useRef(where)
  useEffect(() => {
    if (where !== firstPlace.current) document.getElementById(STEP_TITLE_ID)?.focus()
  }, [where])
  // From the pay step on, the payment watch asks for the loan (its toast says when the fee is received); it
  // stays on once the extension is in effect, so the toast of the payment that did it is not cut short.
  const [watching, setWatching] = useState(false)
  if (step === 'pay' && !watching) setWatching(true)
  const watch = watching ? <PaymentWatch pollInterval={pollMs} /> : null
  const send = actor.send
  if (snapshot.matches('inEffect'))
    return (
      <>
        {watch}
        <InEffect snapshot={snapshot} t={t} />
      </>
    )
  if (snapshot.matches('unavailable')) return <Unavailable snapshot={snapshot} t={t} />
  return (
    <div className="stack">
      {watch}
      {step ? <StepList current={step} t={t} /> : null}
      {step === 'choose' || step === 'review' ? <LoanNow loan={loan} t={t} /> : null}
      {step === 'choose' ? <ChooseStep snapshot={snapshot} send={send} /> : null}
      {step === 'review' ? <ReviewStep snapshot={snapshot} send={send} /> : null}
      {step === 'sign' ? <SignStep snapshot={snapshot} send={send} /> : null}
      {step === 'pay' ? <PayStep snapshot={snapshot} send={send} /> : null}
    </div>
  )
}

function StepList({ current, t }: { current: ExtensionStep; t: ExtensionTexts }) {
  return (
    <ol className="chips extension-steps" aria-label={t.stepsLabel}>
      {steps.map((step, index) => (
        <li key={step} aria-current={step === current ? 'step' : undefined} data-step={step}>
          <span className={step === current ? 'chip' : 'chip chip--static'}>
            {index + 1}. {t.steps[step]}
          </span>
        </li>
      ))}
    </ol>
  )
}

function LoanNow({ loan, t }: { loan: ActiveLoan; t: ExtensionTexts }) {
  const rows: [string, string, string][] = [['due-date-now', t.dueDateNow, formatDate(loan.dueDate)]]
  if (loan.extensions)
    rows.push([
      'extensions-used',
      t.extensionsUsed,
      fmt(t.extensionsUsedValue, { taken: loan.extensions.taken, max: loan.extensions.max }),
    ])
  return (
    <dl className="details-list card" aria-label={t.loanLabel}>
      {rows.map(([name, label, value]) => (
        <div key={name} className="details-list__row" data-figure={name}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function InEffect({ snapshot, t }: { snapshot: ExtensionFlowSnapshot; t: ExtensionTexts }) {
  const { rollover } = snapshot.context
  return (
    <section className="card stack" aria-labelledby={STEP_TITLE_ID} data-outcome="in-effect">
      <StepTitle>{t.done.title}</StepTitle>
      {rollover ? (
        <div className="callout callout--success" role="status">
          <p className="callout__body">
            {fmt(t.done.body, {
              fee: formatPhp(rollover.fee.amount),
              date: formatDate(rollover.newDueDate),
            })}
          </p>
        </div>
      ) : null}
      <p className="button-row">
        <Link to="/profile/my-loan" className="button button--primary">
          {t.toMyLoan}
        </Link>
      </p>
    </section>
  )
}

function Unavailable({ snapshot, t }: { snapshot: ExtensionFlowSnapshot; t: ExtensionTexts }) {
  const reasons = [
    ...new Set(
      extensionOptions(snapshot.context.rollovers).flatMap((r) => (r.refusal ? [r.refusal.message] : [])),
    ),
  ]
  return (
    <section className="card stack" aria-labelledby={STEP_TITLE_ID} data-outcome="unavailable">
      <StepTitle>{t.unavailable.title}</StepTitle>
      {reasons.length ? (
        <div className="callout callout--warning">
          {reasons.map((reason) => (
            <p key={reason} className="callout__body" data-refusal>
              {reason}
            </p>
          ))}
        </div>
      ) : null}
      <p>{t.unavailable.body}</p>
      <p className="button-row">
        <Link to="/profile/my-loan" className="button button--primary">
          {t.toMyLoan}
        </Link>
        <Link to="/repay" className="button button--ghost">
          {t.howToRepay}
        </Link>
      </p>
    </section>
  )
}
