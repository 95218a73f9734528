/**
 * The back office's site content (issue 19 item 7; /admin/content): banners, promo menu items and the
 * installable-app entries, each listed with whether the public site shows it today, and added, changed or removed
 * by the roles holding `content.manage` (the others read only: the forms are not shown to them); and the age
 * limits of the details step and the decision engine (spec section 9, ADR 0048).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useSelector } from '@xstate/react'
import { type FormEvent, type ReactNode, useState } from 'react'
import * as v from 'valibot'
import { mayDo } from '../../../domain/back-office/roles'
import type {
  AgeLimitsBody,
  AgeLimitsSetting,
  AppLink,
  Banner,
  Platform,
  PromoItem,
} from '../../../domain/contract/content'
import { ageLimitsBodySchema, platforms } from '../../../domain/contract/content'
import { formatDate, formatDateTime } from '../../../domain/format'
import { useApi, useAuthActor } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { CheckboxField, type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { isServerFailure } from '../../ui/forms/violations'
import { AdminList } from './admin-parts'
import {
  contentQueryKeys,
  fetchAgeLimits,
  fetchAppLinks,
  fetchBanners,
  fetchPromoItems,
  putAgeLimits,
  putAppLink,
  removeBanner,
  removePromoItem,
  saveBanner,
  savePromoItem,
} from './content-api'
import { ResultLine, TitledSection } from './form-parts'

type Texts = ReturnType<typeof useMessages>['admin']['content']
type Errors = Record<string, FieldErrorView>

/** The server's violations by field, and a form-level error. */
function errorsOf(error: unknown, fallback: string): { fields: Errors; form: FieldErrorView | null } {
  if (!isServerFailure(error)) return { fields: {}, form: { key: 'generic', text: fallback } }
  const fields: Errors = {}
  for (const v of error.violations) fields[v.propertyPath] ??= { key: error.code, text: v.message }
  return {
    fields,
    form: error.violations.length ? null : { key: error.code, text: error.message ?? fallback },
  }
}

function useCanManage() {
  const roles = useSelector(useAuthActor(), (s) => s.context.user?.roles ?? [])
  return mayDo(roles, 'content.manage')
}

function useRefresh() {
  const queryClient = useQueryClient()
  // The public answer is the layout's: refreshed too, so the admin sees the site as a visitor would.
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: contentQueryKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['public', 'site-content'] }),
    ])
}

type FormErrors = { fields: Errors; form: FieldErrorView | null }
const noErrors: FormErrors = { fields: {}, form: null }

/**
 * A content form's save: the call, the server's field and form errors, the "Saved" line, and the lists refreshed
 * after (`onSaved` first). `begin` clears the last answer before a new attempt.
 */
function useContentSave<TBody>(t: Texts, save: (body: TBody) => Promise<unknown>, onSaved?: () => void) {
  const refresh = useRefresh()
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const [done, setDone] = useState('')
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: async () => {
      onSaved?.()
      setDone(t.saved)
      await refresh()
    },
    onError: (error) => setErrors(errorsOf(error, t.failed)),
  })
  const begin = () => {
    setErrors(noErrors)
    setDone('')
  }
  return { errors, setErrors, done, setDone, mutation, begin }
}

/** A content form's end: its form-level error, the submit button (and `children` beside it), the result line. */
function SaveEnd({
  t,
  error,
  pending,
  done,
  label,
  children,
}: {
  t: Texts
  error: FieldErrorView | null
  pending: boolean
  done: string
  label: string
  children?: ReactNode
}) {
  return (
    <>
      <FormError error={error} />
      <p className="button-row">
        <button type="submit" className="button button--primary" disabled={pending}>
          {label}
        </button>
        {children}
      </p>
      <ResultLine>{pending ? t.saving : done}</ResultLine>
    </>
  )
}

export function ContentDesk() {
  const t = useMessages().admin.content
  const canManage = useCanManage()
  return (
    <>
      {canManage ? null : <p role="note">{t.readOnly}</p>}
      <Banners t={t} canManage={canManage} />
      <PromoItems t={t} canManage={canManage} />
      <AppLinks t={t} canManage={canManage} />
      <AgeLimitsSection t={t} canManage={canManage} />
    </>
  )
}

const blank = (value: string) => (value.trim() === '' ? null : value.trim())
const dash = (t: Texts, value: string | null) => (value ? formatDate(value) : t.none)

/** A form's values as typed: every field a string (dates from type=date inputs, YYYY-MM-DD or ''). */
type Values<K extends string> = Record<K, string>

function useEditor<K extends string>(
  empty: Values<K>,
  save: (id: number | null, values: Values<K>) => Promise<unknown>,
  t: Texts,
) {
  const [editing, setEditing] = useState<number | null>(null)
  const [values, setValues] = useState<Values<K>>(empty)
  const { errors, setErrors, done, setDone, mutation, begin } = useContentSave<void>(
    t,
    () => save(editing, values),
    () => {
      setEditing(null)
      setValues(empty)
    },
  )
  return {
    editing,
    values,
    errors,
    done,
    pending: mutation.isPending,
    field: (name: K) => ({
      name,
      value: values[name],
      error: errors.fields[name] ?? null,
      onChange: (e: { target: { value: string } }) =>
        setValues((now) => ({ ...now, [name]: e.target.value })),
    }),
    edit: (id: number, next: Values<K>) => {
      setEditing(id)
      setValues(next)
      begin()
    },
    cancel: () => {
      setEditing(null)
      setValues(empty)
      setErrors(noErrors)
    },
    submit: (event: FormEvent) => {
      event.preventDefault()
      begin()
      mutation.mutate()
    },
    setDone,
  }
}

function DeleteButton({
  label,
  text,
  onDelete,
}: {
  label: string
  text: string
  onDelete: () => Promise<unknown>
}) {
  const refresh = useRefresh()
  const mutation = useMutation({ mutationFn: onDelete, onSuccess: () => refresh() })
  return (
    <button
      type="button"
      className="button button--secondary button--sm"
      aria-label={label}
      disabled={mutation.isPending}
      onClick={() => mutation.mutate()}
    >
      {text}
    </button>
  )
}

// ---------------------------------------------------------------------------------------------------------
// Banners

type BannerField = 'alt' | 'desktop' | 'mobile' | 'startDate' | 'endDate' | 'hideStartDate' | 'hideEndDate'
const emptyBanner: Values<BannerField> = {
  alt: '',
  desktop: '',
  mobile: '',
  startDate: '',
  endDate: '',
  hideStartDate: '',
  hideEndDate: '',
}

function Banners({ t, canManage }: { t: Texts; canManage: boolean }) {
  const api = useApi()
  const list = useQuery({
    queryKey: contentQueryKeys.banners,
    queryFn: ({ signal }) => fetchBanners(api, signal),
  })
  const editor = useEditor<BannerField>(
    emptyBanner,
    (id, v) =>
      saveBanner(api, id, {
        alt: v.alt,
        desktop: v.desktop,
        mobile: v.mobile,
        startDate: v.startDate,
        endDate: blank(v.endDate),
        hideStartDate: blank(v.hideStartDate),
        hideEndDate: blank(v.hideEndDate),
      }),
    t,
  )
  const b = t.banners
  const editBanner = (row: Banner) =>
    editor.edit(row.id, {
      alt: row.alt,
      desktop: row.desktop,
      mobile: row.mobile,
      startDate: row.startDate,
      endDate: row.endDate ?? '',
      hideStartDate: row.hideStartDate ?? '',
      hideEndDate: row.hideEndDate ?? '',
    })
  const formTitle = editor.editing === null ? b.addTitle : fmt(b.editTitle, { id: editor.editing })
  return (
    <TitledSection id="content-banners-title" title={b.title} lead={b.lead}>
      <AdminList query={list} empty={b.empty}>
        {(rows) => (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
          <section className="table-scroll" aria-label={b.tableLabel} tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{b.alt}</th>
                  <th scope="col">{t.start}</th>
                  <th scope="col">{t.end}</th>
                  <th scope="col">{b.hidden}</th>
                  <th scope="col">{t.shownToday}</th>
                  {canManage ? <th scope="col">{t.actions}</th> : null}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} data-testid={`banner-row-${row.id}`}>
                    <td>{row.alt}</td>
                    <td>{formatDate(row.startDate)}</td>
                    <td>{dash(t, row.endDate)}</td>
                    <td>
                      {row.hideStartDate
                        ? `${formatDate(row.hideStartDate)} – ${dash(t, row.hideEndDate ?? null)}`
                        : t.none}
                    </td>
                    <td>{row.shownToday ? t.yes : t.no}</td>
                    {canManage ? (
                      <td className="button-row">
                        <button
                          type="button"
                          className="button button--secondary button--sm"
                          aria-label={fmt(b.editRow, { id: row.id })}
                          onClick={() => editBanner(row)}
                        >
                          {t.edit}
                        </button>
                        <DeleteButton
                          label={fmt(b.deleteRow, { id: row.id })}
                          text={t.delete}
                          onDelete={() => removeBanner(api, row.id)}
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </AdminList>
      {canManage ? (
        <form
          className="card"
          aria-labelledby="content-banner-form-title"
          noValidate
          onSubmit={editor.submit}
        >
          <h3 id="content-banner-form-title">{formTitle}</h3>
          <TextField
            label={b.alt}
            hint={b.altHint}
            autoComplete="off"
            maxLength={200}
            {...editor.field('alt')}
          />
          <TextField label={b.desktop} hint={b.imageHint} autoComplete="off" {...editor.field('desktop')} />
          <TextField label={b.mobile} hint={b.imageHint} autoComplete="off" {...editor.field('mobile')} />
          <TextField label={t.start} type="date" {...editor.field('startDate')} />
          <TextField label={t.end} hint={t.endHint} type="date" {...editor.field('endDate')} />
          <TextField label={b.hideStart} hint={b.hideHint} type="date" {...editor.field('hideStartDate')} />
          <TextField label={b.hideEnd} type="date" {...editor.field('hideEndDate')} />
          <EditorEnd t={t} editor={editor} submit={editor.editing === null ? b.add : b.save} />
        </form>
      ) : null}
    </TitledSection>
  )
}

function EditorEnd({
  t,
  editor,
  submit,
}: {
  t: Texts
  editor: {
    editing: number | null
    pending: boolean
    errors: { form: FieldErrorView | null }
    done: string
    cancel: () => void
  }
  submit: string
}) {
  return (
    <SaveEnd t={t} error={editor.errors.form} pending={editor.pending} done={editor.done} label={submit}>
      {editor.editing !== null ? (
        <button type="button" className="button button--secondary" onClick={editor.cancel}>
          {t.cancel}
        </button>
      ) : null}
    </SaveEnd>
  )
}

// ---------------------------------------------------------------------------------------------------------
// Promo menu items

type PromoField = 'title' | 'link' | 'startDate' | 'endDate'
const emptyPromo: Values<PromoField> = { title: '', link: '', startDate: '', endDate: '' }

function PromoItems({ t, canManage }: { t: Texts; canManage: boolean }) {
  const api = useApi()
  const list = useQuery({
    queryKey: contentQueryKeys.promoItems,
    queryFn: ({ signal }) => fetchPromoItems(api, signal),
  })
  const editor = useEditor<PromoField>(
    emptyPromo,
    (id, v) =>
      savePromoItem(api, id, {
        title: v.title,
        link: v.link,
        startDate: v.startDate,
        endDate: blank(v.endDate),
      }),
    t,
  )
  const p = t.promo
  const editItem = (row: PromoItem) =>
    editor.edit(row.id, {
      title: row.title,
      link: row.link,
      startDate: row.startDate,
      endDate: row.endDate ?? '',
    })
  return (
    <TitledSection id="content-promo-title" title={p.title} lead={p.lead}>
      <AdminList query={list} empty={p.empty}>
        {(rows) => (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
          <section className="table-scroll" aria-label={p.tableLabel} tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{p.itemTitle}</th>
                  <th scope="col">{p.link}</th>
                  <th scope="col">{t.start}</th>
                  <th scope="col">{t.end}</th>
                  <th scope="col">{t.shownToday}</th>
                  {canManage ? <th scope="col">{t.actions}</th> : null}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td>{row.title}</td>
                    <td>{row.link}</td>
                    <td>{formatDate(row.startDate)}</td>
                    <td>{dash(t, row.endDate)}</td>
                    <td>{row.shownToday ? t.yes : t.no}</td>
                    {canManage ? (
                      <td className="button-row">
                        <button
                          type="button"
                          className="button button--secondary button--sm"
                          aria-label={fmt(p.editRow, { id: row.id })}
                          onClick={() => editItem(row)}
                        >
                          {t.edit}
                        </button>
                        <DeleteButton
                          label={fmt(p.deleteRow, { id: row.id })}
                          text={t.delete}
                          onDelete={() => removePromoItem(api, row.id)}
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </AdminList>
      {canManage ? (
        <form className="card" aria-labelledby="content-promo-form-title" noValidate onSubmit={editor.submit}>
          <h3 id="content-promo-form-title">
            {editor.editing === null ? p.addTitle : fmt(p.editTitle, { id: editor.editing })}
          </h3>
          <TextField label={p.itemTitle} autoComplete="off" maxLength={40} {...editor.field('title')} />
          <TextField label={p.link} hint={p.linkHint} autoComplete="off" {...editor.field('link')} />
          <TextField label={t.start} type="date" {...editor.field('startDate')} />
          <TextField label={t.end} hint={t.endHint} type="date" {...editor.field('endDate')} />
          <EditorEnd t={t} editor={editor} submit={editor.editing === null ? p.add : p.save} />
        </form>
      ) : null}
    </TitledSection>
  )
}

// ---------------------------------------------------------------------------------------------------------
// The installable app

function AppLinks({ t, canManage }: { t: Texts; canManage: boolean }) {
  const api = useApi()
  const list = useQuery({
    queryKey: contentQueryKeys.apps,
    queryFn: ({ signal }) => fetchAppLinks(api, signal),
  })
  const loading = useMessages().admin.loading
  const a = t.apps
  return (
    <TitledSection id="content-apps-title" title={a.title} lead={a.lead}>
      {list.isPending ? <p role="status">{loading}</p> : null}
      {list.data
        ? platforms.map((platform) => (
            <AppLinkForm
              key={`${platform}-${list.data.find((row) => row.platform === platform)?.updatedAt ?? ''}`}
              t={t}
              platform={platform}
              row={list.data.find((row) => row.platform === platform)}
              canManage={canManage}
            />
          ))
        : null}
    </TitledSection>
  )
}

function AppLinkForm({
  t,
  platform,
  row,
  canManage,
}: {
  t: Texts
  platform: Platform
  row: AppLink | undefined
  canManage: boolean
}) {
  const api = useApi()
  const name = t.apps.platforms[platform]
  const [url, setUrl] = useState(row?.url ?? '')
  const [enabled, setEnabled] = useState(row?.enabled ?? false)
  const { errors, done, mutation, begin } = useContentSave<void>(t, () =>
    putAppLink(api, platform, { url, enabled }),
  )
  const submit = (event: FormEvent) => {
    event.preventDefault()
    begin()
    mutation.mutate()
  }
  const titleId = `content-app-${platform}`
  return (
    <form className="card" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <h3 id={titleId}>{name}</h3>
      <TextField
        label={fmt(t.apps.url, { platform: name })}
        autoComplete="off"
        readOnly={!canManage}
        value={url}
        error={errors.fields.url ?? null}
        onChange={(e) => setUrl(e.target.value)}
      />
      <CheckboxField
        label={fmt(t.apps.enabled, { platform: name })}
        checked={enabled}
        disabled={!canManage}
        error={errors.fields.enabled ?? null}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      {canManage ? (
        <SaveEnd
          t={t}
          error={errors.form}
          pending={mutation.isPending}
          done={done}
          label={fmt(t.apps.save, { platform: name })}
        />
      ) : null}
    </form>
  )
}

// ---------------------------------------------------------------------------------------------------------
// The age limits (spec section 9, docs/decisions/0048-age-limits-content-setting.md)

function AgeLimitsSection({ t, canManage }: { t: Texts; canManage: boolean }) {
  const api = useApi()
  const setting = useQuery({
    queryKey: contentQueryKeys.ageLimits,
    queryFn: ({ signal }) => fetchAgeLimits(api, signal),
  })
  const loading = useMessages().admin.loading
  const a = t.ageLimits
  return (
    <TitledSection id="content-age-limits-title" title={a.title} lead={a.lead}>
      {setting.isPending ? <p role="status">{loading}</p> : null}
      {setting.data ? (
        <AgeLimitsForm
          key={setting.data.updatedAt ?? 'defaults'}
          t={t}
          setting={setting.data}
          canManage={canManage}
        />
      ) : null}
    </TitledSection>
  )
}

function AgeLimitsForm({
  t,
  setting,
  canManage,
}: {
  t: Texts
  setting: AgeLimitsSetting
  canManage: boolean
}) {
  const api = useApi()
  const a = t.ageLimits
  const [min, setMin] = useState(String(setting.min))
  const [max, setMax] = useState(String(setting.max))
  const { errors, setErrors, done, mutation, begin } = useContentSave(t, (body: AgeLimitsBody) =>
    putAgeLimits(api, body),
  )
  const submit = (event: FormEvent) => {
    event.preventDefault()
    begin()
    // The server's own rule (18 <= min < max <= 100, whole years), checked before sending.
    const parsed = v.safeParse(ageLimitsBodySchema, { min: years(min), max: years(max) })
    if (parsed.success) return mutation.mutate(parsed.output)
    const fields: Errors = {}
    for (const [path, messages] of Object.entries(v.flatten(parsed.issues).nested ?? {}))
      if (messages?.[0]) fields[path] = { key: 'validationFailed', text: messages[0] }
    setErrors({ fields, form: null })
  }
  return (
    <form className="card" aria-labelledby="content-age-limits-title" noValidate onSubmit={submit}>
      <p>
        {setting.isDefault || !setting.updatedAt
          ? a.defaults
          : fmt(a.changed, { date: formatDateTime(setting.updatedAt) })}
      </p>
      <TextField
        label={a.min}
        inputMode="numeric"
        autoComplete="off"
        readOnly={!canManage}
        value={min}
        error={errors.fields.min ?? null}
        onChange={(e) => setMin(e.target.value)}
      />
      <TextField
        label={a.max}
        inputMode="numeric"
        autoComplete="off"
        readOnly={!canManage}
        value={max}
        error={errors.fields.max ?? null}
        onChange={(e) => setMax(e.target.value)}
      />
      {canManage ? (
        <SaveEnd t={t} error={errors.form} pending={mutation.isPending} done={done} label={a.save} />
      ) : null}
    </form>
  )
}

/** The years as typed, as a number: NaN when empty or not a number, which the schema refuses on the field. */
const years = (typed: string) => (typed.trim() === '' ? Number.NaN : Number(typed))
