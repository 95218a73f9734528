/**
 * After signing (flow step tmc_page): /application/accepted for a transfer, /application/accepted-cash when the
 * payout is a cash pickup with a number (spec section 2, Flow routing), and from it /application/cash-pickup, the
 * how-to-claim page the step allows beside it (domain/journey/destinations.ts, companionPages).
 * All three read GET /private/client/application/actual.
 */
import { Link } from '@tanstack/react-router'
import type { Application } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import { fmt, useMessages } from '../../i18n/messages'
import { Figures, QueryGate, ScreenFrame } from './parts'
import { useActualApplication } from './queries'

function daysText(days: number, m: { day: string; days: string }) {
  return `${days} ${days === 1 ? m.day : m.days}`
}

function pick(map: Record<string, string>, key: string | null | undefined): string {
  return (key ? map[key] : undefined) ?? map.default ?? ''
}

export function AcceptedScreen() {
  const m = useMessages().application
  const query = useActualApplication()
  return (
    <ScreenFrame title={m.accepted.title}>
      <QueryGate query={query}>
        {(application) => (
          <>
            <p>
              {fmt(m.accepted.body, {
                amount: formatPhp(application.loanAmount.amount),
                method: pick(m.accepted.methods, application.disbursementType?.type),
              })}
            </p>
            <Figures
              label={m.accepted.title}
              figures={[
                { name: 'amount', label: m.accepted.amount, value: formatPhp(application.loanAmount.amount) },
                { name: 'term', label: m.accepted.term, value: daysText(application.term.value, m) },
              ]}
            />
            <p className="button-row">
              <Link to="/profile/my-loan" className="button button--primary">
                {m.accepted.myLoan}
              </Link>
            </p>
          </>
        )}
      </QueryGate>
    </ScreenFrame>
  )
}

export function AcceptedCashScreen() {
  const m = useMessages().application
  const query = useActualApplication()
  return (
    <ScreenFrame title={m.acceptedCash.title}>
      <QueryGate query={query}>
        {(application) => (
          <>
            <p>
              {fmt(m.acceptedCash.body, {
                amount: formatPhp(application.loanAmount.amount),
                provider: pick(m.cashPickup.providers, application.disbursementType?.provider),
              })}
            </p>
            <PickupNumber application={application} />
            <p className="button-row">
              <Link to="/application/cash-pickup" className="button button--primary">
                {m.acceptedCash.howToClaim}
              </Link>
            </p>
          </>
        )}
      </QueryGate>
    </ScreenFrame>
  )
}

function PickupNumber({ application }: { application: Application }) {
  const m = useMessages().application.cashPickup
  if (!application.cashPickupNumber) return <p role="status">{m.noNumber}</p>
  return (
    <Figures
      label={m.number}
      figures={[
        { name: 'cash-pickup-number', label: m.number, value: application.cashPickupNumber },
        { name: 'amount', label: m.amount, value: formatPhp(application.loanAmount.amount) },
      ]}
    />
  )
}

export function CashPickupScreen() {
  const m = useMessages().application
  const query = useActualApplication()
  return (
    <ScreenFrame title={m.cashPickup.title}>
      <QueryGate query={query}>
        {(application) => (
          <>
            <PickupNumber application={application} />
            <h2 className="section__title">{m.cashPickup.where}</h2>
            <p data-figure="provider">
              {fmt(m.cashPickup.whereBody, {
                provider: pick(m.cashPickup.providers, application.disbursementType?.provider),
              })}
            </p>
            <h2 className="section__title">{m.cashPickup.bring}</h2>
            <ol className="steps">
              {m.cashPickup.steps.map((step) => (
                <li key={step} className="steps__item">
                  {step}
                </li>
              ))}
            </ol>
          </>
        )}
      </QueryGate>
    </ScreenFrame>
  )
}
