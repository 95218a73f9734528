/** /profile: who you are, whether your number and e-mail are verified, and the account's pages. */
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { sendEmailCode, verifyEmail } from '../../../domain/contract/identity'
import { formatPhone } from '../../../domain/format'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { CodeRequest } from '../../ui/forms/code-request'
import { displayName } from '../../ui/layout/account'
import { CodeStep } from './code-step'
import { DeviceDataSetting } from './device-data-setting'
import { useAuth } from './use-auth'

export function ProfilePage() {
  const m = useMessages()
  const a = m.auth.profile
  const { user, send, tokenType, singleLink } = useAuth()
  const clientId = tokenType === 'client' && !singleLink && user ? String(user.id) : null
  if (!user) return null
  const phone = user.info?.mobilePhone?.number ?? ''
  const state = (verified?: boolean) => (verified ? a.verified : a.notVerified)
  return (
    <section className="page page--narrow" aria-labelledby="profile-title">
      <h1 id="profile-title">{m.titles.profile}</h1>
      <p className="lead">{a.lead}</p>
      <dl className="details-list">
        <div className="details-list__row">
          <dt>{a.name}</dt>
          <dd className="details-list__value">{displayName(user)}</dd>
        </div>
        <div className="details-list__row">
          <dt>{a.phone}</dt>
          <dd className="details-list__value">
            {formatPhone(phone)} ({state(user.phoneVerified)})
          </dd>
        </div>
        <div className="details-list__row">
          <dt>{a.email}</dt>
          <dd className="details-list__value">
            {user.email} ({state(user.emailVerified)})
          </dd>
        </div>
      </dl>
      {user.phoneVerified ? null : (
        <p>
          <Link to="/registration" className="button button--primary">
            {a.verifyPhone}
          </Link>
        </p>
      )}
      {user.emailVerified ? null : <VerifyEmail email={user.email} />}
      <h2>{a.links}</h2>
      <ul className="link-cards">
        <li>
          <Link to="/profile/my-loan" className="text-link">
            {a.myLoan}
          </Link>
        </li>
        <li>
          <Link to="/profile/change-password" className="text-link">
            {a.changePassword}
          </Link>
        </li>
        <li>
          <Link to="/profile/change-phone" className="text-link">
            {a.changePhone}
          </Link>
        </li>
        <li>
          <Link to="/profile/change-email" className="text-link">
            {a.changeEmail}
          </Link>
        </li>
      </ul>
      {clientId ? <DeviceDataSetting clientId={clientId} /> : null}
      <button type="button" className="button button--ghost" onClick={() => send({ type: 'LOGOUT' })}>
        {a.logout}
      </button>
    </section>
  )
}

/** The e-mail is verified with a code sent to it (the phone was verified at sign-up). */
function VerifyEmail({ email }: { email: string }) {
  const m = useMessages().auth
  const api = useApi()
  const { send } = useAuth()
  const [sent, setSent] = useState<{ nextCodeAt?: string } | null>(null)
  const sendCode = async () => {
    const answer = await api.call(sendEmailCode)
    setSent({ nextCodeAt: answer.nextCodeAt })
    return answer
  }
  if (!sent) return <CodeRequest request={sendCode} sendLabel={m.profile.verifyEmail} />
  return (
    <>
      <p className="lead">{fmt(m.change.codeSent, { target: email })}</p>
      <CodeStep
        submitLabel={m.verifyPhone.submit}
        nextCodeAt={sent.nextCodeAt}
        onSubmit={async (code) => {
          const answer = await api.call(verifyEmail, { body: { code } })
          send({ type: 'USER.UPDATED', user: answer.client })
        }}
        onResend={() => api.call(sendEmailCode)}
      />
    </>
  )
}
