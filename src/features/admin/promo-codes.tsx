/**
 * Promo codes on /admin/config (issue 19 item 6): the codes with their window, discounts, limits and uses; a form
 * that proposes a new code or a change to one (ending it early is a window ending now), checked before sending by
 * the domain's schema, with the calculator's default offers priced without and with the discount by the domain's
 * `computeOffer`; the promo proposals waiting for another administrator; and the decided ones, the codes' history.
 * A promo only lowers the interest and the service fee, so it cannot make an offer unlawful (domain/pricing/
 * promo-admin.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useSelector } from '@xstate/react'
import { type FormEvent, useMemo, useState } from 'react'
import * as v from 'valibot'
import { mayDo } from '../../../domain/back-office/roles'
import type { PromoCodeView } from '../../../domain/contract/promo-codes'
import { toViolations, type Violation } from '../../../domain/contract/wire'
import { formatPhp } from '../../../domain/format'
import { type ClientKind, clientKinds } from '../../../domain/offer'
import { manilaDate } from '../../../domain/pricing/manila-date'
import { computeOffer } from '../../../domain/pricing/offer'
import { promoCreateSchema } from '../../../domain/pricing/promo-admin'
import { useApi, useAuthActor } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { CheckboxField, type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { isServerFailure } from '../../ui/forms/violations'
import { manilaDateTime } from './admin-api'
import { AdminList, ScrollTable, ViolationList } from './admin-parts'
import { configQueryKeys, fetchLending } from './config-api'
import { type Lending, manilaInputToIso } from './config-preview'
import { ResultLine, TitledSection } from './form-parts'
import { PendingApprovals } from './pending-approvals'
import { fetchPromoCodes, fetchPromoHistory, promoQueryKeys, proposePromo } from './promo-codes-api'

type Texts = ReturnType<typeof useMessages>['admin']['promoCodes']

/** An instant as a datetime-local value on the Manila clock (UTC+8, no daylight saving). */
const manilaInput = (iso: string) => new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 16)

const percent = (bps: number) => `${(bps / 100).toLocaleString('en-PH', { maximumFractionDigits: 2 })}%`

interface Draft {
  code: string
  validFrom: string
  validTo: string
  clientKinds: ClientKind[]
  maxUses: string
  usesPerClient: string
  interestDiscountBps: string
  serviceFeeDiscountBps: string
  description: string
  note: string
}

const emptyDraft = (): Draft => {
  const now = new Date().toISOString()
  return {
    code: '',
    validFrom: manilaInput(now),
    validTo: manilaInput(new Date(Date.now() + 30 * 86_400_000).toISOString()),
    clientKinds: ['guest', 'new', 'repeat'],
    maxUses: '',
    usesPerClient: '1',
    interestDiscountBps: '0',
    serviceFeeDiscountBps: '0',
    description: '',
    note: '',
  }
}

const draftOf = (promo: PromoCodeView, endNow: boolean): Draft => ({
  code: promo.code,
  validFrom: manilaInput(promo.validFrom),
  validTo: manilaInput(endNow ? new Date().toISOString() : promo.validTo),
  clientKinds: [...promo.clientKinds],
  maxUses: promo.maxUses === null ? '' : String(promo.maxUses),
  usesPerClient: promo.usesPerClient === null ? '' : String(promo.usesPerClient),
  interestDiscountBps: String(promo.interestDiscountBps),
  serviceFeeDiscountBps: String(promo.serviceFeeDiscountBps),
  description: promo.description,
  note: '',
})

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text))

/** The body the draft makes, as the server will check it. */
const bodyOf = (draft: Draft) => ({
  code: draft.code,
  validFrom: manilaInputToIso(draft.validFrom) ?? draft.validFrom,
  validTo: manilaInputToIso(draft.validTo) ?? draft.validTo,
  clientKinds: draft.clientKinds,
  maxUses: numberOrNull(draft.maxUses),
  usesPerClient: numberOrNull(draft.usesPerClient),
  interestDiscountBps: Number(draft.interestDiscountBps),
  serviceFeeDiscountBps: Number(draft.serviceFeeDiscountBps),
  description: draft.description,
  note: draft.note,
})

interface PreviewRow {
  key: string
  kind: ClientKind
  amount: number
  term: number
  before: number | null
  after: number | null
}

/** The calculator's initial amount for each kind, at its shortest and longest term, priced without and with the promo. */
function previewRows(lending: Lending, kinds: readonly ClientKind[], interest: number, fee: number) {
  const rows: PreviewRow[] = []
  const today = manilaDate(new Date())
  const total = (kind: ClientKind, amount: number, term: number, withPromo: boolean) => {
    try {
      return computeOffer({
        ...lending,
        kind,
        amount,
        term,
        withPackageFee: true,
        today,
        promo: withPromo
          ? { code: 'PREVIEW', interestDiscountBps: interest, serviceFeeDiscountBps: fee }
          : undefined,
      }).total.amount
    } catch {
      return null
    }
  }
  const terms = lending.calculator.termLimits
  for (const kind of kinds) {
    const state =
      kind === 'repeat' ? lending.calculator.initialStates.repeated : lending.calculator.initialStates.new
    const span =
      kind === 'repeat'
        ? [terms.minTermForRepeated, terms.maxTermForRepeated]
        : [terms.minTermForNew, terms.maxTermForNew]
    for (const term of new Set(span)) {
      rows.push({
        key: `${kind}-${term}`,
        kind,
        amount: state.initialAmount,
        term,
        before: total(kind, state.initialAmount, term, false),
        after: total(kind, state.initialAmount, term, true),
      })
    }
  }
  return rows
}

export function PromoCodesDesk() {
  const t = useMessages().admin.promoCodes
  const roles = useSelector(useAuthActor(), (s) => s.context.user?.roles ?? [])
  const canChange = mayDo(roles, 'config.change')
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState<{ draft: Draft; change: boolean; key: number } | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: promoQueryKeys.all })
  const edit = (promo: PromoCodeView, endNow: boolean) =>
    setDraft({ draft: draftOf(promo, endNow), change: true, key: Date.now() })
  return (
    <>
      <PromoList t={t} canChange={canChange} onEdit={edit} />
      {canChange ? (
        <PromoForm
          key={draft?.key ?? 0}
          t={t}
          initial={draft?.draft ?? emptyDraft()}
          change={draft?.change ?? false}
          onNew={() => setDraft({ draft: emptyDraft(), change: false, key: Date.now() })}
          onSent={refresh}
        />
      ) : null}
      <PendingApprovals kinds={['promo_code']} id="promo-pending-title" onDecided={refresh} />
      <PromoHistory t={t} />
    </>
  )
}

function PromoList({
  t,
  canChange,
  onEdit,
}: {
  t: Texts
  canChange: boolean
  onEdit: (promo: PromoCodeView, endNow: boolean) => void
}) {
  const api = useApi()
  const codes = useQuery({
    queryKey: promoQueryKeys.list,
    queryFn: ({ signal }) => fetchPromoCodes(api, signal),
  })
  return (
    <TitledSection id="promo-list-title" title={t.title} lead={t.lead}>
      <AdminList query={codes} empty={t.empty}>
        {(items) => (
          <ScrollTable label={t.tableLabel}>
            <table>
              <caption className="visually-hidden">{t.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.code}</th>
                  <th scope="col">{t.state}</th>
                  <th scope="col">{t.window}</th>
                  <th scope="col">{t.clients}</th>
                  <th scope="col">{t.discounts}</th>
                  <th scope="col">{t.uses}</th>
                  {canChange ? <th scope="col">{t.actions}</th> : null}
                </tr>
              </thead>
              <tbody>
                {items.map((promo) => (
                  <tr key={promo.code}>
                    <th scope="row">
                      {promo.code}
                      {promo.description ? (
                        <>
                          <br />
                          <small>{promo.description}</small>
                        </>
                      ) : null}
                    </th>
                    <td>{t.states[promo.state]}</td>
                    <td>
                      {fmt(t.windowText, {
                        from: manilaDateTime(promo.validFrom),
                        to: manilaDateTime(promo.validTo),
                      })}
                    </td>
                    <td>{promo.clientKinds.map((kind) => t.kinds[kind]).join(', ')}</td>
                    <td>
                      {fmt(t.discountText, {
                        interest: percent(promo.interestDiscountBps),
                        fee: percent(promo.serviceFeeDiscountBps),
                      })}
                    </td>
                    <td>
                      {fmt(t.usesText, {
                        uses: promo.uses,
                        max: promo.maxUses ?? t.noLimit,
                        perClient: promo.usesPerClient ?? t.noLimit,
                      })}
                    </td>
                    {canChange ? (
                      <td>
                        <button
                          type="button"
                          className="button button--secondary"
                          onClick={() => onEdit(promo, false)}
                        >
                          {fmt(t.changeButton, { code: promo.code })}
                        </button>
                        {promo.state === 'active' ? (
                          <button
                            type="button"
                            className="button button--secondary"
                            onClick={() => onEdit(promo, true)}
                          >
                            {fmt(t.endButton, { code: promo.code })}
                          </button>
                        ) : null}
                      </td>
                    ) : null}
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

function PromoForm({
  t,
  initial,
  change,
  onNew,
  onSent,
}: {
  t: Texts
  initial: Draft
  change: boolean
  onNew: () => void
  onSent: () => unknown
}) {
  const api = useApi()
  const lending = useQuery({
    queryKey: configQueryKeys.lending,
    queryFn: ({ signal }) => fetchLending(api, signal),
  })
  const [draft, setDraft] = useState(initial)
  const [touched, setTouched] = useState(change)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [serverViolations, setServerViolations] = useState<Violation[]>([])
  const [result, setResult] = useState<string | null>(null)
  const set = (patch: Partial<Draft>) => {
    setTouched(true)
    setDraft((d) => ({ ...d, ...patch }))
  }
  const checked = useMemo(() => v.safeParse(promoCreateSchema, bodyOf(draft)), [draft])
  const violations = touched && !checked.success ? toViolations(checked.issues) : []
  const rows = useMemo(
    () =>
      lending.data && checked.success
        ? previewRows(
            lending.data as Lending,
            checked.output.clientKinds,
            checked.output.interestDiscountBps,
            checked.output.serviceFeeDiscountBps,
          )
        : [],
    [lending.data, checked],
  )
  const send = useMutation({
    mutationFn: () => {
      if (!checked.success) throw new Error('invalid')
      const { code, ...terms } = checked.output
      return proposePromo(api, code, terms, change)
    },
    onSuccess: async (proposal) => {
      setResult(fmt(t.proposed, { id: proposal.id, code: proposal.subject }))
      await onSent()
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
    setTouched(true)
    setError(null)
    setServerViolations([])
    setResult(null)
    if (!checked.success) return setError({ key: 'invalid', text: t.fixFirst })
    send.mutate()
  }
  const title = change ? fmt(t.form.changeTitle, { code: draft.code }) : t.form.newTitle
  return (
    <TitledSection id="promo-form-title" title={title} lead={t.form.lead}>
      <form aria-labelledby="promo-form-title" noValidate onSubmit={submit}>
        <TextField
          label={t.form.code}
          hint={t.form.codeHint}
          autoComplete="off"
          maxLength={10}
          readOnly={change}
          value={draft.code}
          onChange={(e) => set({ code: e.target.value.toUpperCase() })}
        />
        <TextField
          label={t.form.validFrom}
          hint={t.form.timeHint}
          type="datetime-local"
          value={draft.validFrom}
          onChange={(e) => set({ validFrom: e.target.value })}
        />
        <TextField
          label={t.form.validTo}
          hint={t.form.validToHint}
          type="datetime-local"
          value={draft.validTo}
          onChange={(e) => set({ validTo: e.target.value })}
        />
        <fieldset>
          <legend>{t.form.clients}</legend>
          {clientKinds.map((kind) => (
            <CheckboxField
              key={kind}
              label={t.kinds[kind]}
              checked={draft.clientKinds.includes(kind)}
              onChange={(e) =>
                set({
                  clientKinds: e.target.checked
                    ? clientKinds.filter((k) => k === kind || draft.clientKinds.includes(k))
                    : draft.clientKinds.filter((k) => k !== kind),
                })
              }
            />
          ))}
        </fieldset>
        <TextField
          label={t.form.interestDiscount}
          hint={t.form.bpsHint}
          type="number"
          inputMode="numeric"
          autoComplete="off"
          value={draft.interestDiscountBps}
          onChange={(e) => set({ interestDiscountBps: e.target.value })}
        />
        <TextField
          label={t.form.serviceFeeDiscount}
          hint={t.form.bpsHint}
          type="number"
          inputMode="numeric"
          autoComplete="off"
          value={draft.serviceFeeDiscountBps}
          onChange={(e) => set({ serviceFeeDiscountBps: e.target.value })}
        />
        <TextField
          label={t.form.maxUses}
          hint={t.form.limitHint}
          type="number"
          inputMode="numeric"
          autoComplete="off"
          value={draft.maxUses}
          onChange={(e) => set({ maxUses: e.target.value })}
        />
        <TextField
          label={t.form.usesPerClient}
          hint={t.form.limitHint}
          type="number"
          inputMode="numeric"
          autoComplete="off"
          value={draft.usesPerClient}
          onChange={(e) => set({ usesPerClient: e.target.value })}
        />
        <TextField
          label={t.form.description}
          autoComplete="off"
          maxLength={200}
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
        />
        <TextField
          label={t.form.note}
          autoComplete="off"
          maxLength={500}
          value={draft.note}
          onChange={(e) => set({ note: e.target.value })}
        />
        <ViolationList violations={violations} label={t.form.unlawful} />
        <p>{t.form.lawful}</p>
        {rows.length ? <Preview rows={rows} t={t} /> : null}
        <ViolationList violations={serverViolations} label={t.form.serverRefused} />
        <FormError error={error} />
        <p className="button-row">
          <button type="submit" className="button" disabled={send.isPending}>
            {change ? t.form.submitChange : t.form.submitNew}
          </button>
          {change ? (
            <button type="button" className="button button--secondary" onClick={onNew}>
              {t.form.newInstead}
            </button>
          ) : null}
        </p>
      </form>
      <ResultLine>{send.isPending ? t.sending : result}</ResultLine>
    </TitledSection>
  )
}

function Preview({ rows, t }: { rows: PreviewRow[]; t: Texts }) {
  const money = (value: number | null) => (value === null ? t.preview.notOffered : formatPhp(value))
  return (
    <ScrollTable label={t.preview.title}>
      <table>
        <caption>{t.preview.title}</caption>
        <thead>
          <tr>
            <th scope="col">{t.preview.client}</th>
            <th scope="col">{t.preview.amount}</th>
            <th scope="col">{t.preview.term}</th>
            <th scope="col">{t.preview.without}</th>
            <th scope="col">{t.preview.with}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td>{t.kinds[row.kind]}</td>
              <td>{formatPhp(row.amount)}</td>
              <td>{fmt(t.preview.days, { days: row.term })}</td>
              <td>{money(row.before)}</td>
              <td>{money(row.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  )
}

function PromoHistory({ t }: { t: Texts }) {
  const api = useApi()
  const history = useQuery({
    queryKey: promoQueryKeys.history,
    queryFn: ({ signal }) => fetchPromoHistory(api, signal),
  })
  return (
    <TitledSection id="promo-history-title" title={t.history.title} lead={t.history.lead}>
      <AdminList query={history} empty={t.history.empty}>
        {(items) => (
          <ScrollTable label={t.history.tableLabel}>
            <table>
              <caption className="visually-hidden">{t.history.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.history.proposal}</th>
                  <th scope="col">{t.code}</th>
                  <th scope="col">{t.history.outcome}</th>
                  <th scope="col">{t.window}</th>
                  <th scope="col">{t.discounts}</th>
                  <th scope="col">{t.history.people}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((p) => {
                  const payload = (p.payload ?? {}) as Partial<ReturnType<typeof bodyOf>> & {
                    action?: string
                  }
                  return (
                    <tr key={p.id}>
                      <td>{p.id}</td>
                      <td>{p.subject}</td>
                      <td>
                        {fmt(t.history.outcomeText, {
                          action: payload.action === 'create' ? t.history.created : t.history.changed,
                          status: t.history.statuses[p.status as 'approved'] ?? p.status,
                          at: p.decidedAt ? manilaDateTime(p.decidedAt) : '–',
                        })}
                      </td>
                      <td>
                        {payload.validFrom && payload.validTo
                          ? fmt(t.windowText, {
                              from: manilaDateTime(payload.validFrom),
                              to: manilaDateTime(payload.validTo),
                            })
                          : '–'}
                      </td>
                      <td>
                        {fmt(t.discountText, {
                          interest: percent(payload.interestDiscountBps ?? 0),
                          fee: percent(payload.serviceFeeDiscountBps ?? 0),
                        })}
                      </td>
                      <td>
                        {fmt(t.history.byText, {
                          proposer: p.proposedBy.name,
                          decider: p.decidedBy?.name ?? '–',
                        })}
                        {p.reason ? (
                          <>
                            <br />
                            {fmt(t.history.reason, { reason: p.reason })}
                          </>
                        ) : null}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </AdminList>
    </TitledSection>
  )
}
