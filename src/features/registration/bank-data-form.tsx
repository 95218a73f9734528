/**
 * /registration/bank-data (step kontomatik, path chosen in ADR 0011): link a bank through the Kontomatik-style
 * provider (POST /kontomatik/import with the bank and the online-banking credentials, never stored), or
 * continue without it (POST /kontomatik/skip): linking is optional. Refused logins are counted by the server;
 * after its limit only skipping is left.
 *
 * Sandbox: the sandbox provider's banks have `sandbox-` codes; only then does the screen explain the test data.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import {
  type BankDataState,
  getBankData,
  importBankData,
  skipBankData,
} from '../../../domain/contract/verification'
import { type BankDataImport, bankDataImportSchema } from '../../../domain/journey/bank-data'
import { ApiError } from '../../api/client'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { FormFooter } from './form-footer'
import { isStepMismatch, useFormErrors } from './form-support'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

const fields = ['bank', 'login', 'password'] as const
const resolver = standardSchemaResolver(bankDataImportSchema)
export const bankDataKey = ['journey', 'kontomatik'] as const

export const isSandboxBankList = (state: BankDataState | undefined) =>
  !!state?.banks.length && state.banks.every((bank) => bank.code.startsWith('sandbox-'))

export function BankDataForm({ onCompleted }: { onCompleted?: () => void }) {
  const m = useMessages()
  const t = m.journey.bankData
  const api = useApi()
  const queryClient = useQueryClient()
  const refresh = useJourneyRefresh(onCompleted)
  const state = useQuery({
    queryKey: bankDataKey,
    queryFn: ({ signal }) => api.call(getBankData, {}, { signal }),
  })
  const { register, handleSubmit, formState, setError, resetField } = useForm<BankDataImport>({
    resolver,
    mode: 'onTouched',
    defaultValues: { bank: '', login: '', password: '' },
  })
  const { fieldError, formError, setFormError, fail, text } = useFormErrors(formState.errors, fields, refresh)
  const data = state.data
  const locked = !!data && data.failedLogins >= data.maxFailedLogins

  const submit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      // quiet: the bank being down is a 503 (ServiceTemporarilyUnavailable) this screen explains itself, not
      // the full-page server failure every other 500+ shows.
      await api.call(importBankData, { body: values }, { quiet: true })
      refresh()
    } catch (error) {
      // A refused password is worth another try: clear it, count it, and say so on the field.
      resetField('password')
      void queryClient.invalidateQueries({ queryKey: bankDataKey })
      if (error instanceof ApiError && !error.violations.length && !isStepMismatch(error))
        setFormError(text(error.code))
      else fail(error, setError)
    }
  })

  const skip = useMutation({
    mutationFn: () => api.call(skipBankData),
    onMutate: () => setFormError(null),
    onSuccess: () => refresh(),
    onError: (error) => {
      if (isStepMismatch(error)) refresh()
      setFormError(text(error instanceof ApiError ? error.code : 'generic'))
    },
  })

  return (
    <StepFrame step="bankData" title={m.titles.registration_bank_data} intro={t.intro}>
      {state.isPending ? <p aria-busy="true">{m.journey.common.loading}</p> : null}
      {isSandboxBankList(data) ? (
        <aside className="callout" aria-labelledby="bank-sandbox-title">
          <p id="bank-sandbox-title" className="callout__title">
            {t.sandboxTitle}
          </p>
          <p className="callout__body">{t.sandboxBody}</p>
        </aside>
      ) : null}
      {data?.bank ? (
        <div className="callout callout--success" role="status">
          <p className="callout__body">
            {fmt(t.linked, { bank: data.banks.find((b) => b.code === data.bank)?.name ?? data.bank })}
          </p>
        </div>
      ) : null}
      {data && data.failedLogins > 0 ? (
        <p className="field__hint" data-failed-logins={data.failedLogins}>
          {fmt(t.failedLogins, { count: data.failedLogins, max: data.maxFailedLogins })}
        </p>
      ) : null}
      {locked ? <FormError error={text('tooManyAttempts')} /> : null}

      {data && !locked ? (
        <form className="reg__form" noValidate onSubmit={submit}>
          <SelectField
            label={t.bank}
            placeholder={m.journey.common.choose}
            options={data.banks.map((bank) => ({ value: bank.code, label: bank.name }))}
            error={fieldError('bank')}
            {...register('bank')}
          />
          <TextField
            label={t.login}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={128}
            error={fieldError('login')}
            {...register('login')}
          />
          <TextField
            label={t.password}
            type="password"
            autoComplete="off"
            maxLength={128}
            error={fieldError('password')}
            {...register('password')}
          />
          <FormFooter busy={formState.isSubmitting} error={formError} label={t.link} busyLabel={t.linking} />
        </form>
      ) : (
        <FormError error={formError} />
      )}
      {data ? (
        <div className="reg-actions">
          <button
            type="button"
            className="button button--ghost"
            disabled={skip.isPending || formState.isSubmitting}
            aria-busy={skip.isPending}
            onClick={() => skip.mutate()}
          >
            {skip.isPending ? t.skipping : t.skip}
          </button>
        </div>
      ) : null}
    </StepFrame>
  )
}
