/**
 * /registration/employment (step work_info): employment type, company (only for types with an employer or a
 * business, like the schema), monthly income and expenses in whole pesos, and optionally the employer's phone (the
 * generic phone rule) and the tax id (typed through its mask), sent with PUT /complete-step-two.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { type Resolver, useForm, useWatch } from 'react-hook-form'
import * as v from 'valibot'
import { completeEmployment } from '../../../domain/contract/journey'
import {
  companyNameSchema,
  type Employment,
  type EmploymentInput,
  employmentSchema,
  employmentTypes,
  employmentTypesWithoutCompany,
  formatTaxId,
  normalizeTaxId,
  TAX_ID_MASK,
} from '../../../domain/journey/fields'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { applyMask, maskExample } from './document-number-mask'
import { FormFooter } from './form-footer'
import { useFormErrors } from './form-support'
import { present, useRegistrationData } from './registration-data'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

const fields = [
  'employmentType',
  'companyName',
  'monthlyIncome',
  'monthlyExpenses',
  'employerPhone',
  'taxId',
] as const
const schemaResolver = standardSchemaResolver(employmentSchema)
/**
 * The schema checks the company after the other fields pass (it depends on the type); the form shows that
 * error together with the others, with the same company rule.
 */
const resolver: Resolver<EmploymentInput, unknown, Employment> = async (values, context, options) => {
  const result = await schemaResolver(values, context, options)
  const errors = result.errors as Record<string, unknown>
  if (Object.keys(errors).length && !errors.companyName && hasCompany(values.employmentType)) {
    const company = v.safeParse(companyNameSchema, values.companyName ?? '')
    if (!company.success)
      return {
        values: {},
        errors: { ...result.errors, companyName: { type: 'company', message: company.issues[0].message } },
      }
  }
  return result
}

export const hasCompany = (type: string) =>
  type !== '' && !(employmentTypesWithoutCompany as readonly string[]).includes(type)

export interface EmploymentPrefill {
  employmentType?: string
  companyName?: string
  monthlyIncome?: string
  monthlyExpenses?: string
  employerPhone?: string | null
  taxId?: string | null
}

export function EmploymentForm({
  prefill,
  onCompleted,
}: {
  prefill?: EmploymentPrefill
  onCompleted?: () => void
}) {
  const m = useMessages()
  const t = m.journey.employment
  const api = useApi()
  const refresh = useJourneyRefresh(onCompleted)
  const { register, handleSubmit, formState, setError, control } = useForm<
    EmploymentInput,
    unknown,
    Employment
  >({
    resolver,
    mode: 'onTouched',
    // A company field that disappears keeps no value: the schema drops it, so the form does too.
    shouldUnregister: true,
    defaultValues: {
      employmentType: (prefill?.employmentType ?? '') as EmploymentInput['employmentType'],
      companyName: prefill?.companyName ?? '',
      monthlyIncome: prefill?.monthlyIncome ?? '',
      monthlyExpenses: prefill?.monthlyExpenses ?? '',
      employerPhone: prefill?.employerPhone ?? '',
      taxId: prefill?.taxId ? formatTaxId(prefill.taxId) : '',
    },
  })
  const type = useWatch({ control, name: 'employmentType' })
  const { fieldError, formError, setFormError, fail } = useFormErrors(formState.errors, fields, refresh)

  const submit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      // The server validates the body with the same schema, which reads pesos as typed text (its output
      // is numbers): send the schema's input, not its output.
      await api.call(completeEmployment, {
        body: {
          ...values,
          monthlyIncome: String(values.monthlyIncome),
          monthlyExpenses: String(values.monthlyExpenses),
        },
      })
      refresh()
    } catch (error) {
      fail(error, setError)
    }
  })

  const digits = { inputMode: 'numeric' as const, pattern: '[0-9]*', maxLength: 6 }
  return (
    <StepFrame step="employment" title={m.titles.registration_employment} intro={t.intro}>
      <form className="reg__form" noValidate onSubmit={submit}>
        <SelectField
          label={t.employmentType}
          placeholder={m.journey.common.choose}
          options={employmentTypes.map((value) => ({ value, label: t.types[value] }))}
          // The DOM's own initial choice, so a prefilled select shows (and reports) it from the first paint.
          defaultValue={prefill?.employmentType ?? ''}
          error={fieldError('employmentType')}
          {...register('employmentType')}
        />
        {hasCompany(type) ? (
          <TextField
            label={t.companyName}
            autoComplete="organization"
            maxLength={50}
            error={fieldError('companyName')}
            {...register('companyName')}
          />
        ) : null}
        <TextField
          label={t.monthlyIncome}
          hint={t.monthlyIncomeHint}
          {...digits}
          error={fieldError('monthlyIncome')}
          {...register('monthlyIncome')}
        />
        <TextField
          label={t.monthlyExpenses}
          hint={t.monthlyExpensesHint}
          {...digits}
          error={fieldError('monthlyExpenses')}
          {...register('monthlyExpenses')}
        />
        {hasCompany(type) ? (
          <TextField
            label={t.employerPhone}
            hint={t.employerPhoneHint}
            type="tel"
            autoComplete="off"
            maxLength={20}
            error={fieldError('employerPhone')}
            {...register('employerPhone')}
          />
        ) : null}
        <TextField
          label={t.taxId}
          hint={fmt(t.taxIdHint, { mask: maskExample(TAX_ID_MASK) })}
          inputMode="numeric"
          autoComplete="off"
          maxLength={TAX_ID_MASK.length}
          error={fieldError('taxId')}
          {...register('taxId', {
            onChange: (event) => {
              event.target.value = applyMask(TAX_ID_MASK, normalizeTaxId(event.target.value))
            },
          })}
        />
        <FormFooter busy={formState.isSubmitting} error={formError} />
      </form>
    </StepFrame>
  )
}

/** The route's page: what the client stored on this step before is filled in. */
export function EmploymentPage({ onCompleted }: { onCompleted?: () => void }) {
  const loading = useMessages().journey.common.loading
  const stored = useRegistrationData()
  if (stored.isPending) return <p aria-busy="true">{loading}</p>
  return <EmploymentForm prefill={present(stored.data?.employment)} onCompleted={onCompleted} />
}
