/**
 * The back office's debt desk (issue 18, items 3 and 4; /admin/debts): the overdue and held loans, chosen and
 * sold to a collection agency (each sold or refused on its own, the refusals listed); writing a loan off with a
 * reason; the agencies (list and add); the recent sales; the payments that reached Hiram after a sale, to forward
 * to the agency and mark forwarded.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { CollectionAgency } from '../../../domain/contract/debt-answers'
import { formatPhone, formatPhp } from '../../../domain/format'
import { loanNumberOf } from '../../../domain/payments/reference'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { isServerFailure } from '../../ui/forms/violations'
import { manilaDateTime } from './admin-api'
import { AdminList, ScrollTable } from './admin-parts'
import {
  addAgency,
  debtQueryKeys,
  fetchAgencies,
  fetchCandidates,
  fetchForwards,
  fetchSales,
  markForwarded,
  sell,
  writeOff,
} from './debt-api'
import { ResultLine, TitledSection } from './form-parts'
import { loanIdOf } from './payment-forms'
import { approvalsQueryKey, PendingApprovals } from './pending-approvals'

type Texts = ReturnType<typeof useMessages>['admin']['debts']

/** The server's message (a violation's first, else its own), or `fallback`. */
function failure(error: unknown, fallback: string): FieldErrorView {
  if (!isServerFailure(error)) return { key: 'generic', text: fallback }
  return { key: error.code, text: error.violations[0]?.message ?? error.message ?? fallback }
}

/** The debt lists, and the proposals waiting (a sale or a write-off is a proposal, issue 19 item 5). */
function useRefreshDebt() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: debtQueryKeys.all }),
      queryClient.invalidateQueries({ queryKey: approvalsQueryKey }),
    ])
}

function useAgencies() {
  const api = useApi()
  return useQuery({ queryKey: debtQueryKeys.agencies, queryFn: ({ signal }) => fetchAgencies(api, signal) })
}

export function DebtDesk() {
  const refresh = useRefreshDebt()
  return (
    <>
      <SellLoans />
      <WriteOff />
      <PendingApprovals
        id="debt-approvals-title"
        kinds={['debt.sell', 'loans.write-off']}
        onDecided={refresh}
      />
      <Forwards />
      <Sales />
      <Agencies />
    </>
  )
}

function SellLoans() {
  const t = useMessages().admin.debts
  const api = useApi()
  const refresh = useRefreshDebt()
  const candidates = useQuery({
    queryKey: debtQueryKeys.candidates,
    queryFn: ({ signal }) => fetchCandidates(api, signal),
  })
  const agencies = useAgencies()
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [agencyId, setAgencyId] = useState('')
  const [reason, setReason] = useState('')
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [result, setResult] = useState<string[]>([])
  const act = useMutation({
    mutationFn: () =>
      sell(api, {
        agencyId: Number(agencyId),
        loanIds: [...selected],
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      }),
    // Maker-checker (issue 19 item 5): a proposal; each loan is sold or refused once another user approves it.
    onSuccess: async (answer) => {
      setSelected(new Set())
      setResult([fmt(t.sell.done, { id: answer.id, count: selected.size })])
      await refresh()
    },
    onError: (e) => setError(failure(e, t.sell.failed)),
  })
  const toggle = (loanId: number) =>
    setSelected((now) => {
      const next = new Set(now)
      if (next.has(loanId)) next.delete(loanId)
      else next.add(loanId)
      return next
    })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setResult([])
    if (!selected.size) return setError({ key: 'noneSelected', text: t.sell.noneSelected })
    if (!agencyId) return setError({ key: 'noAgency', text: t.sell.noAgency })
    act.mutate()
  }
  const agencyOptions = (agencies.data ?? [])
    .filter((a: CollectionAgency) => a.active)
    .map((a) => ({ value: String(a.id), label: a.name }))
  return (
    <TitledSection id="debt-candidates-title" title={t.candidates.title} lead={t.candidates.lead}>
      <form aria-labelledby="debt-candidates-title" noValidate onSubmit={submit}>
        <AdminList query={candidates} empty={t.candidates.empty}>
          {(items) => (
            <ScrollTable label={t.candidates.tableLabel}>
              <table>
                <caption className="visually-hidden">{t.candidates.title}</caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="visually-hidden">{t.sell.submit}</span>
                    </th>
                    <th scope="col">{t.candidates.loan}</th>
                    <th scope="col">{t.candidates.state}</th>
                    <th scope="col">{t.candidates.overdueSince}</th>
                    <th scope="col">{t.candidates.outstanding}</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((c) => (
                    <tr key={c.loanId}>
                      <td>
                        {c.sellable ? (
                          <input
                            type="checkbox"
                            aria-label={fmt(t.candidates.select, { loanNumber: c.loanNumber })}
                            checked={selected.has(c.loanId)}
                            onChange={() => toggle(c.loanId)}
                          />
                        ) : (
                          <span title={t.candidates.notSellable}>–</span>
                        )}
                      </td>
                      <td>{c.loanNumber}</td>
                      <td>{c.state}</td>
                      <td>{c.overdueSince ?? '–'}</td>
                      <td>{formatPhp(c.outstanding)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
        </AdminList>
        <p>{fmt(t.sell.selected, { count: selected.size })}</p>
        <SelectField
          label={t.sell.agency}
          placeholder={t.sell.chooseAgency}
          options={agencyOptions}
          value={agencyId}
          onChange={(e) => setAgencyId(e.target.value)}
        />
        <TextField
          label={t.sell.reason}
          autoComplete="off"
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <FormError error={error} />
        <p className="button-row">
          <button type="submit" className="button" disabled={act.isPending}>
            {t.sell.submit}
          </button>
        </p>
      </form>
      <ResultLine>
        {act.isPending
          ? t.sell.sending
          : result.map((line) => (
              <span key={line} className="result-line">
                {line}
                <br />
              </span>
            ))}
      </ResultLine>
    </TitledSection>
  )
}

function WriteOff() {
  const t = useMessages().admin.debts.writeOff
  const api = useApi()
  const refresh = useRefreshDebt()
  const [loan, setLoan] = useState('')
  const [reason, setReason] = useState('')
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const act = useMutation({
    mutationFn: (loanId: number) => writeOff(api, loanId, reason.trim()),
    onSuccess: async (answer) => {
      setResult(fmt(t.done, { id: answer.id, loan: loanNumberOf(Number(answer.subject)) }))
      setLoan('')
      setReason('')
      await refresh()
    },
    onError: (e) => setError(failure(e, t.failed)),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setResult(null)
    const loanId = loanIdOf(loan)
    if (loanId === null) return setError({ key: 'loanId', text: t.badLoan })
    act.mutate(loanId)
  }
  return (
    <TitledSection id="write-off-title" title={t.title} lead={t.lead}>
      <form aria-labelledby="write-off-title" noValidate onSubmit={submit}>
        <TextField
          label={t.loanId}
          autoComplete="off"
          value={loan}
          onChange={(e) => setLoan(e.target.value)}
        />
        <TextField
          label={t.reason}
          hint={t.reasonHint}
          autoComplete="off"
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <FormError error={error} />
        <p className="button-row">
          <button type="submit" className="button button--secondary" disabled={act.isPending}>
            {t.submit}
          </button>
        </p>
      </form>
      <ResultLine>{act.isPending ? t.sending : result}</ResultLine>
    </TitledSection>
  )
}

function Forwards() {
  const t = useMessages().admin.debts.forwards
  const api = useApi()
  const refresh = useRefreshDebt()
  const forwards = useQuery({
    queryKey: debtQueryKeys.forwards,
    queryFn: ({ signal }) => fetchForwards(api, signal),
  })
  const mark = useMutation({ mutationFn: (id: number) => markForwarded(api, id), onSuccess: refresh })
  return (
    <TitledSection id="debt-forwards-title" title={t.title} lead={t.lead}>
      <AdminList query={forwards} empty={t.empty}>
        {(items) => (
          <ScrollTable label={t.tableLabel}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.payment}</th>
                  <th scope="col">{t.loan}</th>
                  <th scope="col">{t.agency}</th>
                  <th scope="col">{t.amount}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t.mark}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((f) => (
                  <tr key={f.id}>
                    <td>{f.paymentId}</td>
                    <td>{f.loanNumber}</td>
                    <td>{f.agency.name}</td>
                    <td>{formatPhp(f.amount)}</td>
                    <td>
                      <button
                        type="button"
                        className="button button--secondary"
                        aria-label={fmt(t.markLabel, { id: f.paymentId })}
                        disabled={mark.isPending}
                        onClick={() => mark.mutate(f.id)}
                      >
                        {t.mark}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </AdminList>
    </TitledSection>
  )
}

function Sales() {
  const t = useMessages().admin.debts.sales
  const api = useApi()
  const sales = useQuery({ queryKey: debtQueryKeys.sales, queryFn: ({ signal }) => fetchSales(api, signal) })
  return (
    <section className="section" aria-labelledby="debt-sales-title">
      <h2 id="debt-sales-title" className="section__title">
        {t.title}
      </h2>
      <AdminList query={sales} empty={t.empty}>
        {(items) => (
          <ScrollTable label={t.tableLabel}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.at}</th>
                  <th scope="col">{t.agency}</th>
                  <th scope="col">{t.loans}</th>
                  <th scope="col">{t.total}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((s) => (
                  <tr key={s.id}>
                    <td>{manilaDateTime(s.at)}</td>
                    <td>{s.agency.name}</td>
                    <td>{s.loans.map((l) => l.loanNumber).join(', ')}</td>
                    <td>{formatPhp(s.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </AdminList>
    </section>
  )
}

const emptyAgency = { name: '', phone: '', email: '', paymentInstructions: '' }

function Agencies() {
  const t: Texts['agencies'] = useMessages().admin.debts.agencies
  const api = useApi()
  const refresh = useRefreshDebt()
  const agencies = useAgencies()
  const [draft, setDraft] = useState(emptyAgency)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const act = useMutation({
    mutationFn: () => addAgency(api, draft),
    onSuccess: async () => {
      setDraft(emptyAgency)
      setResult(t.added)
      await refresh()
    },
    onError: (e) => setError(failure(e, t.failed)),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setResult(null)
    act.mutate()
  }
  const field = (name: keyof typeof emptyAgency) => ({
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: e.target.value })),
  })
  return (
    <TitledSection id="debt-agencies-title" title={t.title} lead={t.lead}>
      <AdminList query={agencies} empty={t.empty}>
        {(items) => (
          <ScrollTable label={t.tableLabel}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.name}</th>
                  <th scope="col">{t.phone}</th>
                  <th scope="col">{t.email}</th>
                  <th scope="col">{t.active}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <tr key={a.id}>
                    <td>{a.name}</td>
                    <td>{formatPhone(a.phone)}</td>
                    <td>{a.email}</td>
                    <td>{a.active ? t.yes : t.no}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </AdminList>
      <form aria-label={t.add} noValidate onSubmit={submit}>
        <TextField label={t.name} autoComplete="off" maxLength={120} {...field('name')} />
        <TextField label={t.phone} type="tel" autoComplete="off" {...field('phone')} />
        <TextField label={t.email} type="email" autoComplete="off" {...field('email')} />
        <TextField
          label={t.instructions}
          autoComplete="off"
          maxLength={2000}
          {...field('paymentInstructions')}
        />
        <FormError error={error} />
        <p className="button-row">
          <button type="submit" className="button button--secondary" disabled={act.isPending}>
            {t.add}
          </button>
        </p>
      </form>
      <ResultLine>{act.isPending ? t.sending : result}</ResultLine>
    </TitledSection>
  )
}
