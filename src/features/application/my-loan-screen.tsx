/**
 * /profile/my-loan: the active loan (GET /private/client/loan/active, issue 16 item 7): the loan number and the
 * client's payment reference, the principal, today's amount due (the payoff) and what is outstanding by part
 * (penalties only when charged), a credit when the client overpaid, the due date ('MMM DD, YYYY', Asia/Manila)
 * and the days left or overdue (the invoice's dueDays); Pay in full and Pay another amount (the repayment page);
 * the payment history and the statement of account with its PDF. Below the payment buttons, how the loan is
 * being repaid (issue 17 item 5, loan-plan.tsx): on its terms, the extensions and the payment-schedule offers;
 * on a schedule, its instalments and what to pay now.
 *
 * While it is open the payment watch (src/app/payment-watch.tsx) asks every few seconds: a payment that posts
 * shows as a toast and the figures change by themselves. When the loan is repaid, the journey's flow poll moves
 * the client on (to the no-loan page): this page never navigates.
 */
import { Link } from '@tanstack/react-router'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import { PaymentWatch } from '../../app/payment-watch'
import { useActiveLoan, useClientSession, useSingleLinkSession } from '../../app/servicing'
import { fmt, useMessages } from '../../i18n/messages'
import { CollectionContacts } from './collection-contacts'
import { formatLongDate } from './format'
import { PaymentHistory, StatementOfAccount } from './loan-history'
import { LoanPlan } from './loan-plan'
import { OtherLoans } from './other-loans'
import { OverdueNotice } from './overdue-notice'
import { type Figure, Figures, QueryGate, ScreenFrame } from './parts'

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
  const penalties = p?.penalties ?? p?.penalty
  const candidates: [string, string, { amount: number } | null | undefined][] = [
    ['part-principal', m.partPrincipal, p?.principal],
    ['part-interest', m.partInterest, p?.interest],
    ['part-fees', m.partFees, p?.fees],
    ['part-penalty', m.partPenalty, penalties],
  ]
  // A penalty line only when one is charged; the other parts always show, even at zero.
  return candidates.flatMap(([name, label, money]) =>
    money && (money.amount > 0 || name !== 'part-penalty')
      ? [{ name, label, value: formatPhp(money.amount) }]
      : [],
  )
}

function identity(loan: ActiveLoan, m: LoanTexts): Figure[] {
  return [
    ...(loan.loanNumber ? [{ name: 'loan-number', label: m.loanNumber, value: loan.loanNumber }] : []),
    ...(loan.paymentReference
      ? [{ name: 'payment-reference', label: m.paymentReference, value: loan.paymentReference }]
      : []),
  ]
}

/** `pollMs`: how often the payment watch asks (tests shorten it). */
export function MyLoanScreen({ pollMs }: { pollMs?: number } = {}) {
  const m = useMessages().application.myLoan
  const client = useClientSession()
  const singleLink = useSingleLinkSession()
  const query = useActiveLoan()
  return (
    <ScreenFrame title={m.title}>
      {client ? <PaymentWatch pollInterval={pollMs} /> : null}
      <QueryGate query={query}>
        {(loan) =>
          loan ? (
            <>
              <Figures
                label={m.title}
                figures={[
                  ...identity(loan, m),
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
              <OverdueNotice loan={loan} />
              <CollectionContacts loan={loan} />
              <h2 className="section__title">{m.parts}</h2>
              <Figures label={m.parts} figures={parts(loan, m)} />
              {loan.credit && loan.credit.amount > 0 ? (
                <>
                  <Figures
                    label={m.credit}
                    figures={[{ name: 'credit', label: m.credit, value: formatPhp(loan.credit.amount) }]}
                  />
                  <p className="muted">{m.creditNote}</p>
                </>
              ) : null}
              <nav className="button-row" aria-label={m.actionsLabel}>
                {singleLink ? null : (
                  <>
                    <Link to="/profile/repayment" className="button button--primary">
                      {m.payInFull}
                    </Link>
                    <Link
                      to="/profile/repayment"
                      search={{ amount: 'custom' }}
                      className="button button--secondary"
                    >
                      {m.payOther}
                    </Link>
                  </>
                )}
                <Link to="/repay" className="button button--ghost">
                  {m.repay}
                </Link>
              </nav>
              <LoanPlan loan={loan} singleLink={singleLink} />
              <OtherLoans loan={loan} daysLeft={daysLeftText} />
              <PaymentHistory />
              {loan.id !== undefined ? <StatementOfAccount loanId={loan.id} /> : null}
            </>
          ) : (
            <p role="status">{m.noLoan}</p>
          )
        }
      </QueryGate>
    </ScreenFrame>
  )
}
