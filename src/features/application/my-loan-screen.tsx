/**
 * /profile/my-loan: the active loan (GET /private/client/loan/active): the principal, the amount due with
 * its parts, the due date ('MMM DD, YYYY', Asia/Manila) and the days left (the invoice's dueDays).
 */
import { Link } from '@tanstack/react-router'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/money'
import { fmt, useMessages } from '../../i18n/messages'
import { formatLongDate } from './format'
import { type Figure, Figures, QueryGate, ScreenFrame } from './parts'
import { useActiveLoan } from './queries'

type LoanTexts = ReturnType<typeof useMessages>['application']['myLoan']

export function daysLeftText(dueDays: number, m: LoanTexts): string {
  if (dueDays === 0) return m.dueToday
  if (dueDays === 1) return m.daysLeftOne
  if (dueDays === -1) return m.overdueOne
  if (dueDays < 0) return fmt(m.overdue, { days: -dueDays })
  return fmt(m.daysLeftValue, { days: dueDays })
}

function parts(loan: ActiveLoan, m: LoanTexts): Figure[] {
  const p = loan.amountDue.parts
  const candidates: [string, string, { amount: number } | null | undefined][] = [
    ['part-principal', m.partPrincipal, p?.principal],
    ['part-interest', m.partInterest, p?.interest],
    ['part-fees', m.partFees, p?.fees],
    ['part-penalty', m.partPenalty, p?.penalty],
  ]
  // A penalty line only when one is charged; the other parts always show, even at zero.
  return candidates.flatMap(([name, label, money]) =>
    money && (money.amount > 0 || name !== 'part-penalty')
      ? [{ name, label, value: formatPhp(money.amount) }]
      : [],
  )
}

export function MyLoanScreen() {
  const m = useMessages().application.myLoan
  const query = useActiveLoan()
  return (
    <ScreenFrame title={m.title}>
      <QueryGate query={query}>
        {(loan) =>
          loan ? (
            <>
              <Figures
                label={m.title}
                figures={[
                  { name: 'principal', label: m.principal, value: formatPhp(loan.principal.amount) },
                  { name: 'amount-due', label: m.amountDue, value: formatPhp(loan.amountDue.amount) },
                  { name: 'due-date', label: m.dueDate, value: formatLongDate(loan.dueDate) },
                  {
                    name: 'days-left',
                    label: m.daysLeft,
                    value: daysLeftText(loan.repaymentInvoice.dueDays, m),
                  },
                ]}
              />
              <h2 className="section__title">{m.parts}</h2>
              <Figures label={m.parts} figures={parts(loan, m)} />
              <p className="button-row">
                <Link to="/repay" className="button button--primary">
                  {m.repay}
                </Link>
              </p>
            </>
          ) : (
            <p role="status">{m.noLoan}</p>
          )
        }
      </QueryGate>
    </ScreenFrame>
  )
}
