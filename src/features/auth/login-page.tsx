/**
 * /login: a client tab (mobile number or e-mail, password) and a back-office tab; then the second factor when
 * the token says `mfa`. The page never decides where the user goes after a login: once the auth machine is
 * logged in, the /login route's guard sends the session to its after-login page (src/app/auth-guards.ts). A
 * single-link session that could not be used lands here with a notice saying so (spec section 4).
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { type KeyboardEvent, useId, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { completeUserLogin, resendUserLoginCode, userLogin } from '../../../domain/contract/back-office'
import { clientLogin, completeClientLogin, resendClientLoginCode } from '../../../domain/contract/identity'
import { clientLoginSchema, userLoginSchema } from '../../../domain/identity'
import { isLoggedIn } from '../../../machines/auth.machine'
import { useApi, useAuthActor } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { FormError, TextField, type TextFieldProps } from '../../ui/forms/fields'
import { captchaToken } from './captcha'
import { CodeStep } from './code-step'
import { deviceHeaders, deviceId } from './device'
import { useFormErrors } from './form-support'
import { useAuth } from './use-auth'

type Tab = 'client' | 'backOffice'

export function LoginPage() {
  const m = useMessages()
  const auth = useAuthActor()
  const { status, tokenType } = useAuth()
  const done = useSelector(auth, (s) => isLoggedIn(s) || s.matches('singleLink'))
  // A single-link session whose link could not be used was sent here (machines/auth.machine.ts `notice`).
  const linkFailed = useSelector(auth, (s) => s.context.notice === 'linkFailed')
  // When the second factor's code may be asked for again, from the login answer that sent it.
  const [mfaNextCodeAt, setMfaNextCodeAt] = useState<string | null>(null)

  return (
    <section className="page page--narrow" aria-labelledby="login-title">
      <h1 id="login-title">{status === 'mfaRequired' ? m.auth.login.mfaTitle : m.titles.login}</h1>
      {linkFailed ? (
        <div className="callout callout--warning" role="status" data-notice="single-link-failed">
          <p className="callout__body">{m.auth.login.singleLinkFailed}</p>
        </div>
      ) : null}
      {status === 'mfaRequired' ? (
        // Keyed: the login's answer (with nextCodeAt) may land just after the token moved the session on.
        <SecondFactor key={mfaNextCodeAt ?? ''} type={tokenType ?? 'client'} nextCodeAt={mfaNextCodeAt} />
      ) : status === 'loggingIn' || done ? (
        <p role="status">{m.auth.login.loggingIn}</p>
      ) : (
        <LoginTabs onCodeSent={setMfaNextCodeAt} />
      )}
    </section>
  )
}

/** A login that asks for a second factor answers when its code may be asked for again. */
type OnCodeSent = (nextCodeAt: string | null) => void

function LoginTabs({ onCodeSent }: { onCodeSent: OnCodeSent }) {
  const m = useMessages().auth.login
  const [tab, setTab] = useState<Tab>('client')
  const id = useId()
  const tabs: [Tab, string][] = [
    ['client', m.clientTab],
    ['backOffice', m.backOfficeTab],
  ]
  const refs = useRef<Record<Tab, HTMLButtonElement | null>>({ client: null, backOffice: null })
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    const next: Tab = tab === 'client' ? 'backOffice' : 'client'
    setTab(next)
    refs.current[next]?.focus()
  }
  return (
    <>
      <div className="tabs" role="tablist" aria-label={m.tabsLabel}>
        {tabs.map(([key, label]) => (
          <button
            key={key}
            ref={(el) => {
              refs.current[key] = el
            }}
            type="button"
            role="tab"
            className="tabs__tab"
            id={`${id}-${key}-tab`}
            aria-selected={tab === key}
            aria-controls={`${id}-${key}-panel`}
            tabIndex={tab === key ? 0 : -1}
            onClick={() => setTab(key)}
            onKeyDown={onKey}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-${tab}-panel`} aria-labelledby={`${id}-${tab}-tab`}>
        {tab === 'client' ? (
          <ClientLoginForm onCodeSent={onCodeSent} />
        ) : (
          <BackOfficeLoginForm onCodeSent={onCodeSent} />
        )}
      </div>
    </>
  )
}

/**
 * Posts a login (client or back office) with the captcha token and this device, and hands the second-factor
 * wait on. The token itself arrives in the Authorization header; the API client gives it to the auth machine.
 */
function useLoginCall(onCodeSent: OnCodeSent) {
  const api = useApi()
  const options = () => ({ headers: deviceHeaders() })
  // Who asks: the captcha's verdict and this browser's device id.
  const proof = async (action: 'login' | 'user_login') => ({
    captchaToken: await captchaToken(action),
    deviceId: deviceId(),
  })
  const sent = (answer: { mfa: false } | { mfa: true; nextCodeAt: string | null }) =>
    onCodeSent(answer.mfa ? answer.nextCodeAt : null)
  return {
    client: async (credentials: { login: string; password: string }) =>
      sent(await api.call(clientLogin, { body: { ...credentials, ...(await proof('login')) } }, options())),
    user: async (credentials: { email: string; password: string }) =>
      sent(
        await api.call(userLogin, { body: { ...credentials, ...(await proof('user_login')) } }, options()),
      ),
  }
}

/** The two fields of a login, an identifier (phone or e-mail, or the back office's e-mail) and the password. */
function CredentialFields({
  formError,
  identifier,
  password,
}: {
  formError: Parameters<typeof FormError>[0]['error']
  identifier: TextFieldProps
  password: Omit<TextFieldProps, 'label'>
}) {
  const m = useMessages().auth
  return (
    <>
      <FormError error={formError} />
      <TextField autoComplete="username" {...identifier} />
      <TextField label={m.fields.password} type="password" autoComplete="current-password" {...password} />
    </>
  )
}

const CLIENT_FIELDS = ['login', 'password'] as const

function ClientLoginForm({ onCodeSent }: { onCodeSent: OnCodeSent }) {
  const m = useMessages().auth
  const logIn = useLoginCall(onCodeSent).client
  const form = useForm({
    resolver: standardSchemaResolver(clientLoginSchema),
    defaultValues: { login: '', password: '' },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, CLIENT_FIELDS)
  const submit = form.handleSubmit((values) => {
    setFormError(null)
    return logIn({ login: values.login, password: values.password }).catch((error) =>
      fail(error, form.setError),
    )
  })
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <CredentialFields
        formError={formError}
        identifier={{ label: m.fields.login, error: fieldError('login'), ...form.register('login') }}
        password={{ error: fieldError('password'), ...form.register('password') }}
      />
      <div className="button-row">
        <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
          {m.login.submit}
        </button>
        <Link to="/recover" className="text-link">
          {m.login.forgot}
        </Link>
      </div>
      <p>
        {m.login.noAccount}{' '}
        <Link to="/registration" className="text-link">
          {m.login.register}
        </Link>
      </p>
    </form>
  )
}

const USER_FIELDS = ['email', 'password'] as const

function BackOfficeLoginForm({ onCodeSent }: { onCodeSent: OnCodeSent }) {
  const m = useMessages().auth
  const logIn = useLoginCall(onCodeSent).user
  const form = useForm({
    resolver: standardSchemaResolver(userLoginSchema),
    defaultValues: { email: '', password: '' },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, USER_FIELDS)
  const submit = form.handleSubmit((values) => {
    setFormError(null)
    return logIn({ email: values.email, password: values.password }).catch((error) =>
      fail(error, form.setError),
    )
  })
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <CredentialFields
        formError={formError}
        identifier={{
          label: m.fields.email,
          type: 'email',
          error: fieldError('email'),
          ...form.register('email'),
        }}
        password={{ error: fieldError('password'), ...form.register('password') }}
      />
      <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
        {m.login.submit}
      </button>
    </form>
  )
}

/** The second factor: an SMS code for a risky client login, an e-mail code for a new back-office device. */
function SecondFactor({ type, nextCodeAt }: { type: 'client' | 'user'; nextCodeAt?: string | null }) {
  const m = useMessages().auth.login
  const api = useApi()
  const { send } = useAuth()
  return (
    <>
      <p className="lead">{type === 'user' ? m.mfaLeadEmail : m.mfaLeadSms}</p>
      <CodeStep
        submitLabel={m.mfaSubmit}
        resendLabel={m.mfaResend}
        onSubmit={async (code) => {
          // The answer carries the same session without `mfa`: the machine loads the user.
          const input = { body: { code } }
          const options = { headers: deviceHeaders() }
          if (type === 'user') await api.call(completeUserLogin, input, options)
          else await api.call(completeClientLogin, input, options)
        }}
        nextCodeAt={nextCodeAt}
        onResend={() => (type === 'user' ? api.call(resendUserLoginCode) : api.call(resendClientLoginCode))}
      />
      <button type="button" className="button button--ghost" onClick={() => send({ type: 'LOGOUT' })}>
        {m.mfaCancel}
      </button>
    </>
  )
}
