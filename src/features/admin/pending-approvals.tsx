/**
 * The proposals of some kinds waiting for a second person (issue 19 item 5, maker-checker; docs/decisions/0035):
 * on /admin/payments the reversals, on /admin/debts the write-offs and debt sales. Users whose roles decide a
 * kind see its proposals; the proposer sees theirs without buttons; anyone else approves (which carries the action
 * out) or rejects with a reason.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useSelector } from '@xstate/react'
import { useState } from 'react'
import { type ApprovalKind, decidableKinds } from '../../../domain/back-office/approvals'
import type { Approval } from '../../../domain/contract/approvals'
import { listApprovals } from '../../../domain/contract/approvals'
import type { Page } from '../../../domain/contract/define'
import { loanNumberOf } from '../../../domain/payments/reference'
import type { ApiClient } from '../../api/client'
import { useApi, useAuthActor } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { isServerFailure } from '../../ui/forms/violations'
import { manilaDateTime } from './admin-api'
import { AdminList } from './admin-parts'
import { approve, reject } from './config-api'
import { ResultLine, TitledSection } from './form-parts'

export const approvalsQueryKey = ['admin', 'approvals'] as const

const fetchPending = async (api: ApiClient, kinds: readonly ApprovalKind[], signal?: AbortSignal) =>
  (
    (await api.call(
      listApprovals,
      { query: { status: 'pending', perPage: 200 } },
      { signal },
    )) as unknown as Page<Approval>
  ).items.filter((p) => kinds.includes(p.kind))

type AuthActor = ReturnType<typeof useAuthActor>

/** No session machine (a screen rendered on its own, in a test): nobody signed in, nothing to decide. */
const signedOut = {
  subscribe: () => ({ unsubscribe: () => {} }),
  getSnapshot: () => undefined,
} as unknown as AuthActor

function useStaff() {
  const auth = useAuthActor() as AuthActor | undefined
  const id = useSelector(auth ?? signedOut, (s) => s?.context.user?.id ?? null)
  const roles = useSelector(auth ?? signedOut, (s) => s?.context.user?.roles ?? none)
  return { id, roles }
}
const none: readonly string[] = []

export function PendingApprovals({
  kinds,
  id,
  onDecided,
}: {
  kinds: readonly ApprovalKind[]
  /** The section's heading id. */
  id: string
  /** After a decision: refresh what the approval changed. */
  onDecided: () => unknown
}) {
  const t = useMessages().admin.approvals
  const api = useApi()
  const queryClient = useQueryClient()
  const me = useStaff()
  const mine = decidableKinds(me.roles).filter((kind) => kinds.includes(kind))
  const [result, setResult] = useState<string | null>(null)
  const proposals = useQuery({
    queryKey: [...approvalsQueryKey, ...mine],
    queryFn: ({ signal }) => fetchPending(api, mine, signal),
    enabled: mine.length > 0,
  })
  if (!mine.length) return null
  const done = async (text: string) => {
    setResult(text)
    await queryClient.invalidateQueries({ queryKey: approvalsQueryKey })
    await onDecided()
  }
  return (
    <TitledSection id={id} title={t.title} lead={t.lead}>
      <AdminList query={proposals} empty={t.empty}>
        {(items) => (
          <ul className="proposal-list">
            {items.map((p) => (
              <ProposalItem key={p.id} proposal={p} mine={p.proposedBy.id === me.id} onDone={done} />
            ))}
          </ul>
        )}
      </AdminList>
      <ResultLine>{result}</ResultLine>
    </TitledSection>
  )
}

function ProposalItem({
  proposal,
  mine,
  onDone,
}: {
  proposal: Approval
  mine: boolean
  onDone: (text: string) => unknown
}) {
  const t = useMessages().admin.approvals
  const api = useApi()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<FieldErrorView | null>(null)
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      decision === 'approve' ? approve(api, proposal.id) : reject(api, proposal.id, reason.trim()),
    onSuccess: (answer) =>
      onDone(fmt(answer.status === 'rejected' ? t.rejected : t.approved, { id: proposal.id })),
    onError: (e) =>
      setError({
        key: isServerFailure(e) ? e.code : 'generic',
        text: isServerFailure(e) ? (e.violations[0]?.message ?? e.message ?? t.failed) : t.failed,
      }),
  })
  const payload = (proposal.payload ?? {}) as { loanIds?: number[] }
  const headingId = `approval-${proposal.id}`
  return (
    <li>
      <article aria-labelledby={headingId} className="card">
        <h3 id={headingId}>
          {fmt(t.kinds[proposal.kind], {
            id: proposal.id,
            subject: proposal.subject,
            loan: /^\d+$/.test(proposal.subject) ? loanNumberOf(Number(proposal.subject)) : proposal.subject,
            count: payload.loanIds?.length ?? 0,
          })}
        </h3>
        <p>
          {fmt(t.by, { name: proposal.proposedBy.name, at: manilaDateTime(proposal.proposedAt) })}
          {proposal.note ? (
            <>
              <br />
              {fmt(t.note, { note: proposal.note })}
            </>
          ) : null}
        </p>
        {mine ? (
          <p>{t.yours}</p>
        ) : (
          <form
            aria-label={fmt(t.decide, { id: proposal.id })}
            noValidate
            onSubmit={(e) => e.preventDefault()}
          >
            <TextField
              label={fmt(t.reason, { id: proposal.id })}
              hint={t.reasonHint}
              autoComplete="off"
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            <FormError error={error} />
            <p className="button-row">
              <button
                type="button"
                className="button"
                disabled={decide.isPending}
                onClick={() => {
                  setError(null)
                  decide.mutate('approve')
                }}
              >
                {fmt(t.approve, { id: proposal.id })}
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={decide.isPending}
                onClick={() => {
                  setError(null)
                  if (reason.trim().length < 3) return setError({ key: 'reason', text: t.reasonNeeded })
                  decide.mutate('reject')
                }}
              >
                {fmt(t.reject, { id: proposal.id })}
              </button>
            </p>
          </form>
        )}
      </article>
    </li>
  )
}
