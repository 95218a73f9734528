/**
 * My loan, below the first open loan: the client's additional loan (issue 18, ADR 0030), a separate contract
 * with its own payoff and due date. Payments go to the oldest open loan first, so this one only lists what it
 * owes; its own statement and history show once it is the first.
 */
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import { useMessages } from '../../i18n/messages'
import { formatLongDate } from './format'
import { Figures } from './parts'

type LoanTexts = ReturnType<typeof useMessages>['application']['myLoan']

export function OtherLoans({
  loan,
  daysLeft,
}: {
  loan: ActiveLoan
  daysLeft: (dueDays: number, m: LoanTexts) => string
}) {
  const m = useMessages().application.myLoan
  const t = m.otherLoans
  if (!loan.otherLoans?.length) return null
  return (
    <section aria-labelledby="other-loans-title" data-testid="other-loans">
      <h2 id="other-loans-title" className="section__title">
        {t.title}
      </h2>
      <p className="muted">{t.lead}</p>
      {loan.otherLoans.map((other) => (
        <Figures
          key={other.id}
          label={`${t.title} ${other.loanNumber}`}
          figures={[
            { name: 'other-loan-number', label: t.loanNumber, value: other.loanNumber },
            { name: 'other-principal', label: t.principal, value: formatPhp(other.principal.amount) },
            { name: 'other-amount-due', label: t.amountDue, value: formatPhp(other.amountDue.amount) },
            { name: 'other-due-date', label: t.dueDate, value: formatLongDate(other.dueDate) },
            { name: 'other-days-left', label: t.daysLeft, value: daysLeft(other.dueDays, m) },
          ]}
        />
      ))}
    </section>
  )
}
