/**
 * /admin/clients/$id, one client's file (issue 19, item 3): profile and status with the actions the signed-in
 * user's roles allow (block, blacklist, resend a code, single link, promise to pay; `mayDo` hides the others, the
 * server refuses them anyway), the client's sandbox mode (a sandbox deployment and the `sandbox` permission), then
 * a section per part with its own heading: the journey timeline, applications
 * with the decisions' reasons, loans with their ledgers, extensions and schedules, payments, documents (a PDF
 * preview), the ID entered and the files uploaded (each shown on demand, each view audited), messages sent,
 * collection contacts, single links and promises to pay. Each part is its own bounded read, so a slow one never
 * holds the others; every wide table scrolls inside a named region at 360 px.
 */
import {
  type QueryKey,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import {
  type ClientDesk,
  type DeskDocument,
  type DeskIdentity,
  type DeskLoan,
  type DeskUpload,
  viewClientUpload,
} from '../../../domain/contract/clients'
import type { Page } from '../../../domain/contract/define'
import { isApiFailure } from '../../../domain/contract/wire'
import { formatDate, formatPhone, formatPhp, formatStoredDate } from '../../../domain/format'
import { pesosToCentavos } from '../../../domain/money'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { manilaDateTime } from './admin-api'
import { AdminPager, ScrollTable } from './admin-parts'
import { ClientLoanActions } from './client-loan-actions'
import { ClientOfferLookup } from './client-offer-lookup'
import {
  blacklistClient,
  blockClient,
  clientQueryKeys,
  fetchContacts,
  fetchDesk,
  fetchDocument,
  fetchLoans,
  fetchMessages,
  fetchTimeline,
  recordPromise,
  resendCode,
  singleLink,
} from './clients-api'
import { useMayDo } from './permissions'
import { ClientSandboxMode } from './sandbox-mode'

type Texts = ReturnType<typeof useMessages>['admin']['clients']['desk']

/** Long unbroken values (an e-mail, a single link's path) wrap rather than widen a phone's page. */
const wrap = { overflowWrap: 'anywhere' } as const

const when = (iso: string | null, none: string) => (iso ? manilaDateTime(iso) : none)

export function ClientFile({ id }: { id: number }) {
  const api = useApi()
  const m = useMessages().admin
  const d = m.clients.desk
  const desk = useQuery({
    queryKey: clientQueryKeys.desk(id),
    queryFn: ({ signal }) => fetchDesk(api, id, signal),
  })
  if (desk.isPending) return <p role="status">{m.loading}</p>
  if (desk.isError) {
    const missing = isApiFailure(desk.error) && desk.error.status === 404
    return (
      <div role="alert">
        <p>{missing ? d.notFound : m.loadFailed}</p>
        {missing ? null : (
          <button type="button" className="button button--secondary" onClick={() => desk.refetch()}>
            {m.retry}
          </button>
        )}
      </div>
    )
  }
  const file = desk.data
  return (
    <>
      <Profile file={file} />
      <Actions file={file} />
      <ClientSandboxMode clientId={id} />
      <Timeline id={id} />
      <Applications file={file} />
      <ClientOfferLookup clientId={id} />
      <Loans id={id} />
      <Documents id={id} documents={file.documents} />
      <IdentityFiles id={id} identity={file.identity} />
      <Messages id={id} />
      <Contacts id={id} />
      <SingleLinks file={file} />
      <Promises file={file} />
    </>
  )
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** A part's loading and failure states, or its content. */
function Loaded<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const m = useMessages().admin
  if (query.isPending) return <p role="status">{m.loading}</p>
  if (query.isError)
    return (
      <div role="alert">
        <p>{m.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => query.refetch()}>
          {m.retry}
        </button>
      </div>
    )
  return <>{children(query.data)}</>
}

/** A table of rows of cells with column headers, in a scrolling region, or the empty sentence. */
function DataTable({
  caption,
  region,
  columns,
  rows,
  empty,
}: {
  caption: string
  region: string
  columns: readonly string[]
  rows: readonly (readonly [key: string | number, ...cells: ReactNode[]])[]
  empty: string
}) {
  if (rows.length === 0) return <p>{empty}</p>
  return (
    <ScrollTable label={region}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([key, ...cells]) => (
            <tr key={key}>
              {cells.map((cell, at) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional, the columns never reorder
                <td key={at}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  )
}

function Profile({ file }: { file: ClientDesk }) {
  const c = useMessages().admin.clients
  const d = c.desk
  const p = file.profile
  const statuses = c.statuses as Record<string, string>
  const name = [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ') || d.none
  const facts: [string, ReactNode][] = [
    [d.profile.name, name],
    [d.profile.phone, formatPhone(p.phone)],
    [d.profile.email, p.email],
    [d.profile.reference, p.paymentReference],
    [d.profile.status, statuses[String(p.status)] ?? p.status],
    [d.profile.step, p.step ?? d.none],
    [d.profile.birthDate, p.birthDate ? formatStoredDate(p.birthDate) : d.none],
    [d.profile.language, p.language],
    [d.profile.phoneVerified, when(p.phoneVerifiedAt, d.profile.notYet)],
    [d.profile.emailVerified, when(p.emailVerifiedAt, d.profile.notYet)],
    [d.profile.since, manilaDateTime(p.createdAt)],
  ]
  return (
    <Section id="client-profile-title" title={d.profile.title}>
      <dl className="admin-facts" style={wrap}>
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Section>
  )
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function Actions({ file }: { file: ClientDesk }) {
  const api = useApi()
  const c = useMessages().admin.clients
  const a = c.desk.actions
  const may = useMayDo()
  const queryClient = useQueryClient()
  const id = file.profile.id
  const [notice, setNotice] = useState<string | null>(null)
  const noticeRef = useRef<HTMLParagraphElement>(null)
  const statuses = c.statuses as Record<string, string>
  useEffect(() => {
    if (notice) noticeRef.current?.focus()
  }, [notice])
  const act = useMutation({
    mutationFn: async (action: 'block' | 'unblock' | 'blacklist' | 'unblacklist' | 'code' | 'link') => {
      switch (action) {
        case 'block':
        case 'unblock': {
          const view = await blockClient(api, id, action === 'block')
          return fmt(a.statusChanged, { status: statuses[String(view.status)] ?? view.status })
        }
        case 'blacklist':
        case 'unblacklist': {
          const view = await blacklistClient(api, id, action === 'blacklist')
          return fmt(a.statusChanged, { status: statuses[String(view.status)] ?? view.status })
        }
        case 'code': {
          const sent = await resendCode(api, id)
          return fmt(a.codeSent, {
            purpose: sent.purpose,
            channel: sent.channel,
            at: manilaDateTime(sent.nextCodeAt),
          })
        }
        case 'link': {
          const link = await singleLink(api, id)
          return fmt(a.linkIssued, { at: manilaDateTime(link.expiresAt), path: link.path })
        }
      }
    },
    onSuccess: (text) => {
      setNotice(text)
      void queryClient.invalidateQueries({ queryKey: clientQueryKeys.client(id) })
    },
    onError: (error) => setNotice(fmt(a.failed, { message: messageOf(error) })),
  })
  const p = file.profile
  const buttons: [action: Parameters<typeof act.mutate>[0], label: string, allowed: boolean][] = [
    p.blocked ? ['unblock', a.unblock, may('clients.status')] : ['block', a.block, may('clients.status')],
    p.blacklisted
      ? ['unblacklist', a.unblacklist, may('clients.status')]
      : ['blacklist', a.blacklist, may('clients.status')],
    ['code', a.resendCode, may('clients.resend-code')],
    ['link', a.singleLink, may('clients.single-link')],
  ]
  const allowed = buttons.filter(([, , ok]) => ok)
  const promise = may('collections.promise')
  return (
    <Section id="client-actions-title" title={a.title}>
      {allowed.length === 0 && !promise ? <p>{a.noneAllowed}</p> : null}
      {allowed.length ? (
        <p className="button-row">
          {allowed.map(([action, label]) => (
            <button
              key={action}
              type="button"
              className="button button--secondary"
              disabled={act.isPending}
              onClick={() => act.mutate(action)}
            >
              {label}
            </button>
          ))}
        </p>
      ) : null}
      {notice ? (
        <p role="status" tabIndex={-1} ref={noticeRef} style={wrap}>
          {notice}
        </p>
      ) : null}
      {promise ? <PromiseForm id={id} /> : null}
    </Section>
  )
}

function PromiseForm({ id }: { id: number }) {
  const api = useApi()
  const t = useMessages().admin.clients.desk.promise
  const queryClient = useQueryClient()
  const [amount, setAmount] = useState('')
  const [date, setDate] = useState('')
  const [note, setNote] = useState('')
  const [errors, setErrors] = useState<{
    amount?: string
    promisedOn?: string
    note?: string
    form?: string
  }>({})
  const [done, setDone] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (body: Parameters<typeof recordPromise>[2]) => recordPromise(api, id, body),
    onSuccess: (made) => {
      setDone(fmt(t.recorded, { amount: formatPhp(made.amount), date: formatDate(made.promisedOn) }))
      setAmount('')
      setDate('')
      setNote('')
      void queryClient.invalidateQueries({ queryKey: clientQueryKeys.desk(id) })
    },
    onError: (error) => {
      if (isApiFailure(error) && error.violations.length) {
        const next: typeof errors = {}
        for (const v of error.violations) {
          const field = v.propertyPath.replace(/^body\./, '')
          if (field === 'amount' || field === 'promisedOn' || field === 'note') next[field] = v.message
          else next.form = v.message
        }
        setErrors(next)
      } else setErrors({ form: messageOf(error) })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setDone(null)
    const next: typeof errors = {}
    let centavos = 0
    try {
      centavos = pesosToCentavos(amount)
    } catch {
      centavos = 0
    }
    if (centavos <= 0) next.amount = t.amountInvalid
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) next.promisedOn = t.dateInvalid
    setErrors(next)
    if (Object.keys(next).length) return
    save.mutate({ amount: centavos, promisedOn: date, ...(note.trim() ? { note: note.trim() } : {}) })
  }
  const error = (key: keyof typeof errors) => (errors[key] ? { key: 'error', text: errors[key]! } : null)
  return (
    <form aria-labelledby="client-promise-title" noValidate onSubmit={submit}>
      <h3 id="client-promise-title">{t.title}</h3>
      <TextField
        label={t.amount}
        hint={t.amountHint}
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        error={error('amount')}
        onChange={(e) => setAmount(e.target.value)}
      />
      <TextField
        label={t.date}
        hint={t.dateHint}
        type="date"
        value={date}
        error={error('promisedOn')}
        onChange={(e) => setDate(e.target.value)}
      />
      <TextField
        label={t.note}
        maxLength={500}
        autoComplete="off"
        value={note}
        error={error('note')}
        onChange={(e) => setNote(e.target.value)}
      />
      {errors.form ? (
        <p role="alert" style={wrap}>
          {errors.form}
        </p>
      ) : null}
      <p className="button-row">
        <button type="submit" className="button" disabled={save.isPending}>
          {t.submit}
        </button>
      </p>
      {done ? <p role="status">{done}</p> : null}
    </form>
  )
}

/**
 * A part of the file read a page at a time (the timeline, messages, contacts): its section, its table and the
 * pager, over one query per page that keeps the previous page on screen while the next loads.
 */
function PagedPart<T>({
  id,
  texts,
  columns,
  queryKey,
  fetchPage,
  row,
}: {
  id: string
  texts: { title: string; caption: string; region: string; empty: string; what: string }
  columns: readonly string[]
  queryKey: (page: number) => QueryKey
  fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>
  row: (item: T) => readonly [key: string | number, ...cells: ReactNode[]]
}) {
  const paging = useMessages().admin.clients.paging
  const [page, setPage] = useState(1)
  const list = useQuery({
    queryKey: queryKey(page),
    queryFn: ({ signal }) => fetchPage(page, signal),
    placeholderData: (previous) => previous,
  })
  return (
    <Section id={id} title={texts.title}>
      <Loaded query={list}>
        {(data) => {
          const pages = Math.max(1, data.totalPages)
          return (
            <>
              <DataTable
                caption={texts.caption}
                region={texts.region}
                columns={columns}
                empty={texts.empty}
                rows={data.items.map(row)}
              />
              <AdminPager
                label={fmt(paging.label, { what: texts.what })}
                position={fmt(paging.position, { page, pages, total: data.total })}
                previous={paging.previous}
                next={paging.next}
                page={page}
                pages={pages}
                onPage={setPage}
              />
            </>
          )
        }}
      </Loaded>
    </Section>
  )
}

function Timeline({ id }: { id: number }) {
  const api = useApi()
  const t = useMessages().admin.clients.desk.timeline
  return (
    <PagedPart
      id="client-timeline-title"
      texts={t}
      columns={[t.at, t.machine, t.step, t.event, t.call, t.actor]}
      queryKey={(page) => clientQueryKeys.timeline(id, page)}
      fetchPage={(page, signal) => fetchTimeline(api, id, page, signal)}
      row={(s) => [
        s.id,
        manilaDateTime(s.at),
        s.machine === 'clientJourney' ? t.journey : fmt(t.loan, { id: s.subjectId }),
        `${s.fromState} → ${s.toState}`,
        s.event,
        s.call ?? t.job,
        `${s.actorKind} ${s.actorId}`,
      ]}
    />
  )
}

function Reasons({ reasons }: { reasons: unknown }) {
  if (Array.isArray(reasons)) {
    if (reasons.length === 0) return null
    return (
      <ul>
        {reasons.map((reason) => (
          <li key={String(reason)}>{typeof reason === 'string' ? reason : JSON.stringify(reason)}</li>
        ))}
      </ul>
    )
  }
  return reasons == null ? null : <p>{JSON.stringify(reasons)}</p>
}

function Applications({ file }: { file: ClientDesk }) {
  const d = useMessages().admin.clients.desk
  const t = d.applications
  return (
    <Section id="client-applications-title" title={t.title}>
      <DataTable
        caption={t.caption}
        region={t.region}
        columns={[t.id, t.status, t.asked, t.figures, t.created, t.decisions]}
        empty={t.empty}
        rows={file.applications.map((a) => [
          a.id,
          a.id,
          a.status,
          fmt(t.term, { amount: formatPhp(a.desiredAmount), days: a.desiredTerm }),
          fmt(t.term, { amount: formatPhp(a.principalAmount), days: a.term }),
          manilaDateTime(a.createdAt),
          a.decisions.length ? (
            <ul key="decisions">
              {a.decisions.map((x) => (
                <li key={x.id}>
                  {fmt(t.decision, { source: x.source, outcome: x.outcome, at: manilaDateTime(x.createdAt) })}
                  <Reasons reasons={x.reasons} />
                </li>
              ))}
            </ul>
          ) : (
            d.none
          ),
        ])}
      />
    </Section>
  )
}

function Loans({ id }: { id: number }) {
  const api = useApi()
  const t = useMessages().admin.clients.desk
  const loans = useQuery({
    queryKey: clientQueryKeys.loans(id),
    queryFn: ({ signal }) => fetchLoans(api, id, signal),
  })
  return (
    <>
      <Section id="client-loans-title" title={t.loans.title}>
        <Loaded query={loans}>
          {(data) =>
            data.loans.length === 0 ? (
              <p>{t.loans.empty}</p>
            ) : (
              data.loans.map((l) => <LoanPart key={l.id} clientId={id} loan={l} />)
            )
          }
        </Loaded>
      </Section>
      <Section id="client-payments-title" title={t.payments.title}>
        <Loaded query={loans}>
          {(data) => (
            <DataTable
              caption={t.payments.caption}
              region={t.payments.region}
              columns={[
                t.payments.paid,
                t.payments.loan,
                t.payments.channel,
                t.payments.amount,
                t.payments.status,
              ]}
              empty={t.payments.empty}
              rows={data.payments.map((p) => [
                p.id,
                manilaDateTime(p.paidAt),
                p.loanId ?? t.none,
                p.channel,
                formatPhp(p.amount),
                p.status,
              ])}
            />
          )}
        </Loaded>
      </Section>
    </>
  )
}

/** Loans the back office may still act on from here: an active one (extend) and a paid one (refund its credit). */
const actionable = new Set(['active', 'paid'])

function LoanPart({ clientId, loan }: { clientId: number; loan: DeskLoan }) {
  const d = useMessages().admin.clients.desk
  const t = d.loans
  const number = loan.loanNumber
  const headingId = `client-loan-${loan.id}`
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{fmt(t.loan, { number })}</h3>
      <dl className="admin-facts" style={wrap}>
        <div>
          <dt>{t.state}</dt>
          <dd>
            {loan.state} ({loan.plan}, {loan.standing})
          </dd>
        </div>
        <div>
          <dt>{t.principal}</dt>
          <dd>{formatPhp(loan.principal)}</dd>
        </div>
        <div>
          <dt>{t.total}</dt>
          <dd>{formatPhp(loan.total)}</dd>
        </div>
        <div>
          <dt>{t.due}</dt>
          <dd>{formatDate(loan.dueDate)}</dd>
        </div>
        <div>
          <dt>{t.start}</dt>
          <dd>{loan.startDate ? formatDate(loan.startDate) : d.none}</dd>
        </div>
      </dl>
      {actionable.has(loan.state) ? (
        <ClientLoanActions clientId={clientId} loanId={loan.id} loanNumber={number} />
      ) : null}
      <h4>{t.ledger}</h4>
      <DataTable
        caption={fmt(t.ledgerCaption, { number })}
        region={fmt(t.ledgerRegion, { number })}
        columns={[t.date, t.kind, t.part, t.amount, t.memo]}
        empty={d.none}
        rows={loan.ledger.map((e) => [
          e.id,
          formatDate(e.businessDate),
          e.kind,
          e.part,
          formatPhp(e.amount),
          e.memo ?? '',
        ])}
      />
      <h4>{t.extensions}</h4>
      <DataTable
        caption={fmt(t.extensionsCaption, { number })}
        region={fmt(t.extensionsRegion, { number })}
        columns={[t.type, t.status, t.fee, t.dueMoved]}
        empty={t.noExtensions}
        rows={loan.extensions.map((x) => [
          x.id,
          x.type,
          `${x.status} / ${x.invoiceStatus}`,
          x.fee === null ? d.none : formatPhp(x.fee),
          x.dueDateAfter ? `${x.dueDateBefore ?? d.none} → ${x.dueDateAfter}` : d.none,
        ])}
      />
      <h4>{t.schedules}</h4>
      {loan.schedules.length === 0 ? (
        <p>{t.noSchedules}</p>
      ) : (
        <ul>
          {loan.schedules.map((s) => (
            <li key={s.id}>
              {s.type}: {s.status}
              {s.total === null ? null : `, ${formatPhp(s.total)}`}
              <ul>
                {s.instalments.map((i) => (
                  <li key={i.seq}>
                    {fmt(t.instalment, {
                      seq: i.seq,
                      date: formatDate(i.dueDate),
                      amount: formatPhp(i.amount),
                      paid: formatPhp(i.paidAmount),
                    })}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Documents({ id, documents }: { id: number; documents: readonly DeskDocument[] }) {
  const d = useMessages().admin.clients.desk
  const t = d.documents
  return (
    <Section id="client-documents-title" title={t.title}>
      <DataTable
        caption={t.caption}
        region={t.region}
        columns={[t.type, t.of, t.rendered, t.signed, t.previewColumn]}
        empty={t.empty}
        rows={documents.map((doc) => [
          `${doc.kind}-${doc.id}`,
          doc.type,
          fmt(doc.kind === 'loan' ? t.application : t.loan, { id: doc.ownerId }),
          manilaDateTime(doc.renderedAt),
          when(doc.signedAt, d.none),
          <Preview key="preview" id={id} doc={doc} texts={d} />,
        ])}
      />
    </Section>
  )
}

/** Fetches a document's PDF (the call carries the user's token) and offers it as a link the browser opens. */
function Preview({ id, doc, texts }: { id: number; doc: DeskDocument; texts: Texts }) {
  const api = useApi()
  const t = texts.documents
  const [url, setUrl] = useState<string | null>(null)
  const load = useMutation({
    mutationFn: () => fetchDocument(api, id, doc.kind, doc.id),
    onSuccess: (blob) => setUrl(URL.createObjectURL(blob)),
  })
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url])
  if (url)
    return (
      <a href={url} target="_blank" rel="noopener">
        {fmt(t.open, { type: doc.type })}
      </a>
    )
  return (
    <>
      <button
        type="button"
        className="button button--secondary button--sm"
        disabled={load.isPending}
        onClick={() => load.mutate()}
      >
        {fmt(t.preview, { type: doc.type })}
      </button>
      {load.isPending ? <span role="status">{t.loading}</span> : null}
      {load.isError ? <span role="alert">{messageOf(load.error)}</span> : null}
    </>
  )
}

type FileTexts = ReturnType<typeof useMessages>['admin']['clientDocuments']

/**
 * What the client gave at registration: the ID entered (its number masked by the server), the identity checks and
 * the files uploaded, each opened on demand (a view is audited on the server, so nothing loads by itself).
 */
export function IdentityFiles({ id, identity }: { id: number; identity: DeskIdentity }) {
  const m = useMessages().admin
  const t = m.clientDocuments
  const outcomes = t.outcomes as Record<string, string>
  const doc = identity.document
  return (
    <Section id="client-identity-title" title={t.title}>
      <p>{t.lead}</p>
      <h3>{t.idTitle}</h3>
      {doc ? (
        <dl className="admin-facts" style={wrap}>
          <div>
            <dt>{t.idType}</dt>
            <dd>{doc.documentType}</dd>
          </div>
          <div>
            <dt>{t.idNumber}</dt>
            <dd>{doc.documentNumber}</dd>
          </div>
          <div>
            <dt>{t.idExpiry}</dt>
            <dd>{doc.expiryDate ? formatStoredDate(doc.expiryDate) : t.noExpiry}</dd>
          </div>
          <div>
            <dt>{t.idEntered}</dt>
            <dd>{manilaDateTime(doc.finishedAt)}</dd>
          </div>
        </dl>
      ) : (
        <p>{t.noId}</p>
      )}
      <h3>{t.checksTitle}</h3>
      <DataTable
        caption={t.checksCaption}
        region={t.checksRegion}
        columns={[t.checkStarted, t.checkProvider, t.checkOutcome, t.checkDecided]}
        empty={t.noChecks}
        rows={identity.checks.map((x) => [
          x.id,
          manilaDateTime(x.createdAt),
          x.provider,
          [outcomes[x.status] ?? x.status, x.reason].filter(Boolean).join(': '),
          when(x.decidedAt, m.clients.desk.none),
        ])}
      />
      <h3>{t.filesTitle}</h3>
      {identity.uploads.length === 0 ? (
        <p>{t.noFiles}</p>
      ) : (
        <ul className="admin-uploads" aria-label={t.filesLabel} style={{ listStyle: 'none', padding: 0 }}>
          {identity.uploads.map((file) => (
            <li key={file.id} style={{ marginBlockEnd: '1rem', ...wrap }}>
              <UploadedFile id={id} file={file} texts={t} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}

const formatOf = (mime: string) =>
  mime === 'application/pdf' ? 'PDF' : mime.replace(/^image\//, '').toUpperCase()

/**
 * One uploaded file: what it is and when it came, and a button that fetches its bytes with the user's token
 * (an <img> cannot send it) and shows the image, scaled to the screen, or a link to the PDF.
 */
function UploadedFile({ id, file, texts: t }: { id: number; file: DeskUpload; texts: FileTexts }) {
  const api = useApi()
  const categories = t.categories as Record<string, string>
  const what = fmt(t.what, { category: categories[file.category] ?? file.category, kind: file.kind })
  const uploadedAt = manilaDateTime(file.createdAt)
  const [url, setUrl] = useState<string | null>(null)
  const load = useMutation({
    mutationFn: () => api.call(viewClientUpload, { params: { id, fileId: file.id } }),
    onSuccess: (blob) => setUrl(URL.createObjectURL(blob)),
  })
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url])
  const image = file.mime.startsWith('image/')
  return (
    <>
      <p>
        <strong>{what}</strong>
        <br />
        {fmt(t.uploaded, { at: uploadedAt })}
        {file.capturedAt ? `, ${fmt(t.taken, { at: manilaDateTime(file.capturedAt) })}` : null}
        {' · '}
        {fmt(t.size, { format: formatOf(file.mime), kb: Math.max(1, Math.round(file.size / 1024)) })}
      </p>
      {url && image ? (
        <>
          <img
            src={url}
            alt={fmt(t.alt, { what, at: uploadedAt })}
            style={{ display: 'block', maxWidth: '100%', maxHeight: '70vh', height: 'auto' }}
          />
          <p className="button-row">
            <button
              type="button"
              className="button button--secondary button--sm"
              onClick={() => setUrl(null)}
            >
              {fmt(t.hide, { what })}
            </button>
          </p>
        </>
      ) : url ? (
        <p>
          <a href={url} target="_blank" rel="noopener">
            {fmt(t.openPdf, { what })}
          </a>
        </p>
      ) : (
        <p className="button-row">
          <button
            type="button"
            className="button button--secondary button--sm"
            disabled={load.isPending}
            onClick={() => load.mutate()}
          >
            {fmt(t.show, { what })}
          </button>
          {load.isPending ? <span role="status">{t.loading}</span> : null}
          {load.isError ? (
            <span role="alert">{fmt(t.failed, { message: messageOf(load.error) })}</span>
          ) : null}
        </p>
      )}
    </>
  )
}

function Messages({ id }: { id: number }) {
  const api = useApi()
  const t = useMessages().admin.clients.desk.messages
  return (
    <PagedPart
      id="client-messages-title"
      texts={t}
      columns={[t.sent, t.to, t.purpose, t.message]}
      queryKey={(page) => clientQueryKeys.messages(id, page)}
      fetchPage={(page, signal) => fetchMessages(api, id, page, signal)}
      row={(m) => [
        m.id,
        manilaDateTime(m.createdAt),
        `${m.recipient} (${m.channel})`,
        m.purpose,
        m.subject ? `${m.subject}: ${m.body}` : m.body,
      ]}
    />
  )
}

function Contacts({ id }: { id: number }) {
  const api = useApi()
  const d = useMessages().admin.clients.desk
  const t = d.contacts
  return (
    <PagedPart
      id="client-contacts-title"
      texts={t}
      columns={[t.scheduled, t.kind, t.channel, t.status]}
      queryKey={(page) => clientQueryKeys.contacts(id, page)}
      fetchPage={(page, signal) => fetchContacts(api, id, page, signal)}
      row={(x) => [
        x.id,
        manilaDateTime(x.scheduledAt),
        `${x.kind} (${fmt(d.loans.loan, { number: x.loanId })}, ${formatDate(x.dueDate)})`,
        x.channel,
        x.reason ? `${x.status}: ${x.reason}` : x.status,
      ]}
    />
  )
}

function SingleLinks({ file }: { file: ClientDesk }) {
  const d = useMessages().admin.clients.desk
  const t = d.links
  return (
    <Section id="client-links-title" title={t.title}>
      <DataTable
        caption={t.caption}
        region={t.caption}
        columns={[t.issued, t.by, t.expires, t.used]}
        empty={t.empty}
        rows={file.singleLinks.map((l) => [
          l.id,
          manilaDateTime(l.createdAt),
          l.issuedBy ?? d.none,
          manilaDateTime(l.expiresAt),
          when(l.consumedAt, d.none),
        ])}
      />
    </Section>
  )
}

function Promises({ file }: { file: ClientDesk }) {
  const d = useMessages().admin.clients.desk
  const t = d.promises
  return (
    <Section id="client-promises-title" title={t.title}>
      <DataTable
        caption={t.caption}
        region={t.caption}
        columns={[t.recorded, t.loan, t.amount, t.by, t.note]}
        empty={t.empty}
        rows={file.promises.map((p) => [
          p.id,
          manilaDateTime(p.createdAt),
          p.loanId,
          formatPhp(p.amount),
          formatDate(p.promisedOn),
          p.note ?? '',
        ])}
      />
    </Section>
  )
}
