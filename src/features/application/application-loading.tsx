/**
 * /application/loading: the decision engine works asynchronously. The application-wait machine
 * (machines/application-wait.machine.ts) asks for the application's status every STATUS_POLL_INTERVAL_MS and
 * gives up after WAIT_TIMEOUT_MS; whenever the status answers something new it tells the journey to refetch the
 * flow (the journey machine and the route guards, not this page, move the client on). This page only shows the
 * machine's state and sends KEEP_WAITING.
 */
import { Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { useMemo, useState } from 'react'
import { applicationStatus } from '../../../domain/offer-decision'
import {
  applicationWaitMachine,
  STATUS_POLL_INTERVAL_MS,
  WAIT_TIMEOUT_MS,
} from '../../../machines/application-wait.machine'
import { useApi, useJourneyRefresh } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { applicationWaitActors } from './application-api'
import { ErrorNotice, ScreenFrame } from './parts'

export const POLL_MS = STATUS_POLL_INTERVAL_MS
export const TIMEOUT_MS = WAIT_TIMEOUT_MS

export function ApplicationLoading({ pollMs = POLL_MS, timeoutMs = TIMEOUT_MS }) {
  const api = useApi()
  const m = useMessages().application
  const refreshJourney = useJourneyRefresh()
  const machine = useMemo(
    () =>
      applicationWaitMachine.provide({
        actors: applicationWaitActors(api),
        actions: { statusChanged: () => refreshJourney() },
      }),
    [api, refreshJourney],
  )
  const [input] = useState(() => ({ pollInterval: pollMs, timeout: timeoutMs }))
  const actor = useActorRef(machine, { input })
  const timedOut = useSelector(actor, (s) => s.matches('timedOut'))
  const errorCode = useSelector(actor, (s) => s.context.errorCode)
  // Verification (7): the scoring provider asked for time to check the client (server/services/lending/jobs.ts).
  const verifying = useSelector(actor, (s) => s.context.status === applicationStatus.verification)

  if (timedOut) {
    return (
      <ScreenFrame title={m.loading.timeoutTitle}>
        <div className="callout callout--info" role="alert" data-error-key="application-loading-timeout">
          <p className="callout__body">{m.loading.timeoutBody}</p>
        </div>
        <p className="button-row">
          <button
            type="button"
            className="button button--primary"
            onClick={() => actor.send({ type: 'KEEP_WAITING' })}
          >
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
    <ScreenFrame title={m.loading.title} lead={verifying ? m.loading.verifyingBody : m.loading.body}>
      <div className="application-loading" role="status" aria-live="polite" aria-busy="true">
        <span className="calculator__spinner" aria-hidden="true" />
        <span>{verifying ? m.loading.verifyingStatus : m.loading.status}</span>
      </div>
      {errorCode ? <ErrorNotice errorKey={errorCode} /> : null}
    </ScreenFrame>
  )
}
