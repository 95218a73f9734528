/**
 * /profile/change-password, /profile/change-phone, /profile/change-email. Phone and e-mail changes send a
 * code to the NEW value, then save with it; the new value must differ from the current one (spec section 5,
 * "taken" errors), checked here for a quick answer and by the server for the rule. Their steps (the form, the
 * code, saving, done) are states of machines/credential-change.machine.ts; the forms only show its errors.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { type ReactNode, useState } from 'react'
import { useForm } from 'react-hook-form'
import { type Actor, fromPromise, waitFor } from 'xstate'
import {
  changeEmail,
  changePassword,
  changePhone,
  sendChangeEmailCode,
  sendChangePhoneCode,
} from '../../../domain/contract/identity'
import type { ClientView } from '../../../domain/contract/identity-answers'
import { formatPhone } from '../../../domain/format'
import {
  changeEmailSendCodeSchema,
  changePasswordSchema,
  changePhoneSendCodeSchema,
  messageKeys,
} from '../../../domain/identity'
import type { CodeSent } from '../../../machines/code-request.machine'
import {
  type CredentialChangeEvent,
  credentialChangeMachine,
  credentialChangeView,
} from '../../../machines/credential-change.machine'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { FormError, FormSuccess, TextField } from '../../ui/forms/fields'
import { phoneInputProps } from '../../ui/forms/phone-input'
import { CodeStep } from './code-step'
import { useFormErrors } from './form-support'
import { NewPasswordFields } from './password-fields'
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
      await api.call(changePassword, { body: values })
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
        <NewPasswordFields
          password={{ error: fieldError('password'), ...form.register('password') }}
          passwordRepeat={{ error: fieldError('passwordRepeat'), ...form.register('passwordRepeat') }}
        />
        <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
          {m.auth.change.submit}
        </button>
      </form>
    </ChangeLayout>
  )
}

type ChangeActor = Actor<typeof credentialChangeMachine>

/**
 * Sends an event to the change machine and answers once it has left `busy`: the failure it recorded is thrown,
 * so the form on screen puts it on its fields (the machine decides the step, the form shows the error).
 */
async function settle(actor: ChangeActor, event: CredentialChangeEvent, busy: 'sendingCode' | 'saving') {
  actor.send(event)
  const snapshot = await waitFor(actor, (s) => !s.matches(busy))
  if (snapshot.context.error) throw snapshot.context.error
}

/** The change machine of one page: the send-code and save calls, and the saved client for the session. */
function useCredentialChange(calls: {
  sendCode: (value: string) => Promise<CodeSent | null | undefined>
  save: (value: string, code: string) => Promise<{ client: ClientView }>
}) {
  const { send } = useAuth()
  const [machine] = useState(() =>
    credentialChangeMachine.provide({
      actors: {
        sendCode: fromPromise(({ input }) => calls.sendCode(input.value)),
        save: fromPromise(({ input }) => calls.save(input.value, input.code)),
      },
      actions: {
        storeSaved: (_, { output }) =>
          send({ type: 'USER.UPDATED', user: (output as { client: ClientView }).client }),
      },
    }),
  )
  const actor = useActorRef(machine, { input: {} })
  const view = useSelector(actor, credentialChangeView)
  return { actor, view }
}

/**
 * What the phone and e-mail pages share: the done message, and, once a code was sent to the new value, the code
 * step (submit and resend) in place of the page's own send-code form (`children`).
 */
function CredentialChangeSteps({
  title,
  doneText,
  change: { actor, view },
  resend,
  onSaved,
  children,
}: {
  title: string
  doneText: string
  change: ReturnType<typeof useCredentialChange>
  /** The send-code call again, for the value the code went to. */
  resend: (value: string) => Promise<CodeSent>
  onSaved: () => void
  children: ReactNode
}) {
  const m = useMessages()
  return (
    <ChangeLayout title={title}>
      {view.done ? <FormSuccess>{doneText}</FormSuccess> : null}
      {view.codeStep ? (
        <>
          <p className="lead">{fmt(m.auth.change.codeSent, { target: formatPhone(view.value ?? '') })}</p>
          <CodeStep
            submitLabel={m.auth.change.submit}
            nextCodeAt={view.nextCodeAt}
            limited={view.limited}
            onSubmit={async (code) => {
              await settle(actor, { type: 'SUBMIT', code }, 'saving')
              onSaved()
            }}
            onResend={() => resend(view.value ?? '')}
          />
        </>
      ) : (
        children
      )}
    </ChangeLayout>
  )
}

const PHONE_FIELDS = ['mobilePhone.number'] as const

export function ChangePhonePage() {
  const m = useMessages()
  const api = useApi()
  const { user } = useAuth()
  const sendPhoneCode = (number: string) =>
    api.call(sendChangePhoneCode, { body: { mobilePhone: { number } } })
  const change = useCredentialChange({
    sendCode: sendPhoneCode,
    save: (number, code) => api.call(changePhone, { body: { mobilePhone: { number }, code } }),
  })
  const form = useForm({
    resolver: standardSchemaResolver(changePhoneSendCodeSchema),
    defaultValues: { mobilePhone: { number: '' } },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, PHONE_FIELDS)
  const sendCode = form.handleSubmit(async (values) => {
    setFormError(null)
    if (values.mobilePhone.number === user?.info?.mobilePhone?.number) {
      form.setError(
        'mobilePhone.number',
        { type: 'server', message: messageKeys.phoneTaken },
        { shouldFocus: true },
      )
      return
    }
    try {
      // Asked again too soon: the machine still moves on to the code step, counting down.
      await settle(change.actor, { type: 'SEND_CODE', value: values.mobilePhone.number }, 'sendingCode')
    } catch (error) {
      fail(error, form.setError)
    }
  })
  return (
    <CredentialChangeSteps
      title={m.titles.profile_change_phone}
      doneText={m.auth.change.phoneDone}
      change={change}
      resend={sendPhoneCode}
      onSaved={() => form.reset()}
    >
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
    </CredentialChangeSteps>
  )
}

const EMAIL_FIELDS = ['email'] as const

export function ChangeEmailPage() {
  const m = useMessages()
  const api = useApi()
  const { user } = useAuth()
  const sendEmailCode = (email: string) => api.call(sendChangeEmailCode, { body: { email } })
  const change = useCredentialChange({
    sendCode: sendEmailCode,
    save: (email, code) => api.call(changeEmail, { body: { email, code } }),
  })
  const form = useForm({
    resolver: standardSchemaResolver(changeEmailSendCodeSchema),
    defaultValues: { email: '' },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, EMAIL_FIELDS)
  const sendCode = form.handleSubmit(async (values) => {
    setFormError(null)
    if (values.email === user?.email) {
      form.setError('email', { type: 'server', message: messageKeys.emailTaken }, { shouldFocus: true })
      return
    }
    try {
      await settle(change.actor, { type: 'SEND_CODE', value: values.email }, 'sendingCode')
    } catch (error) {
      fail(error, form.setError)
    }
  })
  return (
    <CredentialChangeSteps
      title={m.titles.profile_change_email}
      doneText={m.auth.change.emailDone}
      change={change}
      resend={sendEmailCode}
      onSaved={() => form.reset()}
    >
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
    </CredentialChangeSteps>
  )
}
