/**
 * /registration/summary (flow step otp_agreement): the documents are rendered for the approved figures
 * (POST /private/client/render/document); the screen itself shows the Truth in Lending disclosure from the same
 * answer the PDFs were made from (principal, net proceeds, interest, each fee, the optional package explained,
 * finance charges, total, due date and the effective interest rate: RA 3765 wants them before signing); the
 * client reads the loan agreement and the disclosure statement (PDFs from GET
 * /private/client/document/download/{type}), asks for the SMS code (POST /private/client/application/agreement/{id}
 * without a code, through the shared code request that counts down the server's wait) and signs with it (the
 * same call with the code). A signed agreement asks the journey to refetch the flow: the router moves the
 * client on.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useForm } from 'react-hook-form'
import * as v from 'valibot'
import { type DocumentType, documentTypes } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import { messageKeys, verificationCodeSchema } from '../../../domain/identity'
import type { Offer } from '../../../domain/offer'
import { disclosureFigures } from '../../../domain/pricing/disclosure'
import { ApiError } from '../../api/client'
import { useApi, useJourneyRefresh } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { CodeRequest } from '../../ui/forms/code-request'
import { downloadDocument, renderDocuments, sendSigningCode, signAgreement } from './application-api'
import { formatLongDate, formatPercentHundredths } from './format'
import { ErrorNotice, errorKeyOf, type Figure, Figures, QueryGate, ScreenFrame } from './parts'
import { useActualApplication } from './queries'

const signSchema = v.object({ code: verificationCodeSchema })
type SignForm = v.InferOutput<typeof signSchema>

/** The spec's code answers (section 8) as message keys; anything else keeps the API's code. */
export function signErrorKey(error: unknown): string {
  if (error instanceof ApiError || (typeof error === 'object' && error !== null)) {
    const { message, code } = error as { message?: string; code?: string }
    // The signing code is the agreement's one-time password (step otp_agreement): its own selector.
    if (message === 'Code not found by given identity' || code === 'codeNotSent') {
      return messageKeys.otpCodeUnsent
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
      showPdf(await downloadDocument(api, type), type, mode)
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
      <CodeRequest
        request={() => sendSigningCode(api, applicationId)}
        sendLabel={m.summary.sendCode}
        resendLabel={m.summary.resendCode}
        sentText={m.summary.codeSent}
        errorText={(key) => (m.errors as Record<string, string | undefined>)[key]}
      />
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

/**
 * The disclosure statement's figures on the screen, as the PDF prints them: every charge itemised, the
 * optional package explained next to its line, and the effective interest rate (a month, and a year).
 */
export function Disclosure({
  offer,
  packageChosen,
}: {
  offer: Offer & { referralReward?: { amount: number } }
  packageChosen: boolean
}) {
  const m = useMessages().application.summary
  // The same function the disclosure statement PDF prints from.
  const disclosure = disclosureFigures(offer)
  const packageId = useId()
  const interestDiscount = offer.discount.interest.amount
  const packageFee = offer.borrowers_advantage_package_fee.amount
  // Fees this configuration does not charge are left out; the PDF lists them at zero.
  const feeIfCharged = (name: string, label: string, amount: number): Figure[] =>
    amount > 0 ? [{ name, label, value: formatPhp(amount) }] : []
  const figures: Figure[] = [
    { name: 'principal', label: m.principal, value: formatPhp(disclosure.principal) },
    { name: 'net-proceeds', label: m.netProceeds, value: formatPhp(disclosure.netProceeds) },
    {
      name: 'interest',
      label: fmt(m.interest, { term: offer.term }),
      value:
        interestDiscount > 0
          ? `${formatPhp(offer.interest.amount)} (${fmt(m.interestDiscount, { discount: formatPhp(interestDiscount) })})`
          : formatPhp(offer.interest.amount),
    },
    { name: 'processing-fee', label: m.processingFee, value: formatPhp(offer.processingFee.amount) },
    ...feeIfCharged('service-fee', m.serviceFee, offer.serviceFee.amount),
    ...feeIfCharged('withdrawal-fee', m.withdrawalFee, offer.withdrawalFee.amount),
    ...feeIfCharged('invoicing-fee', m.invoicingFee, offer.invoicingFee.amount),
    { name: 'package-fee', label: m.packageFee, value: formatPhp(packageFee) },
    { name: 'finance-charge', label: m.financeCharge, value: formatPhp(disclosure.financeCharge) },
    // A referral reward (ADR 0041) is already in the discounts above; said by name so the borrower sees it used.
    ...(offer.referralReward
      ? [
          {
            name: 'referral-reward',
            label: m.referralReward,
            value: `−${formatPhp(offer.referralReward.amount)}`,
          },
        ]
      : []),
    { name: 'total', label: m.total, value: formatPhp(disclosure.total) },
    { name: 'due-date', label: m.dueDate, value: formatLongDate(offer.endDate) },
    {
      name: 'effective-rate',
      label: m.effectiveRate,
      value: fmt(m.effectiveRateValue, {
        monthly: formatPercentHundredths(disclosure.monthlyEir),
        annual: `${offer.apr.toFixed(2)}%`,
      }),
    },
  ]
  return (
    <section aria-labelledby="summary-disclosure" className="stack">
      <h2 id="summary-disclosure">{m.disclosureTitle}</h2>
      <p>{m.disclosureLead}</p>
      <Figures label={m.disclosureTitle} figures={figures} />
      <section
        className="callout"
        aria-labelledby={`${packageId}-title`}
        data-package={packageChosen ? 'chosen' : 'not-chosen'}
      >
        <h3 id={`${packageId}-title`} className="callout__title">
          {m.packageTitle}
        </h3>
        <p className="callout__body">{m.packageWhat}</p>
        <p className="callout__body">
          {packageChosen
            ? fmt(m.packageChosen, { fee: formatPhp(packageFee) })
            : fmt(m.packageNotChosen, { fee: formatPhp(0) })}
        </p>
      </section>
    </section>
  )
}

/** The documents are rendered once per visit for the approved figures; their disclosure is shown. */
function Prepared({ applicationId, packageChosen }: { applicationId: number; packageChosen?: boolean }) {
  const api = useApi()
  const rendered = useQuery({
    queryKey: ['application', applicationId, 'documents'],
    queryFn: () => renderDocuments(api),
    staleTime: Number.POSITIVE_INFINITY,
  })
  return (
    <QueryGate query={rendered}>
      {({ offer }) => (
        <>
          <Disclosure
            offer={offer}
            packageChosen={packageChosen ?? offer.borrowers_advantage_package_fee.amount > 0}
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
      <QueryGate query={query}>
        {(application) => (
          <Prepared
            applicationId={application.id}
            packageChosen={application.borrowersAdvantagePackageFeeConsent}
          />
        )}
      </QueryGate>
    </ScreenFrame>
  )
}
