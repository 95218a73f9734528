/**
 * /registration, first step (spec sections 2, 5): mobile number, e-mail, password twice, and the consents a
 * Philippine lender records (terms and privacy under RA 10173 required, marketing optional), each with its
 * version on the server. Sign-up opens a session and sends an SMS code; the second half of the page verifies
 * the number. The shell's progress bar shows 30 % on every registration page.
 *
 * The device-data consent (docs/decisions/0042) may be given here too, unticked by default: ticked, the browser
 * asks the profiling tool's session (POST /public/util/hello-soda, the visitor's just-in-time consent in its
 * body) as the form is sent, and records the consent for the new client once signed up, so the notice after
 * login does not ask again. Neither call ever holds up or fails the sign-up.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { AFFILIATE_COOKIE, parseCampaignCookie } from '../../../domain/campaign'
import { sendPhoneCodeTs, signUp, verifyPhoneTs } from '../../../domain/contract/identity'
import { answerDeviceDataConsent, helloSoda } from '../../../domain/contract/tracking'
import { signUpSchema } from '../../../domain/identity'
import { DEVICE_DATA_CONSENT_VERSION } from '../../../domain/tracking'
import { useApi } from '../../app/app-context'
import { readCookie } from '../../app/cookies'
import { fmt, useMessages } from '../../i18n/messages'
import { CheckboxField, FormError, FormSuccess, TextField } from '../../ui/forms/fields'
import { phoneInputProps } from '../../ui/forms/phone-input'
import { captchaToken } from './captcha'
import { CodeStep } from './code-step'
import { deviceHeaders, deviceId } from './device'
import { useFormErrors } from './form-support'
import { NewPasswordFields } from './password-fields'
import { useAuth } from './use-auth'

const FIELDS = [
  'mobilePhone.number',
  'email',
  'password',
  'passwordRepeat',
  'consents.terms',
  'consents.privacy',
  'consents.marketing',
] as const

/**
 * An affiliate lead the sign-up comes with (docs/decisions/0014), handed in by the route: its id goes with the
 * sign-up (the server links the lead to the new client and closes it); its phone and e-mail prefill the form.
 */
export interface SignUpLead {
  leadId: string | null
  phone?: string
  email?: string
}

export function RegistrationPage({
  lead,
  onSignedUp,
}: {
  lead?: SignUpLead
  /** Called once the sign-up succeeded (the route forgets the lead cookie). */
  onSignedUp?: () => void
} = {}) {
  const m = useMessages()
  const { status, user, tokenType } = useAuth()
  const [nextCodeAt, setNextCodeAt] = useState<string | null>(null)
  const signedUp = status === 'loggedIn' && user !== null
  return (
    <section className="page page--narrow" aria-labelledby="registration-title">
      <h1 id="registration-title">{signedUp ? m.auth.verifyPhone.title : m.titles.registration}</h1>
      {signedUp && tokenType === 'user' ? (
        // A back-office user has no client record: the client calls below would only answer 403.
        <p>
          <Link to="/admin" className="text-link">
            {fmt(m.auth.profile.adminLead, { email: user.email })}
          </Link>
        </p>
      ) : signedUp ? (
        <VerifyPhone nextCodeAt={nextCodeAt} />
      ) : status === 'loggingIn' ? (
        <p role="status">{m.auth.login.loggingIn}</p>
      ) : (
        <SignUpForm
          lead={lead}
          onSignedUp={(next) => {
            onSignedUp?.()
            setNextCodeAt(next)
          }}
        />
      )}
    </section>
  )
}

export function SignUpForm({
  lead,
  onSignedUp,
}: {
  lead?: SignUpLead
  onSignedUp: (nextCodeAt: string | null) => void
}) {
  const m = useMessages().auth
  const api = useApi()
  const form = useForm({
    resolver: standardSchemaResolver(signUpSchema),
    defaultValues: {
      mobilePhone: { number: '' },
      email: '',
      password: '',
      passwordRepeat: '',
      // Terms and privacy start unticked: the schema's literal(true) makes each required.
      consents: { marketing: false },
    },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(form.formState.errors, FIELDS)
  // Not a field of the sign-up body: its own consent, with its own calls (see the file's comment).
  const [deviceData, setDeviceData] = useState(false)
  const [deviceChecked, setDeviceChecked] = useState(false)
  // The lead arrives after the first render; it fills only what the visitor has not typed yet.
  const { phone: leadPhone, email: leadEmail } = lead ?? {}
  useEffect(() => {
    if (leadPhone && !form.getFieldState('mobilePhone.number').isDirty)
      form.setValue('mobilePhone.number', leadPhone)
    if (leadEmail && !form.getFieldState('email').isDirty) form.setValue('email', leadEmail)
  }, [form, leadPhone, leadEmail])
  const submit = form.handleSubmit(async (values) => {
    setFormError(null)
    // Stored with the client; the cookie stays for the application, which sends and removes it (spec section 2).
    const campaign = parseCampaignCookie(readCookie(AFFILIATE_COOKIE))
    try {
      const body = {
        ...values,
        language: 'en' as const,
        captchaToken: await captchaToken('signup'),
        deviceId: deviceId(),
        ...(lead?.leadId ? { leadId: lead.leadId } : {}),
        ...(campaign ? { campaign } : {}),
      }
      if (deviceData && !deviceChecked) {
        setDeviceChecked(true)
        const consent = { deviceData: true, version: DEVICE_DATA_CONSENT_VERSION } as const
        void api.call(helloSoda, { body: { deviceId: deviceId(), consent } }, { quiet: true }).catch(() => {})
      }
      const answer = await api.call(signUp, { body }, { headers: deviceHeaders() })
      if (deviceData)
        await api
          .call(
            answerDeviceDataConsent,
            { body: { granted: true, version: DEVICE_DATA_CONSENT_VERSION } },
            { quiet: true },
          )
          // Not recorded now, the notice after login asks again: the sign-up itself went through.
          .catch(() => {})
      onSignedUp(answer.nextCodeAt)
    } catch (error) {
      fail(error, form.setError)
    }
  })
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <p className="lead">{m.registration.lead}</p>
      <FormError error={formError} />
      <TextField
        label={m.fields.phone}
        hint={m.fields.phoneHint}
        error={fieldError('mobilePhone.number')}
        {...phoneInputProps(form.register('mobilePhone.number'))}
      />
      <TextField
        label={m.fields.email}
        type="email"
        autoComplete="email"
        error={fieldError('email')}
        {...form.register('email')}
      />
      <NewPasswordFields
        passwordLabel={m.fields.password}
        password={{ error: fieldError('password'), ...form.register('password') }}
        passwordRepeat={{ error: fieldError('passwordRepeat'), ...form.register('passwordRepeat') }}
      />
      <fieldset>
        <legend>{m.consents.legend}</legend>
        <p className="field__hint">{m.consents.notice}</p>
        <CheckboxField
          label={m.consents.terms}
          error={fieldError('consents.terms')}
          {...form.register('consents.terms')}
        />
        <CheckboxField
          label={m.consents.privacy}
          error={fieldError('consents.privacy')}
          {...form.register('consents.privacy')}
        />
        <CheckboxField label={m.consents.marketing} {...form.register('consents.marketing')} />
        <CheckboxField
          label={m.consents.deviceData}
          checked={deviceData}
          onChange={(event) => setDeviceData(event.currentTarget.checked)}
        />
        <p className="field__hint">
          <Link to="/documents/terms" className="text-link">
            {m.consents.termsLink}
          </Link>
          {' · '}
          <Link to="/documents/policy" className="text-link">
            {m.consents.privacyLink}
          </Link>
        </p>
      </fieldset>
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={form.formState.isSubmitting}
      >
        {m.registration.submit}
      </button>
      <p>
        {m.registration.haveAccount}{' '}
        <Link to="/login" className="text-link">
          {m.registration.login}
        </Link>
      </p>
    </form>
  )
}

export function VerifyPhone({ nextCodeAt }: { nextCodeAt?: string | null }) {
  const m = useMessages().auth
  const api = useApi()
  const { user, send } = useAuth()
  const phone = user?.info?.mobilePhone?.number ?? ''
  if (user?.phoneVerified) {
    return (
      <>
        <FormSuccess>{m.verifyPhone.done}</FormSuccess>
        <p>
          <Link to="/profile" className="button button--primary">
            {m.profile.links}
          </Link>
        </p>
      </>
    )
  }
  return (
    <>
      <p className="lead">{fmt(m.verifyPhone.lead, { phone })}</p>
      <CodeStep
        submitLabel={m.verifyPhone.submit}
        nextCodeAt={nextCodeAt}
        onSubmit={async (code) => {
          const answer = await api.call(verifyPhoneTs, { body: { code } })
          send({ type: 'USER.UPDATED', user: answer.client })
        }}
        onResend={() => api.call(sendPhoneCodeTs)}
      />
    </>
  )
}
