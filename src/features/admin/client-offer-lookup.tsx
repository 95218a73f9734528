/**
 * The calculator as a back-office user sees it on a client's file (spec section 6: "a back-office client offer
 * lookup is used when the user is authorised but is neither client role"; issue 22 item 5): the offer this client
 * would get for an amount and a term, priced by the server for the client (GET
 * /private/back-office/client/{id}/arithmetic/offer, permission offers.read), so an agent answering the phone reads
 * the client the same figures the client's own calculator shows. Amounts are typed in pesos and sent in centavos.
 */
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { getBackOfficeClientOffer } from '../../../domain/contract/lending-config'
import { formatDate, formatPhp } from '../../../domain/format'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { CheckboxField, type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { isServerFailure } from '../../ui/forms/violations'
import { TitledSection } from './form-parts'
import { useMayDo } from './permissions'

type Sequence = 'auto' | 'first' | 'repeated'
interface Asked {
  amount: number
  term: number
  sequence: Sequence
  optionalFee: boolean
}

/** Whole pesos, as typed ('5,000' or '5000'), in centavos; null when it is not a whole positive number. */
export function pesosToCentavos(text: string): number | null {
  const digits = text.replace(/[\s,₱]/g, '')
  if (!/^\d{1,9}$/.test(digits)) return null
  const pesos = Number(digits)
  return pesos > 0 ? pesos * 100 : null
}

export function ClientOfferLookup({ clientId }: { clientId: number }) {
  const may = useMayDo()
  if (!may('offers.read')) return null
  return <Lookup clientId={clientId} />
}

function Lookup({ clientId }: { clientId: number }) {
  const t = useMessages().admin.clients.desk.offer
  const api = useApi()
  const [amount, setAmount] = useState('5000')
  const [term, setTerm] = useState('14')
  const [sequence, setSequence] = useState<Sequence>('auto')
  const [optionalFee, setOptionalFee] = useState(true)
  const [asked, setAsked] = useState<Asked | null>(null)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const offer = useQuery({
    queryKey: ['admin', 'client', clientId, 'offer', asked],
    enabled: asked !== null,
    retry: false,
    queryFn: ({ signal }) =>
      api.call(
        getBackOfficeClientOffer,
        {
          params: { id: clientId },
          query: {
            amount: asked!.amount,
            term: asked!.term,
            optionalFee: asked!.optionalFee,
            ...(asked!.sequence === 'auto' ? {} : { sequence_type: asked!.sequence }),
          },
        },
        { signal },
      ),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    const centavos = pesosToCentavos(amount)
    if (centavos === null) return setError({ key: 'amount', text: t.badAmount })
    if (!/^\d{1,4}$/.test(term.trim()) || Number(term) < 1) return setError({ key: 'term', text: t.badTerm })
    setAsked({ amount: centavos, term: Number(term), sequence, optionalFee })
  }
  const refused =
    offer.isError && isServerFailure(offer.error)
      ? (offer.error.violations[0]?.message ?? offer.error.message ?? t.failed)
      : t.failed
  const o = offer.data
  return (
    <TitledSection id="client-offer-title" title={t.title} lead={t.lead}>
      <form aria-labelledby="client-offer-title" noValidate onSubmit={submit}>
        <TextField
          label={t.amount}
          hint={t.amountHint}
          inputMode="numeric"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <TextField
          label={t.term}
          inputMode="numeric"
          autoComplete="off"
          value={term}
          onChange={(e) => setTerm(e.target.value)}
        />
        <SelectField
          label={t.sequence}
          placeholder={t.sequences.choose}
          options={[
            { value: 'auto', label: t.sequences.auto },
            { value: 'first', label: t.sequences.first },
            { value: 'repeated', label: t.sequences.repeated },
          ]}
          value={sequence}
          onChange={(e) => {
            const value = e.target.value
            if (value === 'auto' || value === 'first' || value === 'repeated') setSequence(value)
          }}
        />
        <CheckboxField
          label={t.optionalFee}
          checked={optionalFee}
          onChange={(e) => setOptionalFee(e.target.checked)}
        />
        <FormError error={error} />
        <p className="button-row">
          <button type="submit" className="button">
            {t.submit}
          </button>
        </p>
      </form>
      {offer.isFetching ? <p role="status">{t.loading}</p> : null}
      {offer.isError ? <p role="alert">{refused}</p> : null}
      {o && !offer.isFetching ? (
        <dl className="offer-lookup" aria-label={t.result}>
          <dt>{t.principal}</dt>
          <dd>{formatPhp(o.principal.amount)}</dd>
          <dt>{t.interest}</dt>
          <dd>{formatPhp(o.interest.amount)}</dd>
          <dt>{t.processingFee}</dt>
          <dd>{formatPhp(o.processingFee.amount)}</dd>
          <dt>{t.serviceFee}</dt>
          <dd>{formatPhp(o.serviceFee.amount)}</dd>
          {o.borrowers_advantage_package_fee.amount > 0 ? (
            <>
              <dt>{t.packageFee}</dt>
              <dd>{formatPhp(o.borrowers_advantage_package_fee.amount)}</dd>
            </>
          ) : null}
          <dt>{t.total}</dt>
          <dd>{formatPhp(o.total.amount)}</dd>
          <dt>{t.due}</dt>
          <dd>{fmt(t.dueValue, { date: formatDate(o.endDate), days: o.term })}</dd>
          <dt>{t.apr}</dt>
          <dd>{fmt(t.aprValue, { apr: o.apr.toFixed(2) })}</dd>
        </dl>
      ) : null}
    </TitledSection>
  )
}
