/**
 * /profile/change-password, /profile/change-phone, /profile/change-email. Phone and e-mail changes send a
 * code to the NEW value, then save with it; the new value must differ from the current one (spec section 5,
 * "taken" errors), checked here for a quick answer and by the server for the rule.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import { useForm } from 'react-hook-form'
import {
  changeEmailSendCodeSchema,
  changePasswordSchema,
  changePhoneSendCodeSchema,
  messageKeys,
} from '../../../domain/identity'
import type { AuthUser } from '../../../machines/auth.machine'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { waitAfterRefusal } from '../../ui/forms/code-request'
import { FormError, FormSuccess, TextField } from '../../ui/forms/fields'
import { phoneInputProps } from '../../ui/forms/phone-input'
import { CodeStep } from './code-step'
import { useFormErrors } from './form-support'
import { useAuth } from './use-auth'

function ChangeLayout({ title, children }: { title: string; children: ReactNode }) {
  const m = useMessages().auth.change
  return (
    <section className="page page--narrow" aria-labelledby="change-title">
      <h1 id="change-title">{title}</h1>
      {children}
      <p>
        <Link to="/profile" className="text-link">
          {m.back}
        </Link>
      </p>
    </section>
  )
}

const PASSWORD_FIELDS = ['oldPassword', 'password', 'passwordRepeat'] as const

export function ChangePasswordPage() {
  const m = useMessages()
  const api = useApi()
  const [done, setDone] = useState(false)
  const form = useForm({
    resolver: standardSchemaResolver(changePasswordSchema),
    defaultValues: { oldPassword: '', password: '', passwordRepeat: '' },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, PASSWORD_FIELDS)
  const submit = form.handleSubmit(async (values) => {
    setFormError(null)
    if (values.password === values.oldPassword) {
      form.setError(
        'password',
        { type: 'server', message: messageKeys.uniqueNewPassword },
        { shouldFocus: true },
      )
      return
    }
    try {
      await api.post('/private/client/change/password', values)
      form.reset()
      setDone(true)
    } catch (error) {
      fail(error, form.setError)
    }
  })
  return (
    <ChangeLayout title={m.titles.profile_change_password}>
      {done ? <FormSuccess>{m.auth.change.passwordDone}</FormSuccess> : null}
      <form className="auth-form" noValidate onSubmit={submit}>
        <FormError error={formError} />
        <TextField
          label={m.auth.fields.oldPassword}
          type="password"
          autoComplete="current-password"
          error={fieldError('oldPassword')}
          {...form.register('oldPassword')}
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
        <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
          {m.auth.change.submit}
        </button>
      </form>
    </ChangeLayout>
  )
}

const PHONE_FIELDS = ['mobilePhone.number'] as const

export function ChangePhonePage() {
  const m = useMessages()
  const api = useApi()
  const { user, send } = useAuth()
  const [sent, setSent] = useState<{ number: string; nextCodeAt?: string | null; limited?: boolean } | null>(
    null,
  )
  const [done, setDone] = useState(false)
  const form = useForm({
    resolver: standardSchemaResolver(changePhoneSendCodeSchema),
    defaultValues: { mobilePhone: { number: '' } },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, PHONE_FIELDS)
  const sendCode = form.handleSubmit(async (values) => {
    setFormError(null)
    setDone(false)
    if (values.mobilePhone.number === user?.info?.mobilePhone?.number) {
      form.setError(
        'mobilePhone.number',
        { type: 'server', message: messageKeys.phoneTaken },
        { shouldFocus: true },
      )
      return
    }
    try {
      const answer = await api.post<{ nextCodeAt?: string }>('/private/client/change/phone/send-code', values)
      setSent({ number: values.mobilePhone.number, nextCodeAt: answer?.nextCodeAt })
    } catch (error) {
      // Asked again too soon: the code step counts down to when a new code may be sent.
      const wait = waitAfterRefusal(error)
      if (wait) setSent({ number: values.mobilePhone.number, nextCodeAt: wait, limited: true })
      else fail(error, form.setError)
    }
  })
  return (
    <ChangeLayout title={m.titles.profile_change_phone}>
      {done ? <FormSuccess>{m.auth.change.phoneDone}</FormSuccess> : null}
      {sent ? (
        <>
          <p className="lead">{fmt(m.auth.change.codeSent, { target: sent.number })}</p>
          <CodeStep
            submitLabel={m.auth.change.submit}
            nextCodeAt={sent.nextCodeAt}
            limited={sent.limited}
            onSubmit={async (code) => {
              const answer = await api.put<{ client: AuthUser }>('/private/client/change/phone', {
                mobilePhone: { number: sent.number },
                code,
              })
              send({ type: 'USER.UPDATED', user: answer.client })
              setSent(null)
              form.reset()
              setDone(true)
            }}
            onResend={() =>
              api.post<{ nextCodeAt?: string }>('/private/client/change/phone/send-code', {
                mobilePhone: { number: sent.number },
              })
            }
          />
        </>
      ) : (
        <form className="auth-form" noValidate onSubmit={sendCode}>
          <FormError error={formError} />
          <TextField
            label={m.auth.fields.newPhone}
            hint={m.auth.fields.phoneHint}
            error={fieldError('mobilePhone.number')}
            {...phoneInputProps(form.register('mobilePhone.number'))}
          />
          <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
            {m.auth.change.sendCode}
          </button>
        </form>
      )}
    </ChangeLayout>
  )
}

const EMAIL_FIELDS = ['email'] as const

export function ChangeEmailPage() {
  const m = useMessages()
  const api = useApi()
  const { user, send } = useAuth()
  const [sent, setSent] = useState<{ email: string; nextCodeAt?: string | null; limited?: boolean } | null>(
    null,
  )
  const [done, setDone] = useState(false)
  const form = useForm({
    resolver: standardSchemaResolver(changeEmailSendCodeSchema),
    defaultValues: { email: '' },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, EMAIL_FIELDS)
  const sendCode = form.handleSubmit(async (values) => {
    setFormError(null)
    setDone(false)
    if (values.email === user?.email) {
      form.setError('email', { type: 'server', message: messageKeys.emailTaken }, { shouldFocus: true })
      return
    }
    try {
      const answer = await api.post<{ nextCodeAt?: string }>('/private/client/change/email/send-code', values)
      setSent({ email: values.email, nextCodeAt: answer?.nextCodeAt })
    } catch (error) {
      const wait = waitAfterRefusal(error)
      if (wait) setSent({ email: values.email, nextCodeAt: wait, limited: true })
      else fail(error, form.setError)
    }
  })
  return (
    <ChangeLayout title={m.titles.profile_change_email}>
      {done ? <FormSuccess>{m.auth.change.emailDone}</FormSuccess> : null}
      {sent ? (
        <>
          <p className="lead">{fmt(m.auth.change.codeSent, { target: sent.email })}</p>
          <CodeStep
            submitLabel={m.auth.change.submit}
            nextCodeAt={sent.nextCodeAt}
            limited={sent.limited}
            onSubmit={async (code) => {
              const answer = await api.put<{ client: AuthUser }>('/private/client/change/email', {
                email: sent.email,
                code,
              })
              send({ type: 'USER.UPDATED', user: answer.client })
              setSent(null)
              form.reset()
              setDone(true)
            }}
            onResend={() =>
              api.post<{ nextCodeAt?: string }>('/private/client/change/email/send-code', {
                email: sent.email,
              })
            }
          />
        </>
      ) : (
        <form className="auth-form" noValidate onSubmit={sendCode}>
          <FormError error={formError} />
          <TextField
            label={m.auth.fields.newEmail}
            type="email"
            autoComplete="email"
            error={fieldError('email')}
            {...form.register('email')}
          />
          <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
            {m.auth.change.sendCode}
          </button>
        </form>
      )}
    </ChangeLayout>
  )
}
