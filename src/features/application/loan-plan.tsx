/**
 * How My loan is being repaid (issue 17 item 5; spec sections 3 Loan and Payment schedule, 4 Overdue), from the
 * active loan's `plan`:
 * - on its terms: the extensions (rollovers) in effect with the due date each gave, the ones on offer (type, fee,
 *   new due date, what the loan may still cost after it, and a link to /profile/rollover/{id}, or why not), a
 *   chosen one waiting for its fee, and how many were used of the most allowed; and the payment-schedule special
 *   offers ("Split what you owe"), each accepted here in steps (machines/schedule-offer.machine.ts);
 * - on a schedule: its instalments (an unpaid one past its due date is overdue: dueDays above 0), what to pay now
 *   and a link to the repayment page.
 *
 * The accept flow's actor lives here, above both plans, so the news that the schedule is agreed stays on screen
 * when the loan's answer changes to the scheduled plan. Nothing here navigates: links lead on.
 */
import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useRef, useState } from 'react'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import type { PaymentSchedule, Rollover } from '../../../domain/contract/servicing-answers'
import { formatPhp } from '../../../domain/format'
import {
  type ScheduleOfferEvent,
  type ScheduleOfferSnapshot,
  scheduleOfferMachine,
  stepOf,
} from '../../../machines/schedule-offer.machine'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { formatLongDate } from './format'
import { HistoryBlock, ScrollTable } from './loan-history'
import { type Figure, Figures, QueryGate } from './parts'
import { scheduleOfferActors, usePaymentSchedule } from './schedule-api'
import {
  problemText,
  ReviewStep,
  type ScheduleTexts,
  SignStep,
  STEP_TITLE_ID,
  StepTitle,
  unbroken,
} from './schedule-offer-steps'

type ExtensionTexts = ReturnType<typeof useMessages>['repay']['extensions']

export function LoanPlan({ loan, singleLink }: { loan: ActiveLoan; singleLink: boolean }) {
  const api = useApi()
  const queryClient = useQueryClient()
  const t = useMessages().repay.schedule
  const [machine] = useState(() =>
    scheduleOfferMachine.provide({ actors: scheduleOfferActors(api, queryClient) }),
  )
  const actor = useActorRef(machine)
  const snapshot = useSelector(actor, (s) => s)
  const accepted = snapshot.matches('accepted')
  const scheduled = loan.plan === 'scheduled'
  return (
    <>
      <div role="status">
        {accepted ? (
          <div className="callout callout--success" data-outcome="schedule-accepted">
            <p className="callout__body">{t.accepted}</p>
          </div>
        ) : null}
      </div>
      {scheduled ? <ScheduleSection loan={loan} singleLink={singleLink} /> : null}
      {scheduled ? null : <Extensions loan={loan} singleLink={singleLink} />}
      {scheduled || accepted ? null : (
        <ScheduleOffers loan={loan} singleLink={singleLink} snapshot={snapshot} send={actor.send} />
      )}
    </>
  )
}

/** Figures inside a card: the same list as `Figures`, without a card of its own. */
function CardFigures({ label, figures }: { label: string; figures: Figure[] }) {
  return (
    <dl className="details-list" aria-label={label}>
      {figures.map((f) => (
        <div key={f.name} className="details-list__row" data-figure={f.name}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  )
}

// ---------------------------------------------------------------------------------------------------------
// Extensions

/** Chosen: its invoice is unpaid (the contract's rolloverInvoiceSchema), payable until its last day. */
const unpaidInvoiceOf = (rollover: Rollover) => rollover.invoices.find((i) => i.status === 'unpaid')

function Extensions({ loan, singleLink }: { loan: ActiveLoan; singleLink: boolean }) {
  const t = useMessages().repay.extensions
  const offered = loan.rollovers
    .filter((r) => r.status === 'inactive')
    .sort((a, b) => a.fee.amount - b.fee.amount || a.term - b.term || a.id - b.id)
  const inEffect = loan.rollovers.filter(
    (r) => r.status === 'active' && r.invoices.some((i) => i.status === 'paid'),
  )
  if (!offered.length && !inEffect.length) return null
  return (
    <HistoryBlock id="extensions-title" title={t.title}>
      <p className="muted">{t.lead}</p>
      {loan.extensions ? (
        <Figures
          label={t.usedLabel}
          figures={[
            {
              name: 'extensions-used',
              label: t.used,
              value: fmt(t.usedValue, { taken: loan.extensions.taken, max: loan.extensions.max }),
            },
          ]}
        />
      ) : null}
      {inEffect.length ? (
        <section aria-labelledby="extensions-in-effect" className="stack">
          <h3 id="extensions-in-effect" className="card__title">
            {t.inEffectTitle}
          </h3>
          <ul className="stack">
            {inEffect.map((r) => (
              <li key={r.id} data-rollover={r.id} data-status="active">
                {fmt(t.inEffect, {
                  term: r.term,
                  fee: formatPhp(r.fee.amount),
                  date: formatLongDate(r.newDueDate),
                })}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {offered.length ? (
        <section aria-labelledby="extensions-offered" className="stack">
          <h3 id="extensions-offered" className="card__title">
            {t.choicesTitle}
          </h3>
          <ul className="grid">
            {offered.map((r) => (
              <ExtensionChoice key={r.id} rollover={r} singleLink={singleLink} t={t} />
            ))}
          </ul>
          {singleLink && offered.some((r) => r.available) ? <p className="muted">{t.logIn}</p> : null}
        </section>
      ) : null}
    </HistoryBlock>
  )
}

function ExtensionChoice({
  rollover,
  singleLink,
  t,
}: {
  rollover: Rollover
  singleLink: boolean
  t: ExtensionTexts
}) {
  const type = t.types[rollover.type]
  const waiting = unpaidInvoiceOf(rollover)
  const link = (text: string) =>
    singleLink ? null : (
      <p className="button-row">
        <Link
          to="/profile/rollover/{-$id}"
          params={{ id: String(rollover.id) }}
          className={`button ${waiting ? 'button--primary' : 'button--secondary'}`}
        >
          {text}
        </Link>
      </p>
    )
  return (
    <li
      className="card stack"
      data-rollover={rollover.id}
      data-status={rollover.status}
      data-invoice={waiting ? 'unpaid' : (rollover.invoices[0]?.status ?? 'none')}
    >
      <h4 className="card__title">{fmt(t.option, { type, term: rollover.term })}</h4>
      <CardFigures
        label={fmt(t.figuresLabel, { type, term: rollover.term })}
        figures={[
          { name: 'fee', label: t.fee, value: formatPhp(rollover.fee.amount) },
          { name: 'new-due-date', label: t.newDueDate, value: formatLongDate(rollover.newDueDate) },
          {
            name: 'legal-room-after',
            label: t.legalRoomAfter,
            value: formatPhp(rollover.legalRoomAfter.amount),
          },
        ]}
      />
      {waiting ? (
        <p data-waiting>
          {waiting.payableUntil
            ? fmt(t.waiting, {
                fee: formatPhp(waiting.amount.amount),
                date: formatLongDate(waiting.payableUntil),
              })
            : fmt(t.waitingNoDate, { fee: formatPhp(waiting.amount.amount) })}
        </p>
      ) : null}
      {rollover.available ? (
        link(fmt(waiting ? t.continue : t.choose, { term: rollover.term }))
      ) : (
        <p className="callout callout--warning" data-refusal={rollover.refusal?.code ?? 'unavailable'}>
          {rollover.refusal?.message ? fmt(t.refused, { reason: rollover.refusal.message }) : t.unavailable}
        </p>
      )}
    </li>
  )
}

// ---------------------------------------------------------------------------------------------------------
// The schedule in force

function ScheduleSection({ loan, singleLink }: { loan: ActiveLoan; singleLink: boolean }) {
  const t = useMessages().repay.schedule
  // Asked again whenever a payment changes the loan's figures (the payment watch puts them in the cache).
  const query = usePaymentSchedule(true, `${loan.amountDue.amount}:${loan.paidTotal?.amount ?? 0}`)
  return (
    <HistoryBlock id="schedule-title" title={t.title}>
      <QueryGate query={query}>
        {(schedule) => (schedule ? <Schedule schedule={schedule} singleLink={singleLink} t={t} /> : null)}
      </QueryGate>
    </HistoryBlock>
  )
}

/** "3 days overdue" for an unpaid instalment past its due date (spec section 4: dueDays above 0), else null. */
export function instalmentOverdueText(
  payment: Pick<PaymentSchedule['payments'][number], 'status' | 'dueDays'>,
  t: ScheduleTexts,
): string | null {
  if (payment.status !== 'unpaid' || payment.dueDays <= 0) return null
  return payment.dueDays === 1 ? t.overdueOne : fmt(t.overdue, { days: payment.dueDays })
}

function Schedule({
  schedule,
  singleLink,
  t,
}: {
  schedule: PaymentSchedule
  singleLink: boolean
  t: ScheduleTexts
}) {
  const toPayNow = formatPhp(schedule.toPayNow.amount)
  const c = t.columns
  return (
    <>
      <Figures
        label={t.payNowLabel}
        figures={[
          { name: 'schedule-type', label: t.typeLabel, value: t.types[schedule.type] },
          { name: 'to-pay-now', label: t.payNow, value: toPayNow },
        ]}
      />
      {singleLink || schedule.toPayNow.amount <= 0 ? null : (
        <p className="button-row">
          <Link to="/profile/repayment" search={{ purpose: 'instalment' }} className="button button--primary">
            {fmt(t.pay, { amount: toPayNow })}
          </Link>
        </p>
      )}
      <ScrollTable
        label={t.tableLabel}
        columns={[[c.seq], [c.dueDate], [c.amount, true], [c.paid, true], [c.status]]}
      >
        {schedule.payments.map((payment) => {
          const overdue = instalmentOverdueText(payment, t)
          return (
            <tr
              key={payment.id}
              data-instalment={payment.seq}
              data-status={payment.status}
              data-overdue={overdue ? true : undefined}
            >
              <td>{payment.seq}</td>
              <td>{unbroken(formatLongDate(payment.dueDate))}</td>
              <td className="num">{unbroken(formatPhp(payment.amount.amount))}</td>
              <td className="num">{unbroken(formatPhp(payment.paid.amount))}</td>
              <td>
                {t.status[payment.status]}
                {overdue ? (
                  <>
                    {' '}
                    <span className="badge badge--accent">{unbroken(overdue)}</span>
                  </>
                ) : null}
              </td>
            </tr>
          )
        })}
      </ScrollTable>
    </>
  )
}

// ---------------------------------------------------------------------------------------------------------
// Schedule special offers

function ScheduleOffers({
  loan,
  singleLink,
  snapshot,
  send,
}: {
  loan: ActiveLoan
  singleLink: boolean
  snapshot: ScheduleOfferSnapshot
  send: (event: ScheduleOfferEvent) => void
}) {
  const t = useMessages().repay.schedule
  const offers = (loan.specialOffers ?? []).filter((offer) => offer.available)
  const closed = snapshot.matches('closed')
  // A new step takes the focus to its title; closing returns it to the panel's. Signing and verifying are one
  // step: a refused code leaves the focus where the sign step puts it.
  const where = stepOf(snapshot) ?? String(snapshot.value)
  const firstPlace = useRef(where)
  useEffect(() => {
    if (where === firstPlace.current) return
    document.getElementById(where === 'closed' ? 'schedule-offers-title' : STEP_TITLE_ID)?.focus()
  }, [where])
  if (closed && !offers.length) return null
  const o = t.offers
  return (
    <section className="section-block" aria-labelledby="schedule-offers-title" data-offers>
      <h2 id="schedule-offers-title" className="section__title" tabIndex={-1}>
        {o.title}
      </h2>
      {closed ? (
        <>
          <p className="muted">{o.lead}</p>
          <ul className="grid">
            {offers.map((offer) => {
              const type = t.types[offer.type]
              return (
                <li key={offer.id} className="card stack" data-offer={offer.id} data-type={offer.type}>
                  <h3 className="card__title">{fmt(o.label, { type })}</h3>
                  <CardFigures
                    label={type}
                    figures={[
                      { name: 'instalments', label: o.instalments, value: String(offer.instalments) },
                      {
                        name: 'first-payment',
                        label: o.firstPayment,
                        value: fmt(o.firstPaymentValue, {
                          amount: formatPhp(offer.firstAmount.amount),
                          date: formatLongDate(offer.firstDueDate),
                        }),
                      },
                      { name: 'total', label: o.total, value: formatPhp(offer.total.amount) },
                    ]}
                  />
                  {singleLink ? null : (
                    <p className="button-row">
                      <button
                        type="button"
                        className="button button--secondary"
                        onClick={() => send({ type: 'OPEN', offerId: offer.id })}
                      >
                        {fmt(o.review, { type })}
                      </button>
                    </p>
                  )}
                </li>
              )
            })}
          </ul>
          {singleLink ? <p className="muted">{o.logIn}</p> : null}
        </>
      ) : (
        <OfferFlow snapshot={snapshot} send={send} t={t} />
      )}
    </section>
  )
}

function OfferFlow({
  snapshot,
  send,
  t,
}: {
  snapshot: ScheduleOfferSnapshot
  send: (event: ScheduleOfferEvent) => void
  t: ScheduleTexts
}) {
  const step = stepOf(snapshot)
  if (step === 'review') return <ReviewStep snapshot={snapshot} send={send} />
  if (step === 'sign') return <SignStep snapshot={snapshot} send={send} />
  const r = t.review
  if (snapshot.matches('loadFailed')) {
    const problem = problemText(snapshot.context.problem, t)
    return (
      <section className="card stack" aria-labelledby={STEP_TITLE_ID}>
        <StepTitle>{r.loadFailed}</StepTitle>
        {problem ? (
          <div className="callout callout--warning" role="alert" data-error-key={problem.key}>
            <p className="callout__body">{problem.text}</p>
          </div>
        ) : null}
        <p className="button-row">
          <button type="button" className="button button--primary" onClick={() => send({ type: 'RETRY' })}>
            {r.retry}
          </button>
          <button type="button" className="button button--ghost" onClick={() => send({ type: 'CANCEL' })}>
            {r.close}
          </button>
        </p>
      </section>
    )
  }
  return (
    <p role="status" aria-live="polite">
      {r.loading}
    </p>
  )
}
