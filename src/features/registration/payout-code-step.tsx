/**
 * After registration, a change of payout account (a new one, or another saved one) is confirmed with the code
 * the server sends by SMS (issue 13, item 9; docs/decisions/0012): the server refuses the change with
 * 422 `payoutCodeRequired`, the payment page then shows this step. "Send me the code" and its countdown are
 * the shared code-request component (the wait comes from the server's answer); the change is sent again with
 * the code.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { sendPayoutCode } from '../../../domain/contract/payout'
import { codeBodySchema } from '../../../domain/identity'
import { ApiError } from '../../api/client'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { CodeRequest } from '../../ui/forms/code-request'
import { FormError, TextField } from '../../ui/forms/fields'
import { useFormErrors } from './form-support'

/** The server's answer to a change it wants confirmed with the SMS code. */
export const isPayoutCodeRequired = (error: unknown) =>
  error instanceof ApiError && error.code === 'payoutCodeRequired'

export interface PayoutCodeStepProps {
  /** What is being confirmed, as the client reads it ("GCash · 09171234567"). */
  change: string
  /** Sends the change again with the code; throws the server's refusal. */
  confirm: (code: string) => Promise<void>
  onCancel: () => void
}

const FIELDS = ['code'] as const

export function PayoutCodeStep({ change, confirm, onCancel }: PayoutCodeStepProps) {
  const api = useApi()
  const t = useMessages().journey.payment.confirm
  const titleId = useId()
  const form = useForm({ resolver: standardSchemaResolver(codeBodySchema), defaultValues: { code: '' } })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, FIELDS)

  const submit = form.handleSubmit(async ({ code }) => {
    setFormError(null)
    try {
      await confirm(code)
    } catch (error) {
      fail(error, form.setError)
    }
  })

  return (
    <section className="reg__form" aria-labelledby={titleId}>
      <h2 id={titleId} className="reg-section-title">
        {t.title}
      </h2>
      <p className="reg-card__meta">{t.why}</p>
      <p className="reg-card__title">{change}</p>
      <CodeRequest request={() => api.call(sendPayoutCode)} sendLabel={t.send} sentText={t.sent} />
      <form noValidate onSubmit={submit}>
        <FormError error={formError} />
        <TextField
          label={t.code}
          hint={t.codeHint}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={3}
          error={fieldError('code')}
          {...form.register('code')}
        />
        <p className="button-row">
          <button
            type="submit"
            className="button button--primary"
            disabled={form.formState.isSubmitting}
            aria-busy={form.formState.isSubmitting}
          >
            {t.submit}
          </button>
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t.cancel}
          </button>
        </p>
      </form>
    </section>
  )
}
