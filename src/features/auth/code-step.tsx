/**
 * Entering a 3-digit code, with the shared code request under it (src/ui/forms/code-request.tsx): the wait for
 * a new code counts down from the server's `nextCodeAt` (the `-ts` answers) or its `Retry-After`, and "Send a
 * new code" comes back when it ends. One form for phone verification, the second factor, recovery, the
 * single-link login and credential changes.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useForm } from 'react-hook-form'
import { codeBodySchema } from '../../../domain/identity'
import type { CodeSent } from '../../../machines/code-request.machine'
import { useMessages } from '../../i18n/messages'
import { CodeRequest } from '../../ui/forms/code-request'
import { FormError, TextField } from '../../ui/forms/fields'
import { useFormErrors } from './form-support'

const FIELDS = ['code'] as const

export interface CodeStepProps {
  submitLabel: string
  onSubmit: (code: string) => Promise<void>
  /** Asks for a new code; answers when the next one may be asked for, if the server says. */
  onResend?: () => Promise<CodeSent | null | undefined>
  resendLabel?: string
  /** When a new code may be asked for (ISO), from the call that sent the first one. */
  nextCodeAt?: string | null
  /** The call before was refused for the wait (no code went out): count down to `nextCodeAt`, saying why. */
  limited?: boolean
  now?: () => number
}

export function CodeStep({
  submitLabel,
  onSubmit,
  onResend,
  resendLabel,
  nextCodeAt,
  limited = false,
  now,
}: CodeStepProps) {
  const m = useMessages().auth
  const form = useForm({ resolver: standardSchemaResolver(codeBodySchema), defaultValues: { code: '' } })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, FIELDS)

  const submit = form.handleSubmit(async ({ code }) => {
    setFormError(null)
    try {
      await onSubmit(code)
    } catch (error) {
      fail(error, form.setError)
    }
  })

  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <FormError error={formError} />
      <TextField
        label={m.fields.code}
        hint={m.fields.codeHint}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={3}
        error={fieldError('code')}
        {...form.register('code')}
      />
      <div className="button-row">
        <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
          {submitLabel}
        </button>
      </div>
      {onResend ? (
        <CodeRequest
          request={onResend}
          sent={!limited}
          limited={limited}
          nextCodeAt={nextCodeAt}
          resendLabel={resendLabel}
          sendLabel={resendLabel}
          now={now}
        />
      ) : null}
    </form>
  )
}
