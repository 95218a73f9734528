/**
 * The configuration screens (issue 19 item 6; /admin/config): the calculator, pricing, servicing and limits
 * documents edited in a form that shows, before anything is sent, what the change does to sample offers and which
 * legal cap or range it would break (the same domain checks the server makes); a change is a proposal that
 * another administrator approves or rejects, taking effect at the chosen time; and the history of versions.
 * Forms and decisions are shown only to the roles holding `config.change`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useSelector } from '@xstate/react'
import { type FormEvent, useMemo, useState } from 'react'
import { mayDo } from '../../../domain/back-office/roles'
import type { Approval } from '../../../domain/contract/approvals'
import { type ConfigKey, configKeys } from '../../../domain/contract/lending-config'
import type { Violation } from '../../../domain/contract/wire'
import { formatPhp } from '../../../domain/format'
import { useApi, useAuthActor } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { CheckboxField, type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { isServerFailure } from '../../ui/forms/violations'
import { manilaDateTime } from './admin-api'
import { AdminList, ViolationList } from './admin-parts'
import {
  approve,
  configQueryKeys,
  fetchLending,
  fetchProposals,
  fetchVersions,
  proposeChange,
  reject,
} from './config-api'
import {
  type Lending,
  leavesOf,
  lendingViolations,
  manilaInputToIso,
  sampleOffers,
  withValue,
} from './config-preview'
import { ResultLine, TitledSection } from './form-parts'

type Texts = ReturnType<typeof useMessages>['admin']['config']

function useStaff() {
  return useSelector(useAuthActor(), (s) => ({
    id: s.context.user?.id ?? null,
    roles: s.context.user?.roles ?? [],
  }))
}

function useRefreshConfig() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: configQueryKeys.all })
}

export function ConfigDesk() {
  const staff = useStaff()
  const canChange = mayDo(staff.roles, 'config.change')
  return (
    <>
      {canChange ? <ChangeForm /> : null}
      {canChange ? <Proposals me={staff.id} /> : null}
      <Versions />
    </>
  )
}

function ChangeForm() {
  const t = useMessages().admin.config
  const api = useApi()
  const refresh = useRefreshConfig()
  const lending = useQuery({
    queryKey: configQueryKeys.lending,
    queryFn: ({ signal }) => fetchLending(api, signal),
  })
  const [key, setKey] = useState<ConfigKey>('pricing')
  const [drafts, setDrafts] = useState<Partial<Record<ConfigKey, unknown>>>({})
  const [effective, setEffective] = useState('')
  const [note, setNote] = useState('')
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [serverViolations, setServerViolations] = useState<Violation[]>([])
  const [result, setResult] = useState<string | null>(null)
  const current = lending.data?.[key]
  const draft = drafts[key] ?? current
  const lendingKey = key === 'calculator' || key === 'pricing'
  const next = useMemo(
    () =>
      lending.data
        ? { calculator: lending.data.calculator, pricing: lending.data.pricing, [key]: draft }
        : null,
    [lending.data, key, draft],
  )
  const localViolations = useMemo(
    () => (next && lendingKey ? lendingViolations(next) : []),
    [next, lendingKey],
  )
  const samples = useMemo(
    () =>
      lending.data && next && lendingKey && !localViolations.length
        ? sampleOffers(lending.data as Lending, next as Lending)
        : [],
    [lending.data, next, lendingKey, localViolations],
  )
  const send = useMutation({
    mutationFn: (body: { value: unknown; note: string; effectiveAt?: string }) =>
      proposeChange(api, key, body),
    onSuccess: async (proposal) => {
      setResult(fmt(t.proposed, { id: proposal.id }))
      setDrafts((all) => ({ ...all, [key]: undefined }))
      setNote('')
      setEffective('')
      await refresh()
    },
    onError: (e) => {
      if (isServerFailure(e) && e.violations.length) {
        setServerViolations(e.violations)
        setError({ key: e.code, text: t.refused })
      } else setError({ key: 'generic', text: isServerFailure(e) ? (e.message ?? t.failed) : t.failed })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setServerViolations([])
    setResult(null)
    const effectiveAt = effective ? manilaInputToIso(effective) : undefined
    if (effectiveAt === null) return setError({ key: 'effectiveAt', text: t.badTime })
    send.mutate({ value: draft, note: note.trim(), ...(effectiveAt ? { effectiveAt } : {}) })
  }
  const leaves = leavesOf(draft)
  const before = new Map(leavesOf(current).map((leaf) => [leaf.path, leaf.value]))
  const setLeaf = (path: string, value: number | boolean) =>
    setDrafts((all) => ({ ...all, [key]: withValue(all[key] ?? current, path, value) }))
  return (
    <TitledSection id="config-change-title" title={t.change.title} lead={t.change.lead}>
      {lending.isPending ? <p role="status">{t.loading}</p> : null}
      {lending.isError ? <p role="alert">{t.failed}</p> : null}
      {lending.data ? (
        <form aria-labelledby="config-change-title" noValidate onSubmit={submit}>
          <SelectField
            label={t.change.document}
            placeholder={t.change.chooseDocument}
            options={configKeys.map((k) => ({
              value: k,
              label: `${t.documents[k]} (${fmt(t.versionShort, { version: lending.data.versions[k] })})`,
            }))}
            value={key}
            onChange={(e) => {
              if ((configKeys as readonly string[]).includes(e.target.value))
                setKey(e.target.value as ConfigKey)
              setServerViolations([])
              setError(null)
            }}
          />
          <fieldset className="config-fields">
            <legend>{fmt(t.change.values, { document: t.documents[key] })}</legend>
            {leaves.map((leaf) =>
              typeof leaf.value === 'boolean' ? (
                <CheckboxField
                  key={leaf.path}
                  label={leaf.path}
                  checked={leaf.value}
                  onChange={(e) => setLeaf(leaf.path, e.target.checked)}
                />
              ) : (
                <TextField
                  key={leaf.path}
                  label={leaf.path}
                  hint={
                    before.get(leaf.path) !== leaf.value
                      ? fmt(t.change.was, { value: String(before.get(leaf.path)) })
                      : undefined
                  }
                  type="number"
                  inputMode="numeric"
                  autoComplete="off"
                  value={String(leaf.value)}
                  onChange={(e) => {
                    const value = Number(e.target.value)
                    if (e.target.value !== '' && Number.isFinite(value)) setLeaf(leaf.path, value)
                  }}
                />
              ),
            )}
          </fieldset>
          <TextField
            label={t.change.effectiveAt}
            hint={t.change.effectiveHint}
            type="datetime-local"
            value={effective}
            onChange={(e) => setEffective(e.target.value)}
          />
          <TextField
            label={t.change.note}
            autoComplete="off"
            maxLength={500}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <ViolationList violations={localViolations} label={t.change.unlawful} />
          {lendingKey && !localViolations.length ? <Samples rows={samples} t={t} /> : null}
          <ViolationList violations={serverViolations} label={t.change.serverRefused} />
          <FormError error={error} />
          <p className="button-row">
            <button type="submit" className="button" disabled={send.isPending}>
              {t.change.submit}
            </button>
          </p>
        </form>
      ) : null}
      <ResultLine>{send.isPending ? t.sending : result}</ResultLine>
    </TitledSection>
  )
}

function Samples({ rows, t }: { rows: ReturnType<typeof sampleOffers>; t: Texts }) {
  const money = (value: number | null) => (value === null ? t.samples.notOffered : formatPhp(value))
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
    <section className="table-scroll" aria-label={t.samples.title} tabIndex={0}>
      <table>
        <caption>{t.samples.title}</caption>
        <thead>
          <tr>
            <th scope="col">{t.samples.client}</th>
            <th scope="col">{t.samples.amount}</th>
            <th scope="col">{t.samples.term}</th>
            <th scope="col">{t.samples.before}</th>
            <th scope="col">{t.samples.after}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className={row.before !== row.after ? 'changed' : undefined}>
              <td>{t.samples.kinds[row.kind as 'new' | 'repeat']}</td>
              <td>{formatPhp(row.amount)}</td>
              <td>{fmt(t.samples.days, { days: row.term })}</td>
              <td>{money(row.before)}</td>
              <td>
                {money(row.after)}
                {row.before !== row.after ? (
                  <span className="visually-hidden"> ({t.samples.changed})</span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

function Proposals({ me }: { me: number | null }) {
  const t = useMessages().admin.config
  const api = useApi()
  const refresh = useRefreshConfig()
  const proposals = useQuery({
    queryKey: configQueryKeys.proposals,
    queryFn: ({ signal }) => fetchProposals(api, signal),
  })
  return (
    <TitledSection id="config-proposals-title" title={t.proposals.title} lead={t.proposals.lead}>
      <AdminList query={proposals} empty={t.proposals.empty}>
        {(items) => (
          <ul className="proposal-list">
            {items.map((p) => (
              <ProposalItem key={p.id} proposal={p} mine={p.proposedBy.id === me} onDone={refresh} />
            ))}
          </ul>
        )}
      </AdminList>
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
  onDone: () => unknown
}) {
  const t = useMessages().admin.config
  const api = useApi()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<FieldErrorView | null>(null)
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      decision === 'approve' ? approve(api, proposal.id) : reject(api, proposal.id, reason.trim()),
    onSuccess: () => onDone(),
    onError: (e) =>
      setError({
        key: isServerFailure(e) ? e.code : 'generic',
        text: isServerFailure(e) ? (e.violations[0]?.message ?? e.message ?? t.failed) : t.failed,
      }),
  })
  const payload = proposal.payload as { key: ConfigKey; effectiveAt: string | null }
  const headingId = `proposal-${proposal.id}`
  return (
    <li>
      <article aria-labelledby={headingId} className="card">
        <h3 id={headingId}>
          {fmt(t.proposals.heading, {
            id: proposal.id,
            document: t.documents[payload.key] ?? proposal.subject,
          })}
        </h3>
        <p>
          {fmt(t.proposals.by, { name: proposal.proposedBy.name, at: manilaDateTime(proposal.proposedAt) })}
          <br />
          {payload.effectiveAt
            ? fmt(t.proposals.effective, { at: manilaDateTime(payload.effectiveAt) })
            : t.proposals.atOnce}
          {proposal.note ? (
            <>
              <br />
              {fmt(t.proposals.note, { note: proposal.note })}
            </>
          ) : null}
        </p>
        {mine ? (
          <p>{t.proposals.yours}</p>
        ) : (
          <form
            aria-label={fmt(t.proposals.decide, { id: proposal.id })}
            noValidate
            onSubmit={(e) => e.preventDefault()}
          >
            <TextField
              label={fmt(t.proposals.reason, { id: proposal.id })}
              hint={t.proposals.reasonHint}
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
                {fmt(t.proposals.approve, { id: proposal.id })}
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={decide.isPending}
                onClick={() => {
                  setError(null)
                  if (reason.trim().length < 3)
                    return setError({ key: 'reason', text: t.proposals.reasonNeeded })
                  decide.mutate('reject')
                }}
              >
                {fmt(t.proposals.reject, { id: proposal.id })}
              </button>
            </p>
          </form>
        )}
      </article>
    </li>
  )
}

function Versions() {
  const t = useMessages().admin.config
  const api = useApi()
  const versions = useQuery({
    queryKey: configQueryKeys.versions,
    queryFn: ({ signal }) => fetchVersions(api, signal),
  })
  return (
    <TitledSection id="config-versions-title" title={t.versions.title} lead={t.versions.lead}>
      <AdminList query={versions} empty={t.versions.empty}>
        {(items) => (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
          <section className="table-scroll" aria-label={t.versions.tableLabel} tabIndex={0}>
            <table>
              <caption className="visually-hidden">{t.versions.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.versions.document}</th>
                  <th scope="col">{t.versions.version}</th>
                  <th scope="col">{t.versions.state}</th>
                  <th scope="col">{t.versions.effectiveAt}</th>
                  <th scope="col">{t.versions.people}</th>
                  <th scope="col">{t.versions.note}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((row) => (
                  <tr key={`${row.key}-${row.version}`}>
                    <td>{t.documents[row.key as ConfigKey] ?? row.key}</td>
                    <td>{row.version}</td>
                    <td>{t.versions.states[row.state]}</td>
                    <td>{manilaDateTime(row.effectiveAt)}</td>
                    <td>
                      {row.proposedBy === null
                        ? t.versions.system
                        : fmt(t.versions.byIds, {
                            proposer: row.proposedByName ?? `#${row.proposedBy}`,
                            approver:
                              row.approvedByName ?? (row.approvedBy === null ? '–' : `#${row.approvedBy}`),
                          })}
                    </td>
                    <td>{row.note}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </AdminList>
    </TitledSection>
  )
}
