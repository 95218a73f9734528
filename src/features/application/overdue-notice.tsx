/**
 * My loan, when the loan is overdue (issue 18; spec section 4, Overdue): how long, and the penalty terms as the
 * server applies them (the grace days and the daily rate of the configuration in force, the 5%-a-month and
 * 100%-of-principal caps of SEC MC 3 s.2022), in plain words and never threatening. The penalty charged so far is
 * the amount due's `penalties` part, shown with the other parts.
 */
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import { fmt, useMessages } from '../../i18n/messages'

/** A rate in ppm a day as a percentage: 1 500 ppm is "0.15%". */
export function percentOfPpm(ppm: number): string {
  const percent = ppm / 10_000
  return `${percent.toLocaleString('en', { maximumFractionDigits: 4 })}%`
}

const ordinal = (n: number) => {
  const tens = n % 100
  if (tens >= 11 && tens <= 13) return `${n}th`
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`
}

export function OverdueNotice({ loan }: { loan: ActiveLoan }) {
  const t = useMessages().application.myLoan.overdueNotice
  const overdue = loan.standing ? loan.standing === 'overdue' : loan.repaymentInvoice.dueDays < 0
  if (!overdue) return null
  const days = loan.overdueDays ?? Math.max(0, -loan.repaymentInvoice.dueDays)
  const terms = loan.penaltyTerms
  const penalties = loan.amountDue.parts?.penalties?.amount ?? 0
  const rate = terms ? percentOfPpm(terms.ratePpmPerDay) : ''
  return (
    <section
      className="callout callout--warning"
      aria-labelledby="overdue-notice-title"
      data-testid="overdue-notice"
    >
      <h2 id="overdue-notice-title" className="callout__title">
        {t.title}
      </h2>
      <p>{fmt(t.body, { days: days === 1 ? t.day : fmt(t.days, { days }) })}</p>
      {terms?.enabled && terms.ratePpmPerDay > 0 ? (
        <p data-testid="penalty-terms">
          {terms.graceDays > 0
            ? fmt(t.penaltyTerms, { rate, firstDay: ordinal(terms.graceDays + 1) })
            : fmt(t.penaltyGraceNone, { rate })}
        </p>
      ) : null}
      {penalties > 0 ? <p>{fmt(t.penaltyCharged, { amount: formatPhp(penalties) })}</p> : null}
      {loan.legalRoom && loan.legalRoom.amount === 0 ? <p>{t.capReached}</p> : null}
    </section>
  )
}
