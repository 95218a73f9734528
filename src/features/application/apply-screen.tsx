/**
 * /application/apply (issue 6 item 6): the compact calculator preset from the client's limits, with the
 * borrowers advantage package consent and the promo code (the calculator's own controls), and the Apply button
 * that creates the application (POST /private/client/application, spec section 7). The page never moves the
 * client itself: after the server accepted the application it asks the journey to refetch the flow, and the
 * router's journey guard takes the client to /application/loading (ADR 0011).
 *
 * The calculator and the create call come in from the route, which composes the two features (a feature never
 * reaches into another).
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type ComponentType, type FormEvent, useCallback, useId, useRef, useState } from 'react'
import type { ApiClient } from '../../api/client'
import { useApi, useJourneyRefresh } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { isServerFailure, type ServerViolation } from '../../ui/forms/violations'
import { applicationQueryKeys, getActualStatus } from './application-api'

/** What the calculator reports: the figures of the application, and whether the offer shown is priced. */
export interface ApplySelection {
  amount: number
  term: number
  optionalFee: boolean
  promoCode: string | null
  priced: boolean
  /** The server refused these figures; the calculator shows why and how to change them. */
  refused?: boolean
}

export interface ApplyScreenProps {
  Calculator: ComponentType<{ onSelection: (selection: ApplySelection) => void }>
  /** Creates the application with these figures, sending `idempotencyKey` (features/calculator/submit.ts). */
  create: (
    api: ApiClient,
    figures: Omit<ApplySelection, 'priced'>,
    idempotencyKey: string,
  ) => Promise<unknown>
  /** A fresh Idempotency-Key. */
  newKey: () => string
}

/** Statuses after which a new application may be made (spec section 4: active unless one of these). */
const finishedStatuses = new Set([4, 5, 6, 23])

/** The server's field names (loanAmount.amount, term.value, promoCode) as spec message keys. */
function errorKeyOfViolation(violation: ServerViolation): string {
  if (violation.message.startsWith('error-')) return violation.message
  if (violation.propertyPath.startsWith('loanAmount')) return 'error-amount-out-of-range'
  if (violation.propertyPath.startsWith('term')) return 'error-term-out-of-range'
  return 'error-application'
}

type Failure =
  | { kind: 'exists' }
  | { kind: 'server' }
  | { kind: 'violations'; violations: ServerViolation[] }
  | { kind: 'other'; code: string; message: string }

export function ApplyScreen({ Calculator, create, newKey }: ApplyScreenProps) {
  const m = useMessages().application
  const api = useApi()
  const refreshJourney = useJourneyRefresh()
  const formId = useId()
  const [selection, setSelection] = useState<ApplySelection | null>(null)
  const [sending, setSending] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)
  // One key per attempt: a repeated click for the same figures (an answer lost on the way) replays the first
  // result on the server instead of making a second application; other figures are another attempt.
  const attempt = useRef<{ figures: string; key: string } | null>(null)

  const status = useQuery({
    queryKey: applicationQueryKeys.status,
    queryFn: ({ signal }) => getActualStatus(api, signal),
  })
  const existing = status.data && !finishedStatuses.has(status.data.status) ? status.data : null

  const onSelection = useCallback((next: ApplySelection) => {
    setSelection(next)
    setFailure((current) => (current?.kind === 'violations' ? null : current))
  }, [])

  async function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (!selection?.priced || sending) return
    const figures = {
      amount: selection.amount,
      term: selection.term,
      optionalFee: selection.optionalFee,
      promoCode: selection.promoCode,
    }
    const figuresKey = JSON.stringify(figures)
    if (attempt.current?.figures !== figuresKey) attempt.current = { figures: figuresKey, key: newKey() }
    setSending(true)
    setFailure(null)
    try {
      await create(api, figures, attempt.current.key)
      attempt.current = null
      // The journey moves to application_processing; the router's guard shows /application/loading.
      refreshJourney()
    } catch (error) {
      setSending(false)
      if (!isServerFailure(error)) return setFailure({ kind: 'server' })
      if (error.status >= 500) return setFailure({ kind: 'server' })
      if (error.code === 'applicationExist') {
        refreshJourney()
        return setFailure({ kind: 'exists' })
      }
      if (error.violations.length) return setFailure({ kind: 'violations', violations: error.violations })
      setFailure({ kind: 'other', code: error.code || 'error', message: error.message })
    }
  }

  if (existing || failure?.kind === 'exists') {
    return (
      <div className="callout callout--info" role="status" data-error-key="applicationExist">
        <h2 className="callout__title">{m.apply.existsTitle}</h2>
        <p className="callout__body">{m.apply.existsBody}</p>
        <p>
          <Link to="/application/loading" className="button button--primary">
            {m.apply.openApplication}
          </Link>
        </p>
      </div>
    )
  }

  const canSubmit = Boolean(selection?.priced) && !sending
  const hintId = `${formId}-hint`
  const errorsId = `${formId}-errors`
  return (
    <>
      <p className="lead">{m.apply.lead}</p>
      <Calculator onSelection={onSelection} />
      <form className="apply-form" aria-label={m.apply.submit} noValidate onSubmit={onSubmit}>
        {failure ? (
          <div id={errorsId} className="callout callout--warning" role="alert">
            {failure.kind === 'server' ? (
              <p className="callout__body" data-error-key="error-create-application">
                {m.apply.createFailed}
              </p>
            ) : failure.kind === 'violations' ? (
              <>
                <p className="callout__body">{m.apply.formError}</p>
                <ul>
                  {failure.violations.map((violation) => {
                    const key = errorKeyOfViolation(violation)
                    const texts = m.apply.fieldErrors as Record<string, string>
                    return (
                      <li
                        key={`${violation.propertyPath}:${violation.message}`}
                        data-error-key={key}
                        data-field={violation.propertyPath}
                      >
                        {fmt(texts[key] ?? texts.default!, { message: violation.message })}
                      </li>
                    )
                  })}
                </ul>
              </>
            ) : failure.kind === 'other' ? (
              <p className="callout__body" data-error-key={failure.code}>
                {(m.errors as Record<string, string>)[failure.code] ?? failure.message}
              </p>
            ) : null}
          </div>
        ) : null}
        {selection && !selection.priced && !selection.refused ? (
          <p id={hintId} className="field__hint" role="status">
            {m.apply.waitForOffer}
          </p>
        ) : null}
        <button
          type="submit"
          className="button button--accent button--lg button--block"
          disabled={!canSubmit}
          aria-describedby={
            failure ? errorsId : selection && !selection.priced && !selection.refused ? hintId : undefined
          }
        >
          {sending ? m.apply.submitting : m.apply.submit}
        </button>
      </form>
    </>
  )
}
