/**
 * /registration/payment (step disbursement_type): the client's payout accounts (GET /disbursement-type), with
 * one selected (PUT /select/{id}); a new one (POST /disbursement-type, which selects it): bank transfer (bank
 * from the list, 10-18 digit account), e-wallet (11 digits), cash card (12-25), cash pickup (Cebuana,
 * M Lhuillier). "Finish registration" (PUT /finish) completes the step once an account is selected.
 * After registration (a failed payout brings the client back here) a change needs the SMS code: the server
 * answers 422 payoutCodeRequired and the page asks for the code (payout-code-step.tsx).
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { type Resolver, useForm, useWatch } from 'react-hook-form'
import type { Page } from '../../../domain/contract/define'
import {
  addDisbursement,
  type DisbursementEntry,
  finishRegistration,
  listDisbursements,
  selectDisbursement,
} from '../../../domain/contract/payout'
import { listInstitutions } from '../../../domain/contract/reference'
import {
  cashPickupProviders,
  type Payout,
  type PayoutType,
  payoutSchema,
  payoutTypes,
} from '../../../domain/journey/fields'
import type { Institution } from '../../../domain/reference'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { RadioGroupField, SelectField } from '../../ui/forms/select-field'
import { FormFooter } from './form-footer'
import { isStepMismatch, useFormErrors, useJourneyErrorText } from './form-support'
import { isPayoutCodeRequired, PayoutCodeStep } from './payout-code-step'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

interface PayoutFormValues {
  type: PayoutType | ''
  bankId: string
  accountNumber: string
  provider: string
}

const fields = ['type', 'bankId', 'accountNumber', 'provider'] as const

/**
 * A list call answers a page; one page holds these lists whole. (defineContract widens `paginated: true` to
 * boolean, so the call is typed as the bare list: hence the cast.)
 */
function itemsOf<T>(answer: unknown) {
  return (answer as Page<T>).items
}

export const entriesKey = ['journey', 'disbursement-type'] as const

/** The form keeps every control's text; the body holds only what the chosen type needs, as the API reads it. */
export function payoutBody(values: PayoutFormValues): Record<string, unknown> {
  const bankId = values.bankId ? Number(values.bankId) : undefined
  switch (values.type) {
    case 'bank_transfer':
    case 'ewallet':
      return { type: values.type, bankId, accountNumber: values.accountNumber }
    case 'cash_card':
      return { type: values.type, accountNumber: values.accountNumber }
    case 'cash_pickup':
      return { type: values.type, provider: values.provider }
    default:
      return { type: values.type }
  }
}

const schemaResolver = standardSchemaResolver(payoutSchema)
const resolver: Resolver<PayoutFormValues, unknown, Payout> = (values, context, options) =>
  schemaResolver(payoutBody(values) as never, context, options as never) as ReturnType<
    Resolver<PayoutFormValues, unknown, Payout>
  >

function useInstitutions(parent: 'bank_account' | 'e-wallet', enabled: boolean) {
  const api = useApi()
  return useQuery({
    queryKey: ['reference', 'banks', parent],
    queryFn: async ({ signal }) => {
      const query = { group: 'payments', name: 'banks', parent } as const
      return itemsOf<Institution>(await api.call(listInstitutions, { query }, { signal }))
    },
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/** A change the server wants confirmed with the SMS code (after registration): what to send again, with it. */
export type PendingChange =
  | { kind: 'add'; body: Payout; label: string }
  | { kind: 'select'; id: number; label: string }

function entryLabel(m: ReturnType<typeof useMessages>['journey']['payment'], entry: DisbursementEntry) {
  return [m.methods[entry.type], entry.bankName, entry.accountNumber].filter(Boolean).join(' · ')
}

function EntryList({
  entries,
  onError,
  onCodeRequired,
}: {
  entries: DisbursementEntry[]
  onError(e: unknown): void
  onCodeRequired(change: PendingChange): void
}) {
  const m = useMessages().journey.payment
  const api = useApi()
  const queryClient = useQueryClient()
  const select = useMutation({
    mutationFn: (id: number) => api.call(selectDisbursement, { params: { id }, body: {} }),
    onSuccess: (answer) => queryClient.setQueryData(entriesKey, answer.entries),
    onError: (error, id) => {
      const entry = entries.find((e) => e.id === id)
      if (isPayoutCodeRequired(error) && entry)
        onCodeRequired({ kind: 'select', id, label: entryLabel(m, entry) })
      else onError(error)
    },
  })
  if (!entries.length) return <p className="reg-card__meta">{m.none}</p>
  return (
    <ul className="reg-list">
      {entries.map((entry) => (
        <li key={entry.id} className={`reg-card${entry.selected ? ' reg-card--selected' : ''}`}>
          <div className="reg-card__body">
            <p className="reg-card__title">
              {m.methods[entry.type]}
              {entry.bankName ? ` · ${entry.bankName}` : ''}
            </p>
            {entry.accountNumber ? <p className="reg-card__meta">{entry.accountNumber}</p> : null}
          </div>
          {entry.selected ? (
            <span className="reg-card__meta" aria-current="true">
              {m.selected}
            </span>
          ) : (
            <button
              type="button"
              className="button button--secondary"
              disabled={select.isPending}
              aria-label={`${m.use}: ${m.methods[entry.type]} ${entry.bankName ?? ''} ${entry.accountNumber ?? ''}`.trim()}
              onClick={() => select.mutate(entry.id)}
            >
              {m.use}
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}

function NewPayoutForm({ onCodeRequired }: { onCodeRequired(change: PendingChange): void }) {
  const m = useMessages()
  const t = m.journey.payment
  const api = useApi()
  const queryClient = useQueryClient()
  const refresh = useJourneyRefresh()
  const { register, handleSubmit, formState, setError, control, reset } = useForm<
    PayoutFormValues,
    unknown,
    Payout
  >({
    resolver,
    mode: 'onTouched',
    defaultValues: { type: '', bankId: '', accountNumber: '', provider: '' },
  })
  const type = useWatch({ control, name: 'type' })
  const banks = useInstitutions('bank_account', type === 'bank_transfer')
  const wallets = useInstitutions('e-wallet', type === 'ewallet')
  const { fieldError, formError, setFormError, fail } = useFormErrors(formState.errors, fields, refresh)

  const submit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      await api.call(addDisbursement, { body: values })
      await queryClient.invalidateQueries({ queryKey: entriesKey })
      reset()
    } catch (error) {
      if (!isPayoutCodeRequired(error)) return fail(error, setError)
      const institution = (values.type === 'ewallet' ? wallets : banks).data?.find(
        (i) => 'bankId' in values && i.id === values.bankId,
      )
      const number = 'accountNumber' in values ? values.accountNumber : null
      const provider = values.type === 'cash_pickup' ? t.providers[values.provider] : null
      const label = [t.methods[values.type], institution?.name, number, provider].filter(Boolean).join(' · ')
      onCodeRequired({ kind: 'add', body: values, label })
      reset()
    }
  })

  const institutions = type === 'ewallet' ? wallets : banks
  const number = {
    bank_transfer: { label: t.accountNumber, hint: t.accountNumberHint, inputMode: 'numeric', max: 18 },
    ewallet: { label: t.ewalletNumber, hint: t.ewalletNumberHint, inputMode: 'numeric', max: 11 },
    cash_card: { label: t.cashCardNumber, hint: t.cashCardNumberHint, inputMode: 'text', max: 25 },
  } as const
  const numberField =
    type === 'bank_transfer' || type === 'ewallet' || type === 'cash_card' ? number[type] : null

  return (
    <form className="reg__form" noValidate onSubmit={submit} aria-labelledby="payout-new-title">
      <h2 id="payout-new-title" className="reg-section-title">
        {t.addNew}
      </h2>
      <RadioGroupField
        legend={t.method}
        options={payoutTypes.map((value) => ({ value, label: t.methods[value] }))}
        error={fieldError('type')}
        {...register('type')}
      />
      {type === 'bank_transfer' || type === 'ewallet' ? (
        <SelectField
          label={type === 'ewallet' ? t.ewallet : t.bank}
          placeholder={institutions.isFetching ? m.journey.common.loading : m.journey.common.choose}
          options={(institutions.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
          error={fieldError('bankId')}
          {...register('bankId')}
        />
      ) : null}
      {numberField ? (
        <TextField
          key={type}
          label={numberField.label}
          hint={numberField.hint}
          inputMode={numberField.inputMode}
          maxLength={numberField.max + 6}
          autoComplete="off"
          error={fieldError('accountNumber')}
          {...register('accountNumber')}
        />
      ) : null}
      {type === 'cash_pickup' ? (
        <RadioGroupField
          legend={t.provider}
          options={cashPickupProviders.map((value) => ({ value, label: t.providers[value] }))}
          error={fieldError('provider')}
          {...register('provider')}
        />
      ) : null}
      <FormFooter busy={formState.isSubmitting} error={formError} label={t.save} />
    </form>
  )
}

export function PaymentForm({ onCompleted }: { onCompleted?: () => void }) {
  const m = useMessages()
  const t = m.journey.payment
  const api = useApi()
  const text = useJourneyErrorText()
  const refresh = useJourneyRefresh(onCompleted)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const entries = useQuery({
    queryKey: entriesKey,
    // A client keeps at most 10 accounts: the first page holds them all.
    queryFn: async ({ signal }) =>
      itemsOf<DisbursementEntry>(await api.call(listDisbursements, {}, { signal })),
  })
  const selected = entries.data?.find((entry) => entry.selected)
  const failed = (e: unknown) => {
    if (isStepMismatch(e)) refresh()
    setError(
      text(
        isStepMismatch(e)
          ? 'journeyStepMismatch'
          : ((e as { violations?: { message: string }[] }).violations?.[0]?.message ?? 'generic'),
      ),
    )
  }
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<PendingChange | null>(null)
  const confirm = async (code: string) => {
    if (!pending) return
    if (pending.kind === 'add') await api.call(addDisbursement, { body: { ...pending.body, code } })
    else await api.call(selectDisbursement, { params: { id: pending.id }, body: { code } })
    await queryClient.invalidateQueries({ queryKey: entriesKey })
    setPending(null)
  }
  const finish = useMutation({
    mutationFn: () => api.call(finishRegistration),
    onSuccess: () => refresh(),
    onError: failed,
  })

  return (
    <StepFrame step="payment" title={m.titles.registration_payment} intro={t.intro}>
      <h2 className="reg-section-title">{t.saved}</h2>
      {entries.isPending ? <p aria-busy="true">{m.journey.common.loading}</p> : null}
      {entries.data ? (
        <EntryList entries={entries.data} onError={failed} onCodeRequired={setPending} />
      ) : null}
      <FormError error={error} />
      {selected ? (
        <button
          type="button"
          className="button button--primary reg__submit"
          disabled={finish.isPending}
          aria-busy={finish.isPending}
          onClick={() => {
            setError(null)
            finish.mutate()
          }}
        >
          {finish.isPending ? t.finishing : t.finish}
        </button>
      ) : null}
      {pending ? (
        <PayoutCodeStep
          key={pending.kind === 'add' ? pending.label : pending.id}
          change={pending.label}
          confirm={confirm}
          onCancel={() => setPending(null)}
        />
      ) : (
        <NewPayoutForm onCodeRequired={setPending} />
      )}
    </StepFrame>
  )
}
