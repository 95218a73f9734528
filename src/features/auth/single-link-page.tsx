/**
 * /affiliate/sleeper-otp?lead_id=...: a single-link login (docs/decisions/0006). The link's token plus an SMS
 * code to the client's phone open a session that sees my loan only; the auth machine takes it from there (the
 * route's guard sends the single-link session to my loan).
 */
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { sendSingleLinkCode, singleLinkLogin } from '../../../domain/contract/identity'
import { formatPhone } from '../../../domain/format'
import { messageKeys } from '../../../domain/identity'
import { ApiError } from '../../api/client'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { CodeRequest } from '../../ui/forms/code-request'
import { captchaToken } from './captcha'
import { CodeStep } from './code-step'
import { useAuth } from './use-auth'

export function SingleLinkPage({ leadId }: { leadId?: string }) {
  const m = useMessages()
  const s = m.auth.singleLink
  return (
    <section className="page page--narrow" aria-labelledby="single-link-title">
      <h1 id="single-link-title">{m.titles.affiliate_sleeper_otp}</h1>
      {leadId ? (
        <SingleLinkLogin leadId={leadId} />
      ) : (
        <>
          <p>{s.missing}</p>
          <Link to="/login" className="button button--primary">
            {s.login}
          </Link>
        </>
      )}
    </section>
  )
}

function SingleLinkLogin({ leadId }: { leadId: string }) {
  const m = useMessages()
  const s = m.auth.singleLink
  const api = useApi()
  const { singleLink } = useAuth()
  const [sent, setSent] = useState<{ to: string; nextCodeAt?: string } | null>(null)

  const requestCode = async () =>
    api.call(sendSingleLinkCode, { body: { leadId, captchaToken: await captchaToken('lead_otp') } })

  if (singleLink) return <p role="status">{m.auth.login.loggingIn}</p>
  if (sent)
    return (
      <>
        <p className="lead">{fmt(s.sentTo, { to: formatPhone(sent.to) })}</p>
        <CodeStep
          submitLabel={s.submit}
          nextCodeAt={sent.nextCodeAt}
          onSubmit={async (code) => {
            // The answer's token has `sl`: the auth machine enters singleLink and the route's guard moves on.
            await api.call(singleLinkLogin, { body: { leadId, code } }).catch((error: unknown) => {
              throw otpError(error)
            })
          }}
          onResend={requestCode}
        />
      </>
    )
  return (
    <>
      <p className="lead">{s.lead}</p>
      {/* The first code: a refusal for the number's one code a minute counts down here. */}
      <CodeRequest
        sendLabel={s.send}
        request={async () => {
          const answer = await requestCode()
          setSent({ to: answer.to, nextCodeAt: answer.nextCodeAt })
          return answer
        }}
      />
    </>
  )
}

/**
 * The lead's code is a one-time password: "not sent" shows the spec's OTP selector (section 8,
 * error-otp-code-unsent) rather than the phone verification's.
 */
export function otpError(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.code !== 'codeNotSent') return error
  return new ApiError(
    error.status,
    error.path,
    error.code,
    messageKeys.otpCodeUnsent,
    error.violations.map((violation) => ({ ...violation, message: messageKeys.otpCodeUnsent })),
    error.retryAfterSeconds,
  )
}
