/**
 * /affiliate/sleeper-otp?lead_id=...: a single-link login (docs/decisions/0006). The link's token plus an SMS
 * code to the client's phone open a session that sees my loan only; the auth machine takes it from there.
 */
import { Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { FormError } from '../../ui/forms/fields'
import { captchaToken } from './captcha'
import { CodeStep } from './code-step'
import { useErrorText } from './error-text'
import { SINGLE_LINK_HOME } from './guards'
import { useAuth } from './use-auth'

export function SingleLinkPage({ leadId }: { leadId?: string }) {
  const m = useMessages()
  const s = m.auth.singleLink
  const api = useApi()
  const text = useErrorText()
  const { singleLink } = useAuth()
  const navigate = useNavigate()
  const [sent, setSent] = useState<{ to: string; nextCodeAt?: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (singleLink) void navigate({ to: SINGLE_LINK_HOME, replace: true })
  }, [singleLink, navigate])

  const requestCode = async () => {
    if (!leadId) return
    setError(null)
    setBusy(true)
    try {
      const answer = await api.post<{ to: string; nextCodeAt?: string }>('/public/affiliates/leads/otp', {
        leadId,
        captchaToken: await captchaToken('lead_otp'),
      })
      setSent({ to: answer.to, nextCodeAt: answer.nextCodeAt })
    } catch (failure) {
      setError((failure as { code?: string }).code ?? 'generic')
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="page page--narrow" aria-labelledby="single-link-title">
      <h1 id="single-link-title">{m.titles.affiliate_sleeper_otp}</h1>
      {!leadId ? (
        <>
          <p>{s.missing}</p>
          <Link to="/login" className="button button--primary">
            {s.login}
          </Link>
        </>
      ) : sent ? (
        <>
          <p className="lead">{fmt(s.sentTo, { to: sent.to })}</p>
          <CodeStep
            submitLabel={s.submit}
            nextCodeAt={sent.nextCodeAt}
            onSubmit={async (code) => {
              // The answer's token has `sl`: the auth machine enters singleLink and the effect above moves on.
              await api.post('/public/affiliates/leads/otp/login', { leadId, code })
            }}
            onResend={async () => {
              const answer = await api.post<{ nextCodeAt?: string }>('/public/affiliates/leads/otp', {
                leadId,
                captchaToken: await captchaToken('lead_otp'),
              })
              return answer?.nextCodeAt
            }}
          />
        </>
      ) : (
        <>
          <p className="lead">{s.lead}</p>
          <FormError error={text(error)} />
          <button type="button" className="button button--primary" onClick={requestCode} disabled={busy}>
            {s.send}
          </button>
        </>
      )}
    </section>
  )
}
