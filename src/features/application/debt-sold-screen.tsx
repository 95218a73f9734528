/**
 * /profile/debt-sold (spec section 2; issue 18, item 3): the flow guard sends a client whose debt was sold here.
 * For each sold loan: who owns the debt now (the collection agency, its phone and e-mail), how to pay them, what
 * the loan owed at the transfer, and what reached Hiram after it (kept and passed on to the agency, Civil Code
 * Art. 1626). Read from GET /private/client/loan/sold-debt.
 */
import { useQuery } from '@tanstack/react-query'
import { getSoldDebt } from '../../../domain/contract/debt'
import type { SoldDebt } from '../../../domain/contract/debt-answers'
import type { Page } from '../../../domain/contract/define'
import { formatPhone, formatPhp } from '../../../domain/format'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { formatLongDate } from './format'
import { Figures, QueryGate, ScreenFrame } from './parts'

export function DebtSoldScreen() {
  const m = useMessages()
  const api = useApi()
  const query = useQuery({
    queryKey: ['client', 'loan', 'sold-debt'],
    // One page holds every sold loan a client can have (a client is sold a handful at most).
    queryFn: async ({ signal }) =>
      ((await api.call(getSoldDebt, { query: { perPage: 50 } }, { signal })) as unknown as Page<SoldDebt>)
        .items,
  })
  const t = m.application.debtSold
  return (
    <ScreenFrame title={m.titles.profile_debt_sold} lead={t.lead}>
      <QueryGate query={query}>
        {(loans) =>
          loans.length === 0 ? (
            <p>{t.none}</p>
          ) : (
            <>
              {loans.map((loan) => (
                <SoldLoan key={loan.loanId} loan={loan} />
              ))}
              <p className="callout">{t.forwardNote}</p>
              <p>{t.rights}</p>
            </>
          )
        }
      </QueryGate>
    </ScreenFrame>
  )
}

function SoldLoan({ loan }: { loan: SoldDebt }) {
  const t = useMessages().application.debtSold
  const titleId = `sold-loan-${loan.loanId}`
  const agencyId = `sold-loan-agency-${loan.loanId}`
  return (
    <section className="section" aria-labelledby={titleId}>
      <h2 id={titleId} className="section__title">
        {fmt(t.sectionTitle, { loanNumber: loan.loanNumber })}
      </h2>
      <Figures
        label={t.figuresLabel}
        figures={[
          { name: 'loan-number', label: t.loanNumber, value: loan.loanNumber },
          { name: 'sold-on', label: t.soldOn, value: formatLongDate(loan.soldOn) },
          { name: 'amount-at-sale', label: t.amountAtSale, value: formatPhp(loan.amountAtSale.amount) },
          ...(loan.paidToHiramAfterSale.amount > 0
            ? [
                {
                  name: 'paid-to-hiram',
                  label: t.paidToHiram,
                  value: formatPhp(loan.paidToHiramAfterSale.amount),
                },
              ]
            : []),
        ]}
      />
      <h3 id={agencyId}>{t.agencyTitle}</h3>
      <dl className="details-list card" aria-labelledby={agencyId}>
        <div className="details-list__row" data-figure="agency-name">
          <dt>{t.agencyName}</dt>
          <dd>{loan.agency.name}</dd>
        </div>
        <div className="details-list__row" data-figure="agency-phone">
          <dt>{t.agencyPhone}</dt>
          <dd>
            <a href={`tel:${loan.agency.phone.replace(/[^+0-9]/g, '')}`}>{formatPhone(loan.agency.phone)}</a>
          </dd>
        </div>
        <div className="details-list__row" data-figure="agency-email">
          <dt>{t.agencyEmail}</dt>
          <dd>
            <a href={`mailto:${loan.agency.email}`}>{loan.agency.email}</a>
          </dd>
        </div>
      </dl>
      <h3>{t.howToPay}</h3>
      <div data-figure="agency-instructions">
        {loan.agency.paymentInstructions
          .split(/\n+/)
          .filter((line) => line.trim())
          .map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, in their order, never reordered
            <p key={i}>{line}</p>
          ))}
      </div>
    </section>
  )
}
