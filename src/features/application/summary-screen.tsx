/**
 * /registration/summary (flow step otp_agreement): the documents are rendered for the approved figures
 * (POST /private/client/render/document), the client reads the loan agreement and the Truth in Lending
 * disclosure statement (PDFs from GET /private/client/document/download/{type}), asks for the SMS code (POST
 * /private/client/application/agreement/{id} without a code) and signs with it (the same call with the code).
 * A signed agreement asks the journey to refetch the flow: the router moves the client on.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useForm } from 'react-hook-form'
import * as v from 'valibot'
import { messageKeys, verificationCodeSchema } from '../../../domain/identity'
import { formatPhp } from '../../../domain/money'
import { ApiError } from '../../api/client'
import { useApi, useJourneyRefresh } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import {
  type DocumentType,
  documentTypes,
  paths,
  renderDocuments,
  sendSigningCode,
  signAgreement,
} from './application-api'
import { formatLongDate } from './format'
import { ErrorNotice, errorKeyOf, Figures, QueryGate, ScreenFrame } from './parts'
import { useActualApplication } from './queries'

const signSchema = v.object({ code: verificationCodeSchema })
type SignForm = v.InferOutput<typeof signSchema>

/** The spec's code answers (section 8) as message keys; anything else keeps the API's code. */
export function signErrorKey(error: unknown): string {
  if (error instanceof ApiError || (typeof error === 'object' && error !== null)) {
    const { message, code } = error as { message?: string; code?: string }
    if (message === 'Code not found by given identity' || code === 'codeNotSent') {
      return messageKeys.verificationCodeUnsent
    }
    if (
      message === 'Phone verification not passed' ||
      code === 'codeIncorrect' ||
      code === 'validationError'
    ) {
      return messageKeys.verificationCode
    }
  }
  return errorKeyOf(error)
}

/** Opens the PDF (read) or saves it as `<type>.pdf` (download). */
function showPdf(blob: Blob, type: DocumentType, mode: 'read' | 'download') {
  const url = URL.createObjectURL(blob)
  if (mode === 'read') {
    window.open(url, '_blank', 'noopener')
  } else {
    const link = document.createElement('a')
    link.href = url
    link.download = `${type}.pdf`
    link.click()
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

function Documents() {
  const api = useApi()
  const m = useMessages().application.summary
  const names: Record<DocumentType, string> = {
    loan_agreement: m.agreement,
    disclosure_statement: m.disclosure,
  }
  const [busy, setBusy] = useState<DocumentType | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const open = async (type: DocumentType, mode: 'read' | 'download') => {
    setBusy(type)
    setFailed(null)
    try {
      showPdf(await api.blob(paths.download(type)), type, mode)
    } catch (error) {
      setFailed(errorKeyOf(error))
    } finally {
      setBusy(null)
    }
  }
  return (
    <section aria-labelledby="summary-documents" className="card">
      <h2 id="summary-documents" className="card__title">
        {m.documents}
      </h2>
      <ul className="stack">
        {documentTypes.map((type) => (
          <li key={type} data-document={type}>
            <p>{names[type]}</p>
            <p className="button-row">
              <button
                type="button"
                className="button button--secondary button--sm"
                aria-label={`${m.read}: ${names[type]}`}
                disabled={busy !== null}
                onClick={() => void open(type, 'read')}
              >
                {m.read}
              </button>
              <button
                type="button"
                className="button button--ghost button--sm"
                aria-label={`${m.download}: ${names[type]}`}
                disabled={busy !== null}
                onClick={() => void open(type, 'download')}
              >
                {m.download}
              </button>
            </p>
          </li>
        ))}
      </ul>
      {busy ? <p role="status">{m.downloading}</p> : null}
      {failed ? (
        <ErrorNotice errorKey={failed}>
          <p>{m.downloadFailed}</p>
        </ErrorNotice>
      ) : null}
    </section>
  )
}

function SignForm({ applicationId }: { applicationId: number }) {
  const api = useApi()
  const m = useMessages().application
  const refreshJourney = useJourneyRefresh()
  const codeId = useId()
  const [signed, setSigned] = useState(false)
  const [codeSent, setCodeSent] = useState(false)
  const [sendError, setSendError] = useState<string | null>(null)
  const sendCode = async () => {
    setSendError(null)
    try {
      await sendSigningCode(api, applicationId)
      setCodeSent(true)
    } catch (error) {
      setSendError(errorKeyOf(error))
    }
  }
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignForm>({ resolver: standardSchemaResolver(signSchema), defaultValues: { code: '' } })

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await signAgreement(api, applicationId, code)
      setSigned(true)
      refreshJourney()
    } catch (error) {
      setError('code', { type: 'server', message: signErrorKey(error) })
    }
  })

  const errorKey = errors.code?.message
  const errorText = errorKey ? ((m.errors as Record<string, string>)[errorKey] ?? m.errors.error) : null
  if (signed) return <p role="status">{m.summary.signed}</p>
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <p className="button-row">
        <button type="button" className="button button--secondary" onClick={() => void sendCode()}>
          {codeSent ? m.summary.resendCode : m.summary.sendCode}
        </button>
      </p>
      {codeSent ? <p role="status">{m.summary.codeSent}</p> : null}
      {sendError ? <ErrorNotice errorKey={sendError} /> : null}
      <div className={`field ${errorKey ? 'field--invalid' : ''}`}>
        <label htmlFor={codeId} className="field__label">
          {m.summary.codeLabel}
        </label>
        <input
          id={codeId}
          className="field__input"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={3}
          aria-invalid={errorKey ? true : undefined}
          aria-describedby={`${codeId}-hint${errorKey ? ` ${codeId}-error` : ''}`}
          {...register('code')}
        />
        <p id={`${codeId}-hint`} className="field__hint">
          {m.summary.codeHint}
        </p>
        {errorKey ? (
          <p id={`${codeId}-error`} className="field__error" role="alert" data-error-key={errorKey}>
            {errorText}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
        {isSubmitting ? m.summary.signing : m.summary.sign}
      </button>
    </form>
  )
}

/** The documents are rendered once per visit for the approved figures; their offer's totals are shown. */
function Prepared({ applicationId }: { applicationId: number }) {
  const api = useApi()
  const m = useMessages().application.summary
  const rendered = useQuery({
    queryKey: ['application', applicationId, 'documents'],
    queryFn: () => renderDocuments(api),
    staleTime: Number.POSITIVE_INFINITY,
  })
  return (
    <QueryGate query={rendered}>
      {({ offer }) => (
        <>
          <Figures
            label={m.title}
            figures={[
              { name: 'total', label: m.total, value: formatPhp(offer.total.amount) },
              { name: 'due-date', label: m.dueDate, value: formatLongDate(offer.endDate) },
            ]}
          />
          <Documents />
          <SignForm applicationId={applicationId} />
        </>
      )}
    </QueryGate>
  )
}

export function SummaryScreen() {
  const m = useMessages().application.summary
  const query = useActualApplication()
  return (
    <ScreenFrame title={m.title} lead={m.lead}>
      <QueryGate query={query}>{(application) => <Prepared applicationId={application.id} />}</QueryGate>
    </ScreenFrame>
  )
}
