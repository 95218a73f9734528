/**
 * What the back office's payment forms and the sandbox tools share: a react-hook-form form checked by a schema
 * with its form-level error, fields bound to it by name, the titled section or card around a form, the row that
 * submits it and the live line that says how it went.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useQueryClient } from '@tanstack/react-query'
import { type ComponentPropsWithoutRef, type ReactNode, useState } from 'react'
import {
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegister,
  type UseFormRegisterReturn,
  useForm,
} from 'react-hook-form'
import { useApi } from '../../app/app-context'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { paymentQueryKeys } from './admin-api'
import { channelOptions, fieldError } from './payment-forms'

/** A field's props as a form binds it: registered under its name, with that field's error. */
export type BoundField = UseFormRegisterReturn & { error: FieldErrorView | null }

/** Binds a field by name: `<TextField label={…} {...bind('amount')} />`. */
function binder<T extends FieldValues>(register: UseFormRegister<T>, errors: FieldErrors<T>) {
  return (name: Path<T>): BoundField => ({
    error: fieldError(name, (errors as Record<string, { message?: string } | undefined>)[name]),
    ...register(name),
  })
}

/** The API, and a refresh of every payments query: what each back-office action changes shows in the list. */
export function usePaymentsApi() {
  const api = useApi()
  const queryClient = useQueryClient()
  return { api, refreshPayments: () => queryClient.invalidateQueries({ queryKey: paymentQueryKeys.all }) }
}

/** A form checked by `schema` (values as typed in, the same out), with its own error beside the fields'. */
export function useSchemaForm<T extends FieldValues>(
  schema: Parameters<typeof standardSchemaResolver<T, unknown, T>>[0],
  defaultValues: DefaultValues<T>,
) {
  const form = useForm<T, unknown, T>({ resolver: standardSchemaResolver(schema), defaultValues })
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  return { ...form, bind: binder(form.register, form.formState.errors), formError, setFormError }
}

type PaymentTexts = {
  reference: string
  referenceHint: string
  amount: string
  amountHint: string
  channel: string
  chooseChannel: string
}

/** A payment's reference, amount in pesos and channel. */
export function PaymentFields({
  t,
  bind,
}: {
  t: PaymentTexts
  bind: (name: 'reference' | 'amount' | 'channel') => BoundField
}) {
  return (
    <>
      <TextField
        label={t.reference}
        hint={t.referenceHint}
        inputMode="numeric"
        autoComplete="off"
        {...bind('reference')}
      />
      <TextField
        label={t.amount}
        hint={t.amountHint}
        inputMode="decimal"
        autoComplete="off"
        {...bind('amount')}
      />
      <SelectField
        label={t.channel}
        placeholder={t.chooseChannel}
        options={channelOptions}
        {...bind('channel')}
      />
    </>
  )
}

/** A loan (its id or number) and the reason for what is done to it. */
export function LoanReasonFields({
  t,
  bind,
}: {
  t: { loanId: string; loanIdHint: string; reason: string; reasonHint: string }
  bind: (name: 'loanId' | 'reason') => BoundField
}) {
  return (
    <>
      <TextField label={t.loanId} hint={t.loanIdHint} autoComplete="off" {...bind('loanId')} />
      <TextField label={t.reason} hint={t.reasonHint} autoComplete="off" {...bind('reason')} />
    </>
  )
}

/** The end of a form: its own error, "sending" while it is (when `sending` is given), and its submit button. */
export function SubmitRow({
  error,
  pending,
  sending,
  submit,
  children,
}: {
  error: FieldErrorView | null
  pending: boolean
  sending?: string
  submit: string
  /** More buttons after the submit one. */
  children?: ReactNode
}) {
  return (
    <>
      <FormError error={error} />
      {sending !== undefined && pending ? <p role="status">{sending}</p> : null}
      <p className="button-row">
        <button type="submit" className="button button--primary" disabled={pending}>
          {submit}
        </button>
        {children}
      </p>
    </>
  )
}

/** A section titled by its h2 (a card's by its h3), with a lead paragraph. */
export function TitledSection({
  id,
  title,
  lead,
  card = false,
  children,
}: {
  id: string
  title: string
  lead: string
  /** A tool's card within a section, rather than a page's section. */
  card?: boolean
  children: ReactNode
}) {
  return (
    <section className={card ? 'card' : 'section'} aria-labelledby={id}>
      {card ? (
        <h3 id={id}>{title}</h3>
      ) : (
        <h2 id={id} className="section__title">
          {title}
        </h2>
      )}
      <p>{lead}</p>
      {children}
    </section>
  )
}

/** The polite live line that says how an action went. */
export function ResultLine(props: Omit<ComponentPropsWithoutRef<'p'>, 'role' | 'aria-live'>) {
  return <p role="status" aria-live="polite" {...props} />
}
