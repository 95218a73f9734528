/**
 * The review queue on /admin (issue 19 item 4, docs/decisions/0036-review-queue.md): applications waiting for a
 * person (manual verification 14, decision error 401), oldest first, a page at a time, filtered, with why the
 * engine sent them here, who works on each, and the four-eyes state of an approval above the configured amount.
 * The list refreshes itself every 30 seconds while the tab is visible (TanStack Query pauses the interval when
 * the document is hidden) and says politely when new applications arrive. A decision needs a reason; the form
 * validates with the server's own schema (domain/back-office-decision.ts) and shows the server's violations on
 * the field. Actions the signed-in user's roles do not allow are not shown (domain/back-office/roles.ts).
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react'
import { useForm } from 'react-hook-form'
import {
  type ReviewAssignee,
  type ReviewKind,
  reviewAssignees,
  reviewKinds,
} from '../../../domain/back-office/review'
import { mayDo, type Permission } from '../../../domain/back-office/roles'
import { type BackOfficeDecision, backOfficeDecisionSchema } from '../../../domain/back-office-decision'
import { formatPhone, formatPhp } from '../../../domain/format'
import { useApi, useAppServices } from '../../app/app-context'
import type { AppServices } from '../../app/services'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { applyServerErrors, isServerFailure } from '../../ui/forms/violations'
import { manilaDateTime } from './admin-api'
import {
  assign,
  decide,
  fetchReviewPage,
  pesosToCentavos,
  type ReviewFilterQuery,
  type ReviewQueueItem,
  reviewQueryKeys,
} from './review-queue-api'

const PER_PAGE = 50
const REFRESH_MS = 30_000

const noSubscription = () => () => {}

/**
 * Who is signed in, and what they may do. Without a known user (a harness without the auth service) every action
 * shows: the server decides anyway.
 */
function useStaff() {
  const auth = useAppServices().auth as AppServices['auth'] | undefined
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!auth) return noSubscription()
      const subscription = auth.subscribe(onChange)
      return () => subscription.unsubscribe()
    },
    [auth],
  )
  const user = useSyncExternalStore(subscribe, () => auth?.getSnapshot().context.user ?? null)
  const roles = user?.roles
  return {
    userId: user?.id ?? null,
    can: (permission: Permission) => roles === undefined || mayDo(roles, permission),
  }
}

export function ReviewQueue() {
  const m = useMessages().admin
  const r = m.reviewQueue
  const api = useApi()
  const [filters, setFilters] = useState<ReviewFilterQuery>({})
  const [page, setPage] = useState(1)
  const list = useQuery({
    queryKey: reviewQueryKeys.page(filters, page, PER_PAGE),
    queryFn: ({ signal }) => fetchReviewPage(api, filters, page, PER_PAGE, signal),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
  })
  const [done, setDone] = useState<string | null>(null)
  const arrived = useArrivals(list.data?.items, JSON.stringify([filters, page]))
  const data = list.data
  const totalPages = Math.max(1, data?.totalPages ?? 1)

  return (
    <section className="section" aria-labelledby="review-queue-title">
      <h2 id="review-queue-title" className="section__title">
        {m.queue.title}
      </h2>
      <p className="field__hint">{r.autoRefresh}</p>
      <QueueFilters
        onApply={(next) => {
          setFilters(next)
          setPage(1)
        }}
      />
      <p role="status" aria-live="polite">
        {done}
      </p>
      <p role="status" aria-live="polite" aria-atomic="true">
        {arrived}
      </p>
      {list.isPending ? (
        <p role="status">{m.loading}</p>
      ) : list.isError && !data ? (
        <div role="alert">
          <p>{m.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => list.refetch()}>
            {m.retry}
          </button>
        </div>
      ) : data && data.items.length === 0 ? (
        <p>{m.queue.empty}</p>
      ) : data ? (
        <ul className="admin-list">
          {data.items.map((item) => (
            <li key={item.id}>
              <ReviewCard item={item} onDone={setDone} />
            </li>
          ))}
        </ul>
      ) : null}
      {data && totalPages > 1 ? (
        <nav className="admin-paging" aria-label={r.paging}>
          <p>{fmt(r.position, { page: data.page || page, pages: totalPages, total: data.total })}</p>
          <p className="button-row">
            <button
              type="button"
              className="button button--secondary button--sm"
              disabled={page <= 1}
              onClick={() => setPage((n) => Math.max(1, n - 1))}
            >
              {r.previous}
            </button>
            <button
              type="button"
              className="button button--secondary button--sm"
              disabled={page >= totalPages}
              onClick={() => setPage((n) => n + 1)}
            >
              {r.next}
            </button>
          </p>
        </nav>
      ) : null}
    </section>
  )
}

/**
 * The announcement of applications that appeared since the last refresh of the same view (same filters and page):
 * the first load of a view announces nothing, the list itself is what the user reads then.
 */
function useArrivals(items: readonly ReviewQueueItem[] | undefined, view: string): string | null {
  const r = useMessages().admin.reviewQueue
  const seen = useRef<{ view: string; ids: Set<number> } | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  useEffect(() => {
    if (!items) return
    const ids = items.map((item) => item.id)
    if (!seen.current || seen.current.view !== view) {
      seen.current = { view, ids: new Set(ids) }
      setMessage(null)
      return
    }
    const known = seen.current.ids
    const fresh = ids.filter((id) => !known.has(id))
    for (const id of fresh) known.add(id)
    if (fresh.length > 0)
      setMessage(fresh.length === 1 ? r.arrivedOne : fmt(r.arrivedMany, { count: fresh.length }))
  }, [items, view, r])
  return message
}

interface FilterForm {
  kind: '' | ReviewKind
  assignee: ReviewAssignee
  minAmount: string
  maxAmount: string
  from: string
  to: string
}

const emptyFilters: FilterForm = {
  kind: '',
  assignee: 'anyone',
  minAmount: '',
  maxAmount: '',
  from: '',
  to: '',
}

function QueueFilters({ onApply }: { onApply: (filters: ReviewFilterQuery) => void }) {
  const r = useMessages().admin.reviewQueue
  const [form, setForm] = useState<FilterForm>(emptyFilters)
  const [errors, setErrors] = useState<Partial<Record<'minAmount' | 'maxAmount', FieldErrorView>>>({})
  const field =
    <K extends keyof FilterForm>(name: K) =>
    (e: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [name]: e.target.value as FilterForm[K] }))
  const amount = (name: 'minAmount' | 'maxAmount') => {
    const text = form[name].trim()
    if (!text) return { value: undefined, error: null }
    const centavos = pesosToCentavos(text)
    return centavos === null
      ? { value: undefined, error: { key: name, text: r.amountInvalid } }
      : { value: centavos, error: null }
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const min = amount('minAmount')
    const max = amount('maxAmount')
    setErrors({
      ...(min.error ? { minAmount: min.error } : {}),
      ...(max.error ? { maxAmount: max.error } : {}),
    })
    if (min.error || max.error) return
    const next: ReviewFilterQuery = {}
    if (form.kind) next.kind = form.kind
    if (form.assignee !== 'anyone') next.assignee = form.assignee
    if (min.value !== undefined) next.minAmount = min.value
    if (max.value !== undefined) next.maxAmount = max.value
    if (form.from) next.from = form.from
    if (form.to) next.to = form.to
    onApply(next)
  }
  const clear = () => {
    setForm(emptyFilters)
    setErrors({})
    onApply({})
  }
  return (
    <search>
      <form aria-label={r.filtersTitle} noValidate onSubmit={submit}>
        <div className="admin-filters">
          <SelectField
            label={r.kind}
            placeholder={r.anyKind}
            options={reviewKinds.map((kind) => ({ value: kind, label: r.kinds[kind] }))}
            value={form.kind}
            onChange={field('kind')}
          />
          <div className="field">
            <AssigneeSelect value={form.assignee} onChange={field('assignee')} />
          </div>
          <TextField
            label={r.minAmount}
            hint={r.amountHint}
            inputMode="decimal"
            autoComplete="off"
            value={form.minAmount}
            onChange={field('minAmount')}
            error={errors.minAmount ?? null}
          />
          <TextField
            label={r.maxAmount}
            hint={r.amountHint}
            inputMode="decimal"
            autoComplete="off"
            value={form.maxAmount}
            onChange={field('maxAmount')}
            error={errors.maxAmount ?? null}
          />
          <TextField
            label={r.from}
            hint={r.dateHint}
            type="date"
            value={form.from}
            onChange={field('from')}
          />
          <TextField label={r.to} hint={r.dateHint} type="date" value={form.to} onChange={field('to')} />
        </div>
        <p className="button-row">
          <button type="submit" className="button button--primary">
            {r.apply}
          </button>
          <button type="button" className="button button--ghost" onClick={clear}>
            {r.clear}
          </button>
        </p>
      </form>
    </search>
  )
}

/** The assignee filter: "anyone" is a real choice here, not an empty placeholder. */
function AssigneeSelect({
  value,
  onChange,
}: {
  value: ReviewAssignee
  onChange: (e: { target: { value: string } }) => void
}) {
  const r = useMessages().admin.reviewQueue
  const id = useId()
  return (
    <>
      <label className="field__label" htmlFor={id}>
        {r.assignee}
      </label>
      <select id={id} value={value} onChange={onChange}>
        {reviewAssignees.map((a) => (
          <option key={a} value={a}>
            {r.assignees[a]}
          </option>
        ))}
      </select>
    </>
  )
}

function ReviewCard({ item, onDone }: { item: ReviewQueueItem; onDone: (message: string) => void }) {
  const m = useMessages().admin
  const q = m.queue
  const r = m.reviewQueue
  const api = useApi()
  const staff = useStaff()
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
  const decideCall = useMutation({
    mutationFn: (decision: BackOfficeDecision) => decide(api, item.id, decision),
    onSuccess: (answer, decision) => {
      const stillWaiting = answer && (answer.status === 14 || answer.status === 401)
      onDone(
        decision.decision === 'approve'
          ? fmt(stillWaiting ? r.firstRecorded : q.approved, { id: item.id })
          : fmt(q.rejected, { id: item.id }),
      )
      return queryClient.invalidateQueries({ queryKey: reviewQueryKeys.all })
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
    return handleSubmit((values) => decideCall.mutate(values))()
  }
  const statusName = (q.statuses as Record<string, string>)[String(item.status)] ?? String(item.status)
  const titleId = `review-${item.id}`
  const reasonError = formState.errors.reason?.message
  // Answers of an older server (or a test's) may lack the queue's newer fields.
  const assignment = item.assignment ?? null
  const firstApproval = item.firstApproval ?? null
  const iApprovedFirst = firstApproval !== null && firstApproval.by.id === staff.userId
  return (
    <article className="card" aria-labelledby={titleId} data-application={item.id}>
      <h3 id={titleId}>{fmt(q.application, { id: item.id })}</h3>
      <dl className="details-list">
        {[
          [q.client, item.clientName],
          [q.phone, formatPhone(item.phone)],
          [q.amount, formatPhp(item.amount)],
          [q.term, fmt(q.days, { days: item.term })],
          [q.received, manilaDateTime(item.createdAt)],
          [q.status, statusName],
          [
            r.assignment,
            assignment
              ? fmt(r.assignedSince, { name: assignment.to.name, at: manilaDateTime(assignment.at) })
              : r.nobody,
          ],
        ].map(([label, value]) => (
          <div key={label} className="details-list__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {item.fourEyes ? (
        <div className="callout callout--warning">
          <p className="callout__body">
            <strong>{r.fourEyes}: </strong>
            {firstApproval
              ? fmt(r.needsSecond, { name: firstApproval.by.name, at: manilaDateTime(firstApproval.at) })
              : r.fourEyesNeeded}
          </p>
        </div>
      ) : null}
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
      {staff.can('applications.assign') ? (
        <Assignment item={item} assignedTo={assignment?.to.id ?? null} onDone={onDone} />
      ) : null}
      {staff.can('applications.decide') ? (
        <form
          aria-label={fmt(q.application, { id: item.id })}
          noValidate
          onSubmit={(e) => e.preventDefault()}
        >
          <TextField
            label={q.reason}
            hint={q.reasonHint}
            autoComplete="off"
            error={reasonError ? { key: 'reason', text: reasonError } : null}
            {...register('reason')}
          />
          <FormError error={formError} />
          {decideCall.isPending ? <p role="status">{q.sending}</p> : null}
          {iApprovedFirst ? <p>{r.youApprovedFirst}</p> : null}
          <p className="button-row">
            {iApprovedFirst ? null : (
              <button
                type="button"
                className="button button--primary"
                disabled={decideCall.isPending}
                onClick={() => submit('approve')}
              >
                {fmt(q.approve, { id: item.id })}
              </button>
            )}
            <button
              type="button"
              className="button button--ghost"
              disabled={decideCall.isPending}
              onClick={() => submit('reject')}
            >
              {fmt(q.reject, { id: item.id })}
            </button>
          </p>
        </form>
      ) : null}
    </article>
  )
}

/** Take, release, and (administrators) give the application to a user by number. */
function Assignment({
  item,
  assignedTo,
  onDone,
}: {
  item: ReviewQueueItem
  assignedTo: number | null
  onDone: (message: string) => void
}) {
  const r = useMessages().admin.reviewQueue
  const api = useApi()
  const staff = useStaff()
  const queryClient = useQueryClient()
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [target, setTarget] = useState('')
  const call = useMutation({
    mutationFn: (userId: number | null | undefined) => assign(api, item.id, userId),
    onSuccess: (answer, userId) => {
      setError(null)
      setTarget('')
      const name = answer?.assignment?.to.name ?? ''
      onDone(
        userId === null
          ? fmt(r.released, { id: item.id })
          : userId === undefined
            ? fmt(r.taken, { id: item.id })
            : fmt(r.given, { id: item.id, name }),
      )
      return queryClient.invalidateQueries({ queryKey: reviewQueryKeys.all })
    },
    onError: (failure) => setError({ key: 'assign', text: errorText(failure, r.assignFailed) }),
  })
  const mine = assignedTo !== null && assignedTo === staff.userId
  const administrator = staff.can('users.manage')
  const giveTo = (e: FormEvent) => {
    e.preventDefault()
    const id = /^[1-9]\d{0,14}$/.test(target.trim()) ? Number(target.trim()) : null
    if (id === null) {
      setError({ key: 'userId', text: r.assignFailed })
      return
    }
    call.mutate(id)
  }
  return (
    <div className="admin-assignment">
      <FormError error={error} />
      <p className="button-row">
        {mine ? null : assignedTo === null || administrator ? (
          <button
            type="button"
            className="button button--secondary button--sm"
            disabled={call.isPending}
            onClick={() => call.mutate(undefined)}
          >
            {fmt(r.take, { id: item.id })}
          </button>
        ) : null}
        {assignedTo !== null && (mine || administrator) ? (
          <button
            type="button"
            className="button button--ghost button--sm"
            disabled={call.isPending}
            onClick={() => call.mutate(null)}
          >
            {fmt(r.release, { id: item.id })}
          </button>
        ) : null}
      </p>
      {administrator ? (
        <form aria-label={fmt(r.assignSubmit, { id: item.id })} noValidate onSubmit={giveTo}>
          <TextField
            label={fmt(r.assignTo, { id: item.id })}
            hint={r.assignToHint}
            inputMode="numeric"
            autoComplete="off"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          />
          <p className="button-row">
            <button type="submit" className="button button--secondary button--sm" disabled={call.isPending}>
              {fmt(r.assignSubmit, { id: item.id })}
            </button>
          </p>
        </form>
      ) : null}
    </div>
  )
}

function errorText(error: unknown, fallback: string) {
  return isServerFailure(error) && error.message ? error.message : fallback
}
