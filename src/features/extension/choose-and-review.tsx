/**
 * The first two steps of extending the loan: choose an extension (the loan's rollovers not taken, cheapest
 * first; one the server refuses is shown disabled with its reason), then review what it costs (the Truth in
 * Lending figures: the days added, the fee, the due date now and after, when the fee must be paid, the legal
 * room before and after) and when the new due date takes effect: when the fee posts.
 */
import type { Rollover } from '../../../domain/contract/servicing-answers'
import { formatDate, formatPhp } from '../../../domain/format'
import {
  type ExtensionFlowEvent,
  type ExtensionFlowSnapshot,
  extensionOptions,
  isBusy,
  payableUntilOf,
} from '../../../machines/extension-flow.machine'
import { fmt, useMessages } from '../../i18n/messages'
import { FormError } from '../../ui/forms/fields'
import { type ExtensionTexts, noticeText, problemText } from './texts'

export interface StepProps {
  snapshot: ExtensionFlowSnapshot
  send: (event: ExtensionFlowEvent) => void
}

export const STEP_TITLE_ID = 'extension-step-title'

export function StepTitle({ children }: { children: string }) {
  return (
    <h2 id={STEP_TITLE_ID} className="card__title card__title--lg" tabIndex={-1}>
      {children}
    </h2>
  )
}

function Notice({ snapshot, t }: { snapshot: ExtensionFlowSnapshot; t: ExtensionTexts }) {
  const text = noticeText(snapshot.context.notice, t)
  if (!text) return null
  return (
    <div className="callout" role="status" data-notice={snapshot.context.notice?.code}>
      <p className="callout__body">{text}</p>
    </div>
  )
}

export function ChooseStep({ snapshot, send }: StepProps) {
  const t = useMessages().application.extension
  const { selectedId, rollovers, problem } = snapshot.context
  const options = extensionOptions(rollovers)
  const busy = isBusy(snapshot)
  const ready = options.some((r) => r.id === selectedId && r.available)
  return (
    <form
      className="card stack"
      aria-labelledby={STEP_TITLE_ID}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        send({ type: 'CHOOSE' })
      }}
    >
      <StepTitle>{t.choose.title}</StepTitle>
      <Notice snapshot={snapshot} t={t} />
      <fieldset className="field field--choices">
        <legend className="field__label">{t.choose.legend}</legend>
        <div className="choices choices--stacked">
          {options.map((rollover) => (
            <Option
              key={rollover.id}
              rollover={rollover}
              checked={rollover.id === selectedId}
              disabled={busy || !rollover.available}
              onSelect={() => send({ type: 'SELECT', id: rollover.id })}
              t={t}
            />
          ))}
        </div>
        {snapshot.context.requestedId === null &&
        options.filter((r) => r.available).length > 1 &&
        selectedId === options[0]?.id ? (
          <p className="field__hint">{t.choose.cheapest}</p>
        ) : null}
      </fieldset>
      <FormError error={problemText(problem, t)} />
      <p className="button-row">
        <button type="submit" className="button button--primary" disabled={busy || !ready}>
          {busy ? t.choose.submitting : t.choose.submit}
        </button>
      </p>
      {busy ? <p role="status">{t.choose.submitting}</p> : null}
    </form>
  )
}

function Option({
  rollover,
  checked,
  disabled,
  onSelect,
  t,
}: {
  rollover: Rollover
  checked: boolean
  disabled: boolean
  onSelect: () => void
  t: ExtensionTexts
}) {
  const hintId = `extension-option-${rollover.id}-hint`
  const hint = rollover.available
    ? fmt(t.choose.optionHint, { date: formatDate(rollover.newDueDate) })
    : (rollover.refusal?.message ?? '')
  return (
    <div className="extension-option" data-rollover={rollover.id} data-type={rollover.type}>
      <label className="choice">
        <input
          type="radio"
          name="extension"
          value={rollover.id}
          checked={checked}
          disabled={disabled}
          aria-describedby={hint ? hintId : undefined}
          onChange={onSelect}
        />
        <span>{fmt(t.choose.option, { term: rollover.term, fee: formatPhp(rollover.fee.amount) })}</span>
      </label>
      {hint ? (
        <p id={hintId} className={rollover.available ? 'field__hint' : 'field__error'}>
          {hint}
        </p>
      ) : null}
    </div>
  )
}

/** The disclosure's figures of an extension, as a labelled list. */
export function ExtensionFigures({ rollover, dueDate }: { rollover: Rollover; dueDate: string }) {
  const t = useMessages().application.extension.review
  const payableUntil = payableUntilOf(rollover)
  const rows: [string, string, string | null][] = [
    ['days', t.days, fmt(t.daysValue, { term: rollover.term })],
    ['fee', t.fee, formatPhp(rollover.fee.amount)],
    ['due-date-now', t.dueDateNow, formatDate(dueDate)],
    ['new-due-date', t.newDueDate, formatDate(rollover.newDueDate)],
    ['payable-until', t.payableUntil, payableUntil ? formatDate(payableUntil) : null],
    ['legal-room', t.legalRoom, formatPhp(rollover.legalRoom.amount)],
    ['legal-room-after', t.legalRoomAfter, formatPhp(rollover.legalRoomAfter.amount)],
  ]
  return (
    <dl className="details-list" aria-label={t.figuresLabel}>
      {rows.map(([name, label, value]) =>
        value ? (
          <div key={name} className="details-list__row" data-figure={name}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  )
}

export function ReviewStep({ snapshot, send }: StepProps) {
  const t = useMessages().application.extension
  const { rollover, dueDate, problem } = snapshot.context
  const busy = isBusy(snapshot)
  if (!rollover) return null
  return (
    <section className="card stack" aria-labelledby={STEP_TITLE_ID}>
      <StepTitle>{t.review.title}</StepTitle>
      <p>{t.review.lead}</p>
      <ExtensionFigures rollover={rollover} dueDate={dueDate} />
      <p data-takes-effect>
        {fmt(t.review.takesEffect, {
          date: formatDate(rollover.newDueDate),
          fee: formatPhp(rollover.fee.amount),
          current: formatDate(dueDate),
        })}
      </p>
      <p className="muted">{t.review.renewal}</p>
      <FormError error={problemText(problem, t)} />
      {busy ? <p role="status">{t.review.loading}</p> : null}
      <p className="button-row">
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          onClick={() => send({ type: 'AGREE' })}
        >
          {t.review.agree}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          onClick={() => send({ type: 'BACK' })}
        >
          {t.review.back}
        </button>
      </p>
    </section>
  )
}
