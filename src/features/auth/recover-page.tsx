/**
 * /recover: a code by SMS to the account's number, then the code and a new password. The server answers the
 * same whether or not the login exists, so this page cannot be used to find out who has an account.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { recoverPasswordSchema } from '../../../domain/identity'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { FormError, FormSuccess, TextField } from '../../ui/forms/fields'
import { captchaToken } from './captcha'
import { useFormErrors } from './form-support'

const FIELDS = ['login', 'code', 'password', 'passwordRepeat'] as const

export function RecoverPage() {
  const m = useMessages()
  const r = m.auth.recover
  const api = useApi()
  const [step, setStep] = useState<'request' | 'reset' | 'done'>('request')
  const form = useForm({
    resolver: standardSchemaResolver(recoverPasswordSchema),
    defaultValues: { login: '' },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, FIELDS)
  const submit = form.handleSubmit(async (values) => {
    setFormError(null)
    try {
      if (step === 'request') {
        await api.post('/public/client/recover/password', {
          login: values.login,
          captchaToken: await captchaToken('recover'),
        })
        // From now on the schema requires the code and the new password, which start empty.
        form.reset({ login: values.login, code: '', password: '', passwordRepeat: '' })
        setStep('reset')
        return
      }
      await api.post('/public/client/recover/password', values)
      setStep('done')
    } catch (error) {
      fail(error, form.setError)
    }
  })

  return (
    <section className="page page--narrow" aria-labelledby="recover-title">
      <h1 id="recover-title">{m.titles.recover}</h1>
      {step === 'done' ? (
        <>
          <FormSuccess>{r.done}</FormSuccess>
          <p>
            <Link to="/login" className="button button--primary">
              {m.auth.login.submit}
            </Link>
          </p>
        </>
      ) : (
        <form className="auth-form" noValidate onSubmit={submit}>
          <p className="lead">{step === 'request' ? r.lead : r.sentLead}</p>
          <FormError error={formError} />
          <TextField
            label={m.auth.fields.login}
            autoComplete="username"
            readOnly={step === 'reset'}
            error={fieldError('login')}
            {...form.register('login')}
          />
          {step === 'reset' ? (
            <>
              <TextField
                label={m.auth.fields.code}
                hint={m.auth.fields.codeHint}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={3}
                error={fieldError('code')}
                {...form.register('code')}
              />
              <TextField
                label={m.auth.fields.newPassword}
                hint={m.auth.fields.passwordHint}
                type="password"
                autoComplete="new-password"
                maxLength={24}
                error={fieldError('password')}
                {...form.register('password')}
              />
              <TextField
                label={m.auth.fields.passwordRepeat}
                type="password"
                autoComplete="new-password"
                maxLength={24}
                error={fieldError('passwordRepeat')}
                {...form.register('passwordRepeat')}
              />
            </>
          ) : null}
          <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
            {step === 'request' ? r.send : r.submit}
          </button>
        </form>
      )}
    </section>
  )
}
