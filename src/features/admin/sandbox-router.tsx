/**
 * /admin/router, the sandbox router for QA and admins: the documented sandbox data (which first name gives
 * which decision, which payout account which payout outcome; domain/sandbox-data.ts, checked against the
 * providers by tests/domain/sandbox-data.test.ts), the QA cookie that lifts the journey's redirects in this
 * browser (spec section 4, Sandbox), the instance's sandbox mode that does the same for every visitor (issue 20;
 * sandbox-mode.tsx), the sandbox tools that move the business clock and make a payment arrive at a channel (issue
 * 16; sandbox-tools.tsx), and every page of the client journey to open directly.
 */
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { journeyPages } from '../../../domain/journey/destinations'
import { SANDBOX_COOKIE } from '../../../domain/journey/routing'
import { sandboxPayoutByAccount, sandboxScoringByFirstName } from '../../../domain/sandbox-data'
import { readCookie, removeCookie, writeCookie } from '../../app/cookies'
import { useMessages } from '../../i18n/messages'
import { TableSection } from './admin-parts'
import { InstanceSandboxMode } from './sandbox-mode'
import { SandboxTools } from './sandbox-tools'

/** A QA session lasts a working day. */
const SANDBOX_COOKIE_SECONDS = 12 * 60 * 60

export function SandboxRouter() {
  const m = useMessages().admin
  const r = m.router
  const [enabled, setEnabled] = useState(() => readCookie(SANDBOX_COOKIE) !== null)
  const toggle = () => {
    if (enabled) removeCookie(SANDBOX_COOKIE)
    else writeCookie(SANDBOX_COOKIE, '1', SANDBOX_COOKIE_SECONDS)
    setEnabled(readCookie(SANDBOX_COOKIE) !== null)
  }
  return (
    <>
      <section className="section" aria-labelledby="qa-cookie-title">
        <h2 id="qa-cookie-title" className="section__title">
          {r.cookieTitle}
        </h2>
        <p role="status" data-sandbox-cookie={enabled ? 'on' : 'off'}>
          {enabled ? r.cookieOn : r.cookieOff}
        </p>
        <p className="button-row">
          <button type="button" className="button button--secondary" onClick={toggle}>
            {enabled ? r.disable : r.enable}
          </button>
        </p>
      </section>
      <InstanceSandboxMode />
      <SandboxTools />
      <TableSection
        id="sandbox-scoring-title"
        title={r.scoringTitle}
        columns={[r.firstName, r.outcome]}
        rows={sandboxScoringByFirstName.map((row) => [row.firstName, row.firstName, row.status])}
      />
      <TableSection
        id="sandbox-payout-title"
        title={r.payoutTitle}
        columns={[r.account, r.outcome]}
        rows={sandboxPayoutByAccount.map((row) => [
          row.account,
          row.account,
          row.outcome.replaceAll('_', ' '),
        ])}
      />
      <nav className="section" aria-labelledby="journey-pages-title">
        <h2 id="journey-pages-title" className="section__title">
          {r.pagesTitle}
        </h2>
        <ul>
          {Object.entries(journeyPages).map(([name, path]) => (
            <li key={name}>
              <a href={path}>
                {path} <span className="field__hint">({name})</span>
              </a>
            </li>
          ))}
        </ul>
        <p>
          <Link to="/admin">{r.back}</Link> · <Link to="/admin/payments">{r.paymentsLink}</Link>
        </p>
      </nav>
    </>
  )
}
