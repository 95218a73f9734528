/**
 * /registration/document-verification (step veriff): open a Veriff-style session (POST /veriff/session), let
 * the client do the check at the provider (a link to its page), then ask for the decision
 * (GET /veriff/decision/{id}): approved and declined move the journey on (the router follows), a resubmission
 * asks for a new session.
 *
 * Sandbox: the sandbox provider answers with a session page inside this app (`?sandboxSession=`) instead of an
 * external one, and decides at once from the last name. Only then does the screen explain the test data.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import {
  getVerificationDecision,
  getVerificationSession,
  startVerification,
  type VerificationSession,
} from '../../../domain/contract/verification'
import { ApiError } from '../../api/client'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError } from '../../ui/forms/fields'
import { isStepMismatch, useJourneyErrorText } from './form-support'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

export const sessionKey = ['journey', 'veriff', 'session'] as const

/** The sandbox provider's session page is this app's own page; a real provider's is its own site. */
export const isSandboxSession = (session: VerificationSession | null | undefined) =>
  !!session && session.url.startsWith('/') && session.url.includes('sandboxSession=')

export function DocumentVerification({ onCompleted }: { onCompleted?: () => void }) {
  const m = useMessages()
  const t = m.journey.verification
  const api = useApi()
  const queryClient = useQueryClient()
  const text = useJourneyErrorText()
  const refresh = useJourneyRefresh(onCompleted)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [checkedPending, setCheckedPending] = useState(false)

  const session = useQuery({
    queryKey: sessionKey,
    queryFn: async ({ signal }) => {
      try {
        return await api.call(getVerificationSession, {}, { signal })
      } catch (failure) {
        // No session yet is a normal start, not an error.
        if (failure instanceof ApiError && failure.status === 404) return null
        throw failure
      }
    },
  })
  const failed = (failure: unknown) => {
    // The step moved on elsewhere (another tab): let the router follow.
    if (isStepMismatch(failure)) refresh()
    setError(text(failure instanceof ApiError ? (failure.violations[0]?.message ?? failure.code) : 'generic'))
  }

  const start = useMutation({
    mutationFn: () => api.call(startVerification),
    onMutate: () => {
      setError(null)
      setCheckedPending(false)
    },
    onSuccess: (answer) => queryClient.setQueryData(sessionKey, answer),
    onError: failed,
  })
  const decide = useMutation({
    mutationFn: (id: string) => api.call(getVerificationDecision, { params: { id } }),
    onMutate: () => setError(null),
    onSuccess: (answer) => {
      queryClient.setQueryData(sessionKey, answer)
      if (answer.status === 'created') setCheckedPending(true)
      // Approved and declined moved the journey (to bank data, or to the rejected page): let the router follow.
      if (answer.status === 'approved' || answer.status === 'declined') refresh()
    },
    onError: failed,
  })

  const current = session.data
  const sandbox = isSandboxSession(current)
  const busy = start.isPending || decide.isPending

  return (
    <StepFrame step="verification" title={m.titles.registration_document_verification} intro={t.intro}>
      {session.isPending ? <p aria-busy="true">{m.journey.common.loading}</p> : null}
      <div aria-live="polite">
        {current?.status === 'approved' ? (
          <div className="callout callout--success" data-outcome="approved">
            <p className="callout__title">{t.approved}</p>
          </div>
        ) : null}
        {current?.status === 'declined' ? (
          <div className="callout callout--warning" data-outcome="declined">
            <p className="callout__title">{t.declined}</p>
            <p className="callout__body">{t.declinedHelp}</p>
          </div>
        ) : null}
        {current?.status === 'resubmission_requested' ? (
          <div className="callout callout--warning" data-outcome="resubmission_requested">
            <p className="callout__title">{t.resubmission}</p>
            <p className="callout__body">
              {current.reason ? `${fmt(t.reason, { reason: current.reason })} ` : ''}
              {t.resubmissionHelp}
            </p>
          </div>
        ) : null}
        {current?.status === 'created' && checkedPending ? <p data-outcome="pending">{t.pending}</p> : null}
      </div>
      <FormError error={error} />

      {sandbox ? (
        <aside className="callout" aria-labelledby="veriff-sandbox-title">
          <p id="veriff-sandbox-title" className="callout__title">
            {t.sandboxTitle}
          </p>
          <p className="callout__body">{t.sandboxBody}</p>
        </aside>
      ) : null}

      <div className="reg-actions">
        {!session.isPending && (!current || current.status === 'resubmission_requested') ? (
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            aria-busy={start.isPending}
            onClick={() => start.mutate()}
          >
            {start.isPending ? t.starting : current ? t.again : t.start}
          </button>
        ) : null}
        {current?.status === 'created' ? (
          <>
            {sandbox ? null : (
              <a className="button button--secondary" href={current.url}>
                {t.open}
              </a>
            )}
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              aria-busy={decide.isPending}
              onClick={() => decide.mutate(current.id)}
            >
              {decide.isPending ? t.checking : t.check}
            </button>
          </>
        ) : null}
      </div>
    </StepFrame>
  )
}
