/**
 * /admin-invitation?token=…: a person invited to the back office chooses their password (issue 19 item 1). The
 * token is the one-time link of the invitation e-mail; the first login afterwards asks for an e-mailed code.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import * as v from 'valibot'
import { acceptInvitation } from '../../../domain/contract/staff'
import { passwordSchema } from '../../../domain/identity'
import { ApiError } from '../../api/client'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { FormError, FormSuccess, TextField } from '../../ui/forms/fields'

const formSchema = v.pipe(
  v.object({ password: passwordSchema, passwordRepeat: v.string() }),
  v.forward(
    v.check((values) => values.password === values.passwordRepeat, 'mismatch'),
    ['passwordRepeat'],
  ),
)

export function StaffInvitation({ token }: { token: string | undefined }) {
  const m = useMessages().admin.staff
  const api = useApi()
  const [done, setDone] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm({
    resolver: standardSchemaResolver(formSchema),
    defaultValues: { password: '', passwordRepeat: '' },
  })
  const errors = form.formState.errors
  const submit = form.handleSubmit(async ({ password }) => {
    setFailure(null)
    try {
      const answer = await api.call(acceptInvitation, { body: { token: token ?? '', password } })
      setDone(answer.email)
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : m.invitationFailed)
    }
  })
  return (
    <section className="page page--narrow" aria-labelledby="invitation-title">
      <h1 id="invitation-title">{m.invitationTitle}</h1>
      {done ? (
        <>
          <FormSuccess>{m.invitationDone.replace('{email}', done)}</FormSuccess>
          <p>
            <Link to="/admin" className="button button--primary">
              {m.invitationLogin}
            </Link>
          </p>
        </>
      ) : (
        <form className="auth-form" noValidate onSubmit={submit}>
          <p className="lead">{m.invitationLead}</p>
          <FormError error={failure ? { key: 'invitation', text: failure } : null} />
          <TextField
            label={m.password}
            hint={m.passwordHint}
            type="password"
            autoComplete="new-password"
            error={errors.password ? { key: 'password', text: m.passwordHint } : null}
            {...form.register('password')}
          />
          <TextField
            label={m.passwordRepeat}
            type="password"
            autoComplete="new-password"
            error={errors.passwordRepeat ? { key: 'passwordRepeat', text: m.passwordMismatch } : null}
            {...form.register('passwordRepeat')}
          />
          <button type="submit" className="button button--primary" disabled={form.formState.isSubmitting}>
            {m.invitationSubmit}
          </button>
        </form>
      )}
    </section>
  )
}
