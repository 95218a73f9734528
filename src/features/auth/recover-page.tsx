/**
 * /recover: a code by SMS to the account's number, then the code and a new password. The server answers the
 * same whether or not the login exists, so this page cannot be used to find out who has an account.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { recoverPassword } from '../../../domain/contract/identity'
import { recoverPasswordSchema } from '../../../domain/identity'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { CodeRequest, waitAfterRefusal } from '../../ui/forms/code-request'
import { FormError, FormSuccess, TextField } from '../../ui/forms/fields'
import { captchaToken } from './captcha'
import { useFormErrors } from './form-support'
import { NewPasswordFields } from './password-fields'

const FIELDS = ['login', 'code', 'password', 'passwordRepeat'] as const

export function RecoverPage() {
  const m = useMessages()
  const r = m.auth.recover
  const api = useApi()
  const [step, setStep] = useState<'request' | 'reset' | 'done'>('request')
  // When the next code may be asked for, from the answer that sent (or refused) the first one.
  const [wait, setWait] = useState<{ nextCodeAt?: string | null; limited?: boolean }>({})
  const form = useForm({
    resolver: standardSchemaResolver(recoverPasswordSchema),
    defaultValues: { login: '' },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, FIELDS)
  const requestCode = async (login: string) => {
    const body = { login, captchaToken: await captchaToken('recover') }
    const answer = await api.call(recoverPassword, { body })
    return 'nextCodeAt' in answer ? answer : null
  }
  const submit = form.handleSubmit(async (values) => {
    setFormError(null)
    // From now on the schema requires the code and the new password, which start empty.
    const toReset = (next: typeof wait) => {
      form.reset({ login: values.login, code: '', password: '', passwordRepeat: '' })
      setWait(next)
      setStep('reset')
    }
    try {
      if (step === 'request') {
        const answer = await requestCode(values.login)
        toReset({ nextCodeAt: answer?.nextCodeAt })
        return
      }
      await api.call(recoverPassword, { body: values })
      setStep('done')
    } catch (error) {
      // Asked again too soon: the reset step counts down to when a new code may be sent.
      const refusedUntil = step === 'request' ? waitAfterRefusal(error) : null
      if (refusedUntil) toReset({ nextCodeAt: refusedUntil, limited: true })
      else fail(error, form.setError)
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
              <NewPasswordFields
                password={{ error: fieldError('password'), ...form.register('password') }}
                passwordRepeat={{ error: fieldError('passwordRepeat'), ...form.register('passwordRepeat') }}
              />
            </>
          ) : null}
          <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
            {step === 'request' ? r.send : r.submit}
          </button>
          {step === 'reset' ? (
            <CodeRequest
              sent={!wait.limited}
              limited={wait.limited}
              nextCodeAt={wait.nextCodeAt}
              request={() => requestCode(form.getValues('login'))}
            />
          ) : null}
        </form>
      )}
    </section>
  )
}
