/**
 * /registration/details (step new_client_created): names, birth date, gender, civil status, e-mail, sent with
 * PUT /private/client. The birth date is typed MM/DD/YYYY and checked and sent as YYYY-MM-DD, against the age
 * limits the content system set (they come with the site content; the server checks the same ones, ADR 0048).
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { type Resolver, useForm } from 'react-hook-form'
import { getClient } from '../../../domain/contract/identity'
import { confirmBackOfficeDetails, saveDetails } from '../../../domain/contract/journey'
import {
  AGE_LIMITS,
  type AgeLimits,
  civilStatuses,
  type Details,
  type DetailsInput,
  genders,
  makeDetailsSchema,
} from '../../../domain/journey/fields'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { RadioGroupField, SelectField } from '../../ui/forms/select-field'
import { useSiteContent } from '../../ui/layout/site-content'
import { FormFooter } from './form-footer'
import { isoToUsDate, maskUsDate, useFormErrors, usToIsoDate } from './form-support'
import { present, useRegistrationData } from './registration-data'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

const fields = ['firstName', 'middleName', 'lastName', 'birthDate', 'gender', 'civilStatus', 'email'] as const

/** The details schema with the given age limits; it reads YYYY-MM-DD, the field shows MM/DD/YYYY. */
function detailsResolver(limits: AgeLimits): Resolver<DetailsInput, unknown, Details> {
  const schemaResolver = standardSchemaResolver(makeDetailsSchema({ minAge: limits.min, maxAge: limits.max }))
  return (values, context, options) =>
    schemaResolver({ ...values, birthDate: usToIsoDate(values.birthDate) }, context, options)
}

export interface DetailsPrefill {
  firstName?: string
  middleName?: string
  lastName?: string
  /** YYYY-MM-DD, as stored. */
  birthDate?: string
  gender?: string
  civilStatus?: string
  email?: string
}

export function DetailsForm({
  prefill,
  backOffice = false,
  ageLimits = AGE_LIMITS,
  onCompleted,
}: {
  prefill?: DetailsPrefill
  /** Staff entered these details: unchanged, they are confirmed (PUT /complete-back-office-client). */
  backOffice?: boolean
  /** The ages the content system allows (GET /public/site-content); the defaults until it answers. */
  ageLimits?: AgeLimits
  onCompleted?: () => void
}) {
  const m = useMessages()
  const t = m.journey.details
  const api = useApi()
  const refresh = useJourneyRefresh(onCompleted)
  const { min, max } = ageLimits
  const resolver = useMemo(() => detailsResolver({ min, max }), [min, max])
  const form = useForm<DetailsInput, unknown, Details>({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      firstName: prefill?.firstName ?? '',
      middleName: prefill?.middleName ?? '',
      lastName: prefill?.lastName ?? '',
      birthDate: isoToUsDate(prefill?.birthDate),
      gender: (prefill?.gender ?? '') as DetailsInput['gender'],
      civilStatus: (prefill?.civilStatus ?? '') as DetailsInput['civilStatus'],
      email: prefill?.email ?? '',
    },
  })
  const { register, handleSubmit, formState, setError } = form
  const { fieldError, formError, setFormError, fail } = useFormErrors(formState.errors, fields, refresh, {
    min,
    max,
  })
  const birthDate = register('birthDate')

  const submit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      if (backOffice && !formState.isDirty) await api.call(confirmBackOfficeDetails)
      else await api.call(saveDetails, { body: values })
      refresh()
    } catch (error) {
      fail(error, setError)
    }
  })

  return (
    <StepFrame step="details" title={m.titles.registration_details} intro={t.intro}>
      {backOffice ? (
        <div className="callout" role="note">
          <p className="callout__body">{t.backOffice}</p>
        </div>
      ) : null}
      <form className="reg__form" noValidate onSubmit={submit}>
        <TextField
          label={t.firstName}
          autoComplete="given-name"
          error={fieldError('firstName')}
          {...register('firstName')}
        />
        <TextField
          label={`${t.middleName} ${m.journey.common.optional}`}
          autoComplete="additional-name"
          error={fieldError('middleName')}
          {...register('middleName')}
        />
        <TextField
          label={t.lastName}
          autoComplete="family-name"
          error={fieldError('lastName')}
          {...register('lastName')}
        />
        <TextField
          label={t.birthDate}
          hint={t.birthDateHint}
          inputMode="numeric"
          autoComplete="bday"
          placeholder="MM/DD/YYYY"
          maxLength={10}
          error={fieldError('birthDate')}
          {...birthDate}
          onChange={(event) => {
            event.target.value = maskUsDate(event.target.value)
            return birthDate.onChange(event)
          }}
        />
        <RadioGroupField
          legend={t.gender}
          options={genders.map((value) => ({ value, label: t.genders[value] }))}
          error={fieldError('gender')}
          {...register('gender')}
        />
        <SelectField
          label={t.civilStatus}
          placeholder={m.journey.common.choose}
          options={civilStatuses.map((value) => ({ value, label: t.civilStatuses[value] }))}
          // The DOM's own initial choice, so a prefilled select shows (and reports) it from the first paint.
          defaultValue={prefill?.civilStatus ?? ''}
          error={fieldError('civilStatus')}
          {...register('civilStatus')}
        />
        <TextField
          label={t.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={fieldError('email')}
          {...register('email')}
        />
        <FormFooter busy={formState.isSubmitting} error={formError} />
      </form>
    </StepFrame>
  )
}

/**
 * The route's page: what the client already gave (the e-mail of sign-up, details stored before or entered by
 * staff) is filled in, over anything a lead link brought (`prefill`).
 */
export function DetailsPage({
  prefill,
  onCompleted,
}: {
  prefill?: DetailsPrefill
  onCompleted?: () => void
}) {
  const api = useApi()
  const { ageLimits } = useSiteContent()
  const loading = useMessages().journey.common.loading
  const client = useQuery({
    queryKey: ['client', 'current'],
    queryFn: ({ signal }) => api.call(getClient, {}, { signal }),
  })
  const stored = useRegistrationData()
  if (client.isPending || stored.isPending) return <p aria-busy="true">{loading}</p>
  const known = client.data
  const details = stored.data?.details
  const { enteredBy: _by, confirmed: _confirmed, ...fields } = present(details)
  return (
    <DetailsForm
      prefill={{
        ...prefill,
        ...fields,
        ...(known?.firstName ? { firstName: known.firstName } : {}),
        ...(known?.email ? { email: known.email } : {}),
      }}
      backOffice={details?.enteredBy === 'back_office' && !details.confirmed}
      ageLimits={ageLimits}
      onCompleted={onCompleted}
    />
  )
}
