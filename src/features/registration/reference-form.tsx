/**
 * /registration/reference (step relative_info): one relative or friend the client names and types (never
 * harvested from the phone), whose number is not the client's own; sent with PUT /complete-step-three.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useQuery } from '@tanstack/react-query'
import { useRef } from 'react'
import { type Resolver, useForm } from 'react-hook-form'
import { getClient } from '../../../domain/contract/identity'
import { completeReference } from '../../../domain/contract/journey'
import {
  makeReferenceSchema,
  type Reference,
  type ReferenceInput,
  relations,
} from '../../../domain/journey/fields'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { FormFooter } from './form-footer'
import { useFormErrors } from './form-support'
import { useRegistrationData } from './registration-data'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

const fields = ['fullName', 'relation', 'phone'] as const

/** GET /private/client, the same query (and key) the rest of the app caches the client under. */
export const currentClientKey = ['client', 'current'] as const

export interface ReferencePrefill {
  fullName?: string
  relation?: string
  phone?: string
}

export function ReferenceForm({
  prefill,
  onCompleted,
}: {
  prefill?: ReferencePrefill
  onCompleted?: () => void
}) {
  const m = useMessages()
  const t = m.journey.reference
  const api = useApi()
  const refresh = useJourneyRefresh(onCompleted)
  const client = useQuery({
    queryKey: currentClientKey,
    queryFn: ({ signal }) => api.call(getClient, {}, { signal }),
  })
  const ownPhone = client.data?.info?.mobilePhone?.number ?? undefined
  // The client's own number is known once the client is loaded (the server checks it again either way); the
  // resolver reads the latest one at each validation.
  const own = useRef<string | undefined>(undefined)
  own.current = ownPhone
  const resolver = useRef<Resolver<ReferenceInput, unknown, Reference>>((values, context, options) =>
    standardSchemaResolver(makeReferenceSchema(own.current))(values, context, options),
  ).current
  const { register, handleSubmit, formState, setError } = useForm<ReferenceInput, unknown, Reference>({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      fullName: prefill?.fullName ?? '',
      relation: (prefill?.relation ?? '') as ReferenceInput['relation'],
      phone: prefill?.phone ?? '',
    },
  })
  const { fieldError, formError, setFormError, fail } = useFormErrors(formState.errors, fields, refresh)

  const submit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      await api.call(completeReference, { body: values })
      refresh()
    } catch (error) {
      fail(error, setError)
    }
  })

  return (
    <StepFrame step="reference" title={m.titles.registration_reference} intro={t.intro}>
      <form className="reg__form" noValidate onSubmit={submit}>
        <TextField
          label={t.fullName}
          hint={t.fullNameHint}
          autoComplete="off"
          maxLength={100}
          error={fieldError('fullName')}
          {...register('fullName')}
        />
        <SelectField
          label={t.relation}
          placeholder={m.journey.common.choose}
          options={relations.map((value) => ({ value, label: t.relations[value] }))}
          // The DOM's own initial choice, so a prefilled select shows (and reports) it from the first paint.
          defaultValue={prefill?.relation ?? ''}
          error={fieldError('relation')}
          {...register('relation')}
        />
        <TextField
          label={t.phone}
          hint={t.phoneHint}
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          maxLength={11}
          error={fieldError('phone')}
          {...register('phone')}
        />
        <FormFooter busy={formState.isSubmitting} error={formError} />
      </form>
    </StepFrame>
  )
}

/** The route's page: the reference the client gave before (a return to this step) is filled in. */
export function ReferencePage({ onCompleted }: { onCompleted?: () => void }) {
  const loading = useMessages().journey.common.loading
  const stored = useRegistrationData()
  if (stored.isPending) return <p aria-busy="true">{loading}</p>
  const reference = stored.data?.contacts?.find((contact) => contact.kind === 'reference')
  return (
    <ReferenceForm
      prefill={
        reference && { fullName: reference.fullName, relation: reference.relation, phone: reference.phone }
      }
      onCompleted={onCompleted}
    />
  )
}
