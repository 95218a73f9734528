/**
 * The review queue on /admin: applications waiting for a person (manual verification 14, decision error 401),
 * oldest first, with why the engine sent them here. A decision needs a reason; the form validates with the
 * server's own schema (domain/back-office-decision.ts) and shows the server's violations on the field.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { type BackOfficeDecision, backOfficeDecisionSchema } from '../../../domain/back-office-decision'
import { formatPhp } from '../../../domain/money'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { applyServerErrors, isServerFailure } from '../../ui/forms/violations'
import {
  adminQueryKeys,
  decideApplication,
  fetchReviewQueue,
  manilaDateTime,
  type ReviewItem,
} from './admin-api'
import { AdminList } from './admin-parts'

export function ReviewQueue() {
  const m = useMessages().admin
  const api = useApi()
  const queue = useQuery({
    queryKey: adminQueryKeys.queue,
    queryFn: ({ signal }) => fetchReviewQueue(api, signal),
  })
  const [done, setDone] = useState<string | null>(null)
  return (
    <section className="section" aria-labelledby="review-queue-title">
      <h2 id="review-queue-title" className="section__title">
        {m.queue.title}
      </h2>
      <p role="status" aria-live="polite">
        {done}
      </p>
      <AdminList query={queue} empty={m.queue.empty}>
        {(items) => (
          <ul className="admin-list">
            {items.map((item) => (
              <li key={item.id}>
                <ReviewCard item={item} onDecided={setDone} />
              </li>
            ))}
          </ul>
        )}
      </AdminList>
    </section>
  )
}

function ReviewCard({ item, onDecided }: { item: ReviewItem; onDecided: (message: string) => void }) {
  const m = useMessages().admin
  const q = m.queue
  const api = useApi()
  const queryClient = useQueryClient()
  const { register, handleSubmit, setValue, setError, formState } = useForm<
    BackOfficeDecision,
    unknown,
    BackOfficeDecision
  >({
    resolver: standardSchemaResolver(backOfficeDecisionSchema),
    defaultValues: { decision: 'approve', reason: '' },
  })
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const decide = useMutation({
    mutationFn: (decision: BackOfficeDecision) => decideApplication(api, item.id, decision),
    onSuccess: (_answer, decision) => {
      onDecided(fmt(decision.decision === 'approve' ? q.approved : q.rejected, { id: item.id }))
      return queryClient.invalidateQueries({ queryKey: adminQueryKeys.queue })
    },
    onError: (error) => {
      // A violation of the reason goes on the field; anything else is the form's, in the server's words.
      const key = applyServerErrors(error, ['reason'], setError)
      if (key) setFormError({ key, text: errorText(error, q.failed) })
    },
  })
  const submit = (decision: 'approve' | 'reject') => {
    setFormError(null)
    setValue('decision', decision)
    return handleSubmit((values) => decide.mutate(values))()
  }
  const statusName = (q.statuses as Record<string, string>)[String(item.status)] ?? String(item.status)
  const titleId = `review-${item.id}`
  const reasonError = formState.errors.reason?.message
  return (
    <article className="card" aria-labelledby={titleId} data-application={item.id}>
      <h3 id={titleId}>{fmt(q.application, { id: item.id })}</h3>
      <dl className="details-list">
        {[
          [q.client, item.clientName],
          [q.phone, item.phone],
          [q.amount, formatPhp(item.amount)],
          [q.term, fmt(q.days, { days: item.term })],
          [q.received, manilaDateTime(item.createdAt)],
          [q.status, statusName],
        ].map(([label, value]) => (
          <div key={label} className="details-list__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h4>{q.why}</h4>
      {item.decision ? (
        <ul>
          {item.decision.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
          {item.decision.rules
            .filter((rule) => !rule.passed)
            .map((rule) => (
              <li key={rule.rule}>{rule.rule}</li>
            ))}
        </ul>
      ) : (
        <p>{q.noDecision}</p>
      )}
      <form aria-label={fmt(q.application, { id: item.id })} noValidate onSubmit={(e) => e.preventDefault()}>
        <TextField
          label={q.reason}
          hint={q.reasonHint}
          autoComplete="off"
          error={reasonError ? { key: 'reason', text: reasonError } : null}
          {...register('reason')}
        />
        <FormError error={formError} />
        {decide.isPending ? <p role="status">{q.sending}</p> : null}
        <p className="button-row">
          <button
            type="button"
            className="button button--primary"
            disabled={decide.isPending}
            onClick={() => submit('approve')}
          >
            {fmt(q.approve, { id: item.id })}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={decide.isPending}
            onClick={() => submit('reject')}
          >
            {fmt(q.reject, { id: item.id })}
          </button>
        </p>
      </form>
    </article>
  )
}

function errorText(error: unknown, fallback: string) {
  return isServerFailure(error) && error.message ? error.message : fallback
}
