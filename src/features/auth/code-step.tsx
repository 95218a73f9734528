/**
 * Entering a 3-digit code, with a resend button that counts down to the server's `nextCodeAt` (the `-ts`
 * answers): one form for phone verification, the second factor, recovery and credential changes.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { codeBodySchema } from '../../../domain/identity'
import { fmt, useMessages } from '../../i18n/messages'
import { FormError, FormSuccess, TextField } from '../../ui/forms/fields'
import { useFormErrors } from './form-support'

const FIELDS = ['code'] as const

export interface CodeStepProps {
  submitLabel: string
  onSubmit: (code: string) => Promise<void>
  /** Asks for a new code; answers when the next one may be asked for (ISO), if the server says. */
  onResend?: () => Promise<string | null | undefined>
  resendLabel?: string
  /** When a new code may be asked for (ISO), from the call that sent the first one. */
  nextCodeAt?: string | null
  now?: () => number
}

export function CodeStep({
  submitLabel,
  onSubmit,
  onResend,
  resendLabel,
  nextCodeAt,
  now = Date.now,
}: CodeStepProps) {
  const m = useMessages().auth
  const form = useForm({ resolver: standardSchemaResolver(codeBodySchema), defaultValues: { code: '' } })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, FIELDS)
  const [resendAt, setResendAt] = useState<number>(() => (nextCodeAt ? Date.parse(nextCodeAt) : 0))
  const [resent, setResent] = useState(false)
  const seconds = useCountdown(resendAt, now)

  const submit = form.handleSubmit(async ({ code }) => {
    setFormError(null)
    try {
      await onSubmit(code)
    } catch (error) {
      fail(error, form.setError)
    }
  })

  const resend = async () => {
    if (!onResend) return
    setFormError(null)
    setResent(false)
    try {
      const next = await onResend()
      setResendAt(next ? Date.parse(next) : now() + 60_000)
      setResent(true)
    } catch (error) {
      fail(error, form.setError)
    }
  }

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
      {resent ? <FormSuccess>{m.verifyPhone.resent}</FormSuccess> : null}
      <div className="button-row">
        <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
          {submitLabel}
        </button>
        {onResend ? (
          <button type="button" className="button button--ghost" onClick={resend} disabled={seconds > 0}>
            {resendLabel ?? m.verifyPhone.resend}
          </button>
        ) : null}
      </div>
      {onResend && seconds > 0 ? (
        <p className="field__hint" aria-live="polite">
          {fmt(m.verifyPhone.resendIn, { seconds })}
        </p>
      ) : null}
    </form>
  )
}

/** Whole seconds left until `at` (ms since the epoch), ticking once a second. */
function useCountdown(at: number, now: () => number): number {
  const left = () => Math.max(0, Math.ceil((at - now()) / 1000))
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    const tick = () => setSeconds(Math.max(0, Math.ceil((at - now()) / 1000)))
    tick()
    if (at <= now()) return
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [at, now])
  return seconds
}
