/**
 * Signing the extension, as the loan agreement is signed (src/features/application/summary-screen.tsx): the
 * shared code request (src/ui/forms/code-request.tsx, machines/code-request.machine.ts: the resend countdown, a
 * 429's Retry-After) asks POST .../application/{appId}/document without a code, which renders the extension
 * agreement and its disclosure statement as PDFs and sends the SMS code; the documents it answers are listed to
 * read or download; the code is then sent to the flow (SIGN), which signs with it.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useId, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import * as v from 'valibot'
import type { AmendmentDocument } from '../../../domain/contract/servicing-answers'
import { verificationCodeSchema } from '../../../domain/identity'
import { type FlowProblem, isBusy, problemOf } from '../../../machines/extension-flow.machine'
import { useApi } from '../../app/app-context'
import { downloadAmendment, sendRolloverCode } from '../../app/servicing'
import { useMessages } from '../../i18n/messages'
import { CodeRequest } from '../../ui/forms/code-request'
import { FieldError, FormError } from '../../ui/forms/fields'
import { type PdfMode, showPdf } from '../../ui/pdf'
import { STEP_TITLE_ID, type StepProps, StepTitle } from './choose-and-review'
import { codeProblems, type ExtensionTexts, problemText } from './texts'

const signSchema = v.object({ code: verificationCodeSchema })
type SignValues = v.InferOutput<typeof signSchema>

export function SignStep({ snapshot, send }: StepProps) {
  const api = useApi()
  const t = useMessages().application.extension
  const { rollover, applicationId, documents, problem } = snapshot.context
  const codeId = useId()
  // Why the last code request was refused, for the code request's message: the API's own for a 409.
  const refusal = useRef<FlowProblem | null>(null)
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignValues>({ resolver: standardSchemaResolver(signSchema), defaultValues: { code: '' } })
  if (!rollover || applicationId === null) return null
  const ids = { loanId: rollover.loanId, rolloverId: rollover.id, applicationId }
  const request = async () => {
    refusal.current = null
    try {
      const answer = await sendRolloverCode(api, ids)
      send({ type: 'DOCUMENTS', documents: answer.documents })
      return answer
    } catch (error) {
      refusal.current = problemOf(error)
      throw error
    }
  }
  const busy = isBusy(snapshot)
  const fieldKey = errors.code?.message
  const refused = problemText(problem, t)
  const codeError = fieldKey
    ? { key: fieldKey, text: (t.errors as Record<string, string | undefined>)[fieldKey] ?? t.errors.error }
    : refused && codeProblems.has(refused.key)
      ? refused
      : null
  const formError = refused && !codeProblems.has(refused.key) ? refused : null
  return (
    <section className="card stack" aria-labelledby={STEP_TITLE_ID}>
      <StepTitle>{t.sign.title}</StepTitle>
      <p>{t.sign.lead}</p>
      <CodeRequest
        request={request}
        sendLabel={t.sign.sendCode}
        resendLabel={t.sign.resendCode}
        sentText={t.sign.codeSent}
        errorText={(key) =>
          (t.errors as Record<string, string | undefined>)[key] ??
          (refusal.current?.code === key ? (refusal.current.message ?? undefined) : undefined)
        }
      />
      {documents.length ? <Documents loanId={rollover.loanId} documents={documents} t={t} /> : null}
      <form noValidate className="stack" onSubmit={handleSubmit(({ code }) => send({ type: 'SIGN', code }))}>
        <div className={`field${codeError ? ' field--invalid' : ''}`}>
          <label htmlFor={codeId} className="field__label">
            {t.sign.codeLabel}
          </label>
          <input
            id={codeId}
            className="field__input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={3}
            aria-invalid={codeError ? true : undefined}
            aria-describedby={`${codeId}-hint${codeError ? ` ${codeId}-error` : ''}`}
            {...register('code')}
          />
          <p id={`${codeId}-hint`} className="field__hint">
            {t.sign.codeHint}
          </p>
          <FieldError id={`${codeId}-error`} error={codeError} />
        </div>
        <FormError error={formError} />
        <p className="button-row">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t.sign.submitting : t.sign.submit}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => send({ type: 'BACK' })}
          >
            {t.sign.back}
          </button>
        </p>
        {busy ? <p role="status">{t.sign.submitting}</p> : null}
      </form>
    </section>
  )
}

function Documents({
  loanId,
  documents,
  t,
}: {
  loanId: number
  documents: AmendmentDocument[]
  t: ExtensionTexts
}) {
  const api = useApi()
  const [busy, setBusy] = useState<number | null>(null)
  const [failed, setFailed] = useState(false)
  const nameOf = (doc: AmendmentDocument) =>
    (t.sign.documentNames as Record<string, string | undefined>)[doc.type] ?? doc.name
  const open = async (doc: AmendmentDocument, mode: PdfMode) => {
    setBusy(doc.id)
    setFailed(false)
    try {
      showPdf(await downloadAmendment(api, loanId, doc.id), `${doc.type}-${doc.id}.pdf`, mode)
    } catch {
      setFailed(true)
    } finally {
      setBusy(null)
    }
  }
  return (
    <section aria-labelledby="extension-documents" className="stack">
      <h3 id="extension-documents" className="section__title">
        {t.sign.documents}
      </h3>
      <ul className="stack">
        {documents.map((doc) => (
          <li key={doc.id} data-document={doc.type}>
            <p>{nameOf(doc)}</p>
            <p className="button-row">
              <button
                type="button"
                className="button button--secondary button--sm"
                aria-label={`${t.sign.read}: ${nameOf(doc)}`}
                disabled={busy !== null}
                onClick={() => void open(doc, 'read')}
              >
                {t.sign.read}
              </button>
              <button
                type="button"
                className="button button--ghost button--sm"
                aria-label={`${t.sign.download}: ${nameOf(doc)}`}
                disabled={busy !== null}
                onClick={() => void open(doc, 'download')}
              >
                {t.sign.download}
              </button>
            </p>
          </li>
        ))}
      </ul>
      {busy !== null ? <p role="status">{t.sign.downloading}</p> : null}
      {failed ? (
        <div className="callout callout--warning" role="alert">
          <p className="callout__body">{t.sign.downloadFailed}</p>
        </div>
      ) : null}
    </section>
  )
}
