/**
 * /admin/users (issue 19 item 1): an administrator invites colleagues by e-mail with their roles, changes roles,
 * disables and re-enables accounts, and sends a new invitation to one not yet accepted. One card per user, so the
 * screen reads on a phone; every change goes through the server, which keeps the last administrator and audits it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { roles as allRoles, type Role } from '../../../domain/back-office/roles'
import { ApiError } from '../../api/client'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { manilaDateTime } from './admin-api'
import { AdminList, AdminPager } from './admin-parts'
import { changeUser, fetchUsers, invite, reinvite, type StaffUser, staffQueryKeys } from './staff-api'

type Texts = ReturnType<typeof useMessages>['admin']['staff']

const reasonOf = (error: unknown) => (error instanceof ApiError ? error.message : String(error))

function RoleChoices({
  legend,
  names,
  chosen,
  onChange,
}: {
  legend: string
  names: Texts['roleNames']
  chosen: readonly Role[]
  onChange: (next: Role[]) => void
}) {
  return (
    <fieldset className="field">
      <legend className="field__label">{legend}</legend>
      {allRoles.map((role) => (
        <label key={role} className="checkbox">
          <input
            type="checkbox"
            checked={chosen.includes(role)}
            onChange={(event) =>
              onChange(event.target.checked ? [...chosen, role] : chosen.filter((r) => r !== role))
            }
          />{' '}
          {names[role]}
        </label>
      ))}
    </fieldset>
  )
}

function InviteForm({ m, onDone }: { m: Texts; onDone: () => void }) {
  const api = useApi()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [chosen, setChosen] = useState<Role[]>(['support'])
  const [said, setSaid] = useState('')
  const send = useMutation({
    mutationFn: () => invite(api, { email, name, roles: chosen }),
    onSuccess: (user) => {
      setSaid(m.invited.replace('{email}', user.email))
      setEmail('')
      setName('')
      onDone()
    },
    onError: (error) => setSaid(m.failed.replace('{reason}', reasonOf(error))),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    send.mutate()
  }
  return (
    <section className="section" aria-labelledby="invite-title">
      <h2 id="invite-title" className="section__title">
        {m.inviteTitle}
      </h2>
      <form onSubmit={submit} aria-labelledby="invite-title">
        <TextField
          label={m.email}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField label={m.name} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
        <RoleChoices legend={m.roles} names={m.roleNames} chosen={chosen} onChange={setChosen} />
        <p className="button-row">
          <button type="submit" className="button button--primary" disabled={send.isPending}>
            {m.invite}
          </button>
        </p>
        <p role="status">{said}</p>
      </form>
    </section>
  )
}

function UserCard({ user, m, onDone }: { user: StaffUser; m: Texts; onDone: () => void }) {
  const api = useApi()
  const [chosen, setChosen] = useState<Role[]>(user.roles as Role[])
  const [said, setSaid] = useState('')
  const act = useMutation({
    mutationFn: (action: 'roles' | 'toggle' | 'resend') =>
      action === 'resend'
        ? reinvite(api, user.id)
        : changeUser(api, user.id, action === 'roles' ? { roles: chosen } : { active: !user.active }),
    onSuccess: () => {
      setSaid(m.saved)
      onDone()
    },
    onError: (error) => setSaid(m.failed.replace('{reason}', reasonOf(error))),
  })
  const status = !user.active ? m.disabled : user.invited ? m.pending : m.active
  return (
    <article className="card" aria-labelledby={`user-${user.id}`}>
      <h3 id={`user-${user.id}`}>{user.name}</h3>
      <p>
        {user.email} · {status} · {manilaDateTime(user.createdAt)}
      </p>
      <RoleChoices legend={m.roles} names={m.roleNames} chosen={chosen} onChange={setChosen} />
      <p className="button-row">
        <button
          type="button"
          className="button button--secondary"
          disabled={act.isPending}
          onClick={() => act.mutate('roles')}
        >
          {m.saveRoles.replace('{name}', user.name)}
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={act.isPending}
          onClick={() => act.mutate('toggle')}
        >
          {(user.active ? m.disable : m.enable).replace('{name}', user.name)}
        </button>
        {user.invited ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={act.isPending}
            onClick={() => act.mutate('resend')}
          >
            {m.resend.replace('{name}', user.name)}
          </button>
        ) : null}
      </p>
      <p role="status">{said}</p>
    </article>
  )
}

/** One page of the users: the list and its pager read the same query. */
function useStaffUsers(page: number) {
  const api = useApi()
  return useQuery({
    queryKey: staffQueryKeys.users(page),
    queryFn: ({ signal }) => fetchUsers(api, page, signal),
  })
}

export function StaffUsers() {
  const m = useMessages().admin.staff
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const users = useStaffUsers(page)
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'users'] })
  return (
    <>
      <InviteForm m={m} onDone={refresh} />
      <section className="section" aria-labelledby="users-list-title">
        <h2 id="users-list-title" className="section__title">
          {m.tableCaption}
        </h2>
        <AdminList query={users} select={(answer) => answer.items} empty={m.noEntries}>
          {(rows) =>
            rows.map((user) => (
              <UserCard
                key={`${user.id}-${user.roles.join()}-${user.active}`}
                user={user}
                m={m}
                onDone={refresh}
              />
            ))
          }
        </AdminList>
        <StaffPager page={page} pages={users.data?.totalPages ?? 1} onPage={setPage} m={m} />
      </section>
    </>
  )
}

/** The users' and the audit trail's pager, in the staff screens' words ("Page 2 of 5"). */
export function StaffPager({
  page,
  pages,
  onPage,
  m,
}: {
  page: number
  pages: number
  onPage: (page: number) => void
  m: Texts
}) {
  const position = m.pageOf.replace('{page}', String(page)).replace('{pages}', String(pages))
  return (
    <AdminPager
      label={position}
      position={position}
      previous={m.previous}
      next={m.next}
      page={page}
      pages={pages}
      onPage={onPage}
    />
  )
}
