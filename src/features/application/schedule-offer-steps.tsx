/**
 * The steps of accepting a payment-schedule special offer on My loan (machines/schedule-offer.machine.ts): review
 * the offer as it would be agreed today (the Truth in Lending figures, every instalment, the documents, and why
 * when the decision refuses it), then sign as the loan agreement is signed (summary-screen.tsx): the shared code
 * request (src/ui/forms/code-request.tsx with machines/code-request.machine.ts: the resend countdown, a 429's
 * wait) asks POST .../special-offer/submit/{id} without a code, which renders the documents and sends the SMS
 * code; the code is then sent to the flow (SIGN), which signs with it.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import * as v from 'valibot'
import type { AmendmentDocument, ScheduleOffer } from '../../../domain/contract/servicing-answers'
import { formatPhp } from '../../../domain/format'
import { verificationCodeSchema } from '../../../domain/identity'
import {
  isBusy,
  type OfferProblem,
  problemOf,
  type ScheduleOfferEvent,
  type ScheduleOfferSnapshot,
} from '../../../machines/schedule-offer.machine'
import { useApi } from '../../app/app-context'
import { downloadAmendment } from '../../app/servicing'
import { fmt, useMessages } from '../../i18n/messages'
import { CodeRequest } from '../../ui/forms/code-request'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { type PdfMode, showPdf } from '../../ui/pdf'
import { formatLongDate } from './format'
import { ScrollTable } from './loan-history'
import { Figures } from './parts'
import { sendScheduleCode } from './schedule-api'

export type ScheduleTexts = ReturnType<typeof useMessages>['repay']['schedule']

export interface StepProps {
  snapshot: ScheduleOfferSnapshot
  send: (event: ScheduleOfferEvent) => void
}

export const STEP_TITLE_ID = 'schedule-offer-step'

/** A step's title: focused when the step appears, so a screen reader says where the client now is. */
export function StepTitle({ children }: { children: ReactNode }) {
  return (
    <h3 id={STEP_TITLE_ID} className="card__title" tabIndex={-1}>
      {children}
    </h3>
  )
}

/**
 * A figure or date kept on one line in a narrow table cell ('₱2,782.50', 'Dec 22, 2026'): the table scrolls
 * sideways on a phone rather than breaking an amount in two.
 */
export const unbroken = (text: string) => text.replace(/ /g, '\u00a0')

/** The SMS code was wrong, unsent or malformed: said on the code field rather than above the form. */
const codeProblems = new Set(['codeIncorrect', 'codeNotSent', 'validationError'])

/** Our text for a code we know, else the API's message of a refusal (409), else the generic one. */
export function problemText(problem: OfferProblem | null, t: ScheduleTexts): FieldErrorView | null {
  if (!problem) return null
  const known = (t.errors as Record<string, string | undefined>)[problem.code]
  return { key: problem.code, text: known ?? problem.message ?? t.errors.error }
}

export function ReviewStep({ snapshot, send }: StepProps) {
  const t = useMessages().repay.schedule
  const { offer, documents } = snapshot.context
  if (!offer) return null
  const r = t.review
  const lowered = offer.interest.amount < offer.interestAtRate.amount
  return (
    <section className="card stack" aria-labelledby={STEP_TITLE_ID} data-step="review">
      <StepTitle>{fmt(r.title, { type: t.types[offer.type] })}</StepTitle>
      <p>{r.lead}</p>
      {offer.available ? null : (
        <div className="callout callout--warning" role="alert" data-unavailable>
          <p className="callout__body">{r.unavailable}</p>
          {offer.reason ? <p className="callout__body">{offer.reason}</p> : null}
        </div>
      )}
      <Figures
        label={r.figuresLabel}
        figures={[
          { name: 'owed', label: r.owed, value: formatPhp(offer.owed.amount) },
          { name: 'interest', label: r.interest, value: formatPhp(offer.interest.amount) },
          { name: 'total', label: r.total, value: formatPhp(offer.total.amount) },
          { name: 'days', label: r.days, value: fmt(r.daysValue, { days: offer.days }) },
          { name: 'legal-room', label: r.legalRoom, value: formatPhp(offer.legalRoom.amount) },
        ]}
      />
      {lowered ? (
        <p className="muted">{fmt(r.interestLowered, { atRate: formatPhp(offer.interestAtRate.amount) })}</p>
      ) : null}
      <OfferPayments offer={offer} t={t} />
      {documents.length ? <Documents loanId={offer.loanId} documents={documents} t={t} /> : null}
      <p className="button-row">
        {offer.available ? (
          <button type="button" className="button button--primary" onClick={() => send({ type: 'CONTINUE' })}>
            {r.continue}
          </button>
        ) : null}
        <button type="button" className="button button--ghost" onClick={() => send({ type: 'CANCEL' })}>
          {r.close}
        </button>
      </p>
    </section>
  )
}

function OfferPayments({ offer, t }: { offer: ScheduleOffer; t: ScheduleTexts }) {
  const c = t.columns
  return (
    <ScrollTable
      label={t.review.paymentsLabel}
      columns={[[c.seq], [c.dueDate], [c.amount, true], [c.interest, true]]}
    >
      {offer.payments.map((payment) => (
        <tr key={payment.seq} data-instalment={payment.seq}>
          <td>{payment.seq}</td>
          <td>{unbroken(formatLongDate(payment.dueDate))}</td>
          <td className="num">{unbroken(formatPhp(payment.amount.amount))}</td>
          <td className="num">{unbroken(formatPhp(payment.interest.amount))}</td>
        </tr>
      ))}
    </ScrollTable>
  )
}

const signSchema = v.object({ code: verificationCodeSchema })
type SignValues = v.InferOutput<typeof signSchema>

export function SignStep({ snapshot, send }: StepProps) {
  const api = useApi()
  const t = useMessages().repay.schedule
  const { offerId, offer, documents, problem } = snapshot.context
  // Why the last code request was refused, for the code request's message: the API's own for a 409.
  const refusal = useRef<OfferProblem | null>(null)
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<SignValues>({ resolver: standardSchemaResolver(signSchema), defaultValues: { code: '' } })
  // A refused code brings the focus back to the field, which then reads its error.
  const codeRefused = problem !== null && codeProblems.has(problem.code)
  useEffect(() => {
    if (codeRefused) setFocus('code')
  }, [codeRefused, setFocus])
  if (offerId === null || !offer) return null
  const request = async () => {
    refusal.current = null
    try {
      const answer = await sendScheduleCode(api, offerId)
      send({ type: 'DOCUMENTS', documents: answer.documents })
      return answer
    } catch (error) {
      refusal.current = problemOf(error)
      throw error
    }
  }
  const busy = isBusy(snapshot)
  const s = t.sign
  const fieldKey = errors.code?.message
  const refused = problemText(problem, t)
  const codeError = fieldKey
    ? { key: fieldKey, text: (t.errors as Record<string, string | undefined>)[fieldKey] ?? t.errors.error }
    : refused && codeProblems.has(refused.key)
      ? refused
      : null
  const formError = refused && !codeProblems.has(refused.key) ? refused : null
  return (
    <section className="card stack" aria-labelledby={STEP_TITLE_ID} data-step="sign">
      <StepTitle>{s.title}</StepTitle>
      <p>{s.lead}</p>
      <CodeRequest
        request={request}
        sendLabel={s.sendCode}
        resendLabel={s.resendCode}
        sentText={s.codeSent}
        errorText={(key) =>
          (t.errors as Record<string, string | undefined>)[key] ??
          (refusal.current?.code === key ? (refusal.current.message ?? undefined) : undefined)
        }
      />
      {documents.length ? <Documents loanId={offer.loanId} documents={documents} t={t} /> : null}
      <form noValidate className="stack" onSubmit={handleSubmit(({ code }) => send({ type: 'SIGN', code }))}>
        <TextField
          label={s.codeLabel}
          hint={s.codeHint}
          error={codeError}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={3}
          {...register('code')}
        />
        <FormError error={formError} />
        <p className="button-row">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? s.submitting : s.submit}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => send({ type: 'BACK' })}
          >
            {s.back}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => send({ type: 'CANCEL' })}
          >
            {s.close}
          </button>
        </p>
        {busy ? <p role="status">{s.submitting}</p> : null}
      </form>
    </section>
  )
}

/** The schedule's amendment and disclosure: each to read or download (the call carries the session). */
function Documents({
  loanId,
  documents,
  t,
}: {
  loanId: number
  documents: AmendmentDocument[]
  t: ScheduleTexts
}) {
  const api = useApi()
  const d = t.documents
  const [busy, setBusy] = useState<number | null>(null)
  const [failed, setFailed] = useState(false)
  const nameOf = (doc: AmendmentDocument) =>
    (d.names as Record<string, string | undefined>)[doc.type] ?? doc.name
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
    <section aria-label={d.title} className="stack">
      <h4 className="card__title">{d.title}</h4>
      <ul className="stack">
        {documents.map((doc) => (
          <li key={doc.id} data-document={doc.type}>
            <p>{nameOf(doc)}</p>
            <p className="button-row">
              <button
                type="button"
                className="button button--secondary button--sm"
                aria-label={`${d.read}: ${nameOf(doc)}`}
                disabled={busy !== null}
                onClick={() => void open(doc, 'read')}
              >
                {d.read}
              </button>
              <button
                type="button"
                className="button button--ghost button--sm"
                aria-label={`${d.download}: ${nameOf(doc)}`}
                disabled={busy !== null}
                onClick={() => void open(doc, 'download')}
              >
                {d.download}
              </button>
            </p>
          </li>
        ))}
      </ul>
      {busy !== null ? <p role="status">{d.downloading}</p> : null}
      {failed ? (
        <div className="callout callout--warning" role="alert">
          <p className="callout__body">{d.downloadFailed}</p>
        </div>
      ) : null}
    </section>
  )
}
