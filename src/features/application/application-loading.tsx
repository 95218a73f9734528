/**
 * /application/loading: the decision engine works asynchronously, so this page asks for the application's
 * status every POLL_MS. Whenever the status answers something new it tells the journey to refetch the flow
 * (the router, not this page, moves the client on). After TIMEOUT_MS it stops asking and says so, with a way
 * to keep waiting or to leave.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { useApi, useJourneyRefresh } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { applicationQueryKeys, getActualStatus } from './application-api'
import { ErrorNotice, errorKeyOf, ScreenFrame } from './parts'

export const POLL_MS = 2_500
export const TIMEOUT_MS = 60_000

export function ApplicationLoading({ pollMs = POLL_MS, timeoutMs = TIMEOUT_MS }) {
  const api = useApi()
  const m = useMessages().application
  const refreshJourney = useJourneyRefresh()
  const [timedOut, setTimedOut] = useState(false)

  // Each wait (the first, and each Keep waiting) lasts timeoutMs.
  useEffect(() => {
    if (timedOut) return
    const timer = setTimeout(() => setTimedOut(true), timeoutMs)
    return () => clearTimeout(timer)
  }, [timeoutMs, timedOut])

  const status = useQuery({
    queryKey: applicationQueryKeys.status,
    queryFn: ({ signal }) => getActualStatus(api, signal),
    refetchInterval: timedOut ? false : pollMs,
    refetchIntervalInBackground: true,
    staleTime: 0,
  })

  const seen = useRef<number | null>(null)
  const current = status.data?.status
  useEffect(() => {
    if (current === undefined || current === seen.current) return
    seen.current = current
    refreshJourney()
  }, [current, refreshJourney])

  if (timedOut) {
    return (
      <ScreenFrame title={m.loading.timeoutTitle}>
        <div className="callout callout--info" role="alert" data-error-key="application-loading-timeout">
          <p className="callout__body">{m.loading.timeoutBody}</p>
        </div>
        <p className="button-row">
          <button type="button" className="button button--primary" onClick={() => setTimedOut(false)}>
            {m.loading.keepWaiting}
          </button>
          <Link to="/profile" className="button button--secondary">
            {m.goToProfile}
          </Link>
          <Link to="/contact" className="button button--ghost">
            {m.contactUs}
          </Link>
        </p>
      </ScreenFrame>
    )
  }

  return (
    <ScreenFrame title={m.loading.title} lead={m.loading.body}>
      <div className="application-loading" role="status" aria-live="polite" aria-busy="true">
        <span className="calculator__spinner" aria-hidden="true" />
        <span>{m.loading.status}</span>
      </div>
      {status.isError ? <ErrorNotice errorKey={errorKeyOf(status.error)} /> : null}
    </ScreenFrame>
  )
}
