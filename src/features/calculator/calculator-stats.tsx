import type { Offer } from '../../../domain/offer'
import { fmt, useMessages } from '../../i18n/messages'
import { discountPercent, displayMoney, formatDays, formatRepayDate, spokenMoney } from './format'

export interface CalculatorStatsProps {
  /** The amount and term on the sliders, shown at once; the priced lines wait for the offer. */
  amount: number
  term: number
  offer: Offer | null
  loggedIn: boolean
  /** The offer on screen was priced for earlier inputs; the next one is on its way. */
  pending: boolean
}

/**
 * The stats block of spec section 2, in its order: principal, repay date, interest, processing fee, the package
 * fee (only above 0), tenor, total. Interest, processing fee and total are for logged-in clients only
 * (spec section 6: discount and fee lines show only to logged-in users).
 */
export function CalculatorStats({ amount, term, offer, loggedIn, pending }: CalculatorStatsProps) {
  const m = useMessages().calculator
  const s = m.stats
  const packageFee = offer?.borrowers_advantage_package_fee.amount ?? 0
  return (
    <div className="calculator__stats-wrap">
      <h3 className="visually-hidden">{s.label}</h3>
      <dl className="calculator__stats" aria-busy={pending}>
        <Stat label={s.principal} testId="principal">
          <span className="calculator__value">{displayMoney(amount)}</span>
        </Stat>
        <Stat label={s.repayDate} testId="repay-date">
          <span className="calculator__value">{offer ? formatRepayDate(offer.endDate) : '—'}</span>
        </Stat>
        {loggedIn && offer ? (
          <MoneyStat
            label={s.interest}
            testId="interest"
            value={offer.interest.amount}
            before={offer.interest_without_discount.amount}
          />
        ) : null}
        {loggedIn && offer ? (
          <MoneyStat
            label={s.processingFee}
            testId="processing-fee"
            value={offer.processingFee.amount}
            before={offer.processing_fee_without_discount.amount}
          />
        ) : null}
        {packageFee > 0 ? (
          <MoneyStat label={s.packageFee} testId="package-fee" value={packageFee} before={packageFee} />
        ) : null}
        <Stat label={s.tenor} testId="tenor">
          <span className="calculator__value">{formatDays(term, m)}</span>
        </Stat>
        {loggedIn && offer ? (
          <MoneyStat
            label={s.total}
            testId="total"
            value={offer.total.amount}
            before={offer.total_without_discount.amount}
            emphasis
          />
        ) : null}
      </dl>
      {pending ? (
        <p className="calculator__pending" aria-hidden="true">
          {s.pending}
        </p>
      ) : null}
      {loggedIn ? null : <p className="calculator__login-hint">{s.loginForCosts}</p>}
    </div>
  )
}

function Stat({
  label,
  testId,
  emphasis = false,
  children,
}: {
  label: string
  testId: string
  emphasis?: boolean
  children: React.ReactNode
}) {
  return (
    <div
      className={emphasis ? 'calculator__stat calculator__stat--total' : 'calculator__stat'}
      data-stat={testId}
    >
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** A money line; when a discount took something off, the original is struck out and a red flag says how much. */
function MoneyStat({
  label,
  testId,
  value,
  before,
  emphasis = false,
}: {
  label: string
  testId: string
  value: number
  before: number
  emphasis?: boolean
}) {
  const s = useMessages().calculator.stats
  const percent = discountPercent(before, value)
  return (
    <Stat label={label} testId={testId} emphasis={emphasis}>
      {percent !== null ? (
        <s className="calculator__before">
          <span className="visually-hidden">{fmt(s.before, { value: spokenMoney(before) })}</span>
          <span aria-hidden="true">{displayMoney(before)}</span>
        </s>
      ) : null}
      <span className="calculator__value">{displayMoney(value)}</span>
      {percent !== null ? (
        <span className="calculator__flag">
          <span aria-hidden="true">{fmt(s.discountFlag, { percent })}</span>
          <span className="visually-hidden">{fmt(s.discountLabel, { percent })}</span>
        </span>
      ) : null}
    </Stat>
  )
}
