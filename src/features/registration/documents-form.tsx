/**
 * /registration/documents (step document_upload): the identity document type, its number with the type's
 * mask, the expiry date where the card has one (MM/DD/YYYY shown, YYYY-MM-DD sent), photos of the front and
 * back (the front is required by the server), then POST /id-document/finish. The upload limits (image age,
 * attempts, size) come from GET /flow/document-upload-config.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { type Resolver, useForm, useWatch } from 'react-hook-form'
import { getDocumentUploadConfig } from '../../../domain/contract/journey'
import { finishIdDocument } from '../../../domain/contract/uploads'
import {
  documentNumberRules,
  type IdentityDocument,
  type IdentityDocumentInput,
  identityDocumentSchema,
  identityDocumentTypeCodes,
  typesWithExpiry,
} from '../../../domain/journey/fields'
import { defaultDocumentUploadConfig } from '../../../domain/journey/uploads'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { isServerFailure } from '../../ui/forms/violations'
import { applyMask, maskExample } from './document-number-mask'
import { FormFooter } from './form-footer'
import { maskUsDate, useFormErrors, usToIsoDate } from './form-support'
import { type PhotoState, PhotoUpload } from './photo-upload'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

const fields = ['documentType', 'documentNumber', 'expiryDate'] as const
export const uploadConfigKey = ['journey', 'document-upload-config'] as const

const schemaResolver = standardSchemaResolver(identityDocumentSchema)
const resolver: Resolver<IdentityDocumentInput, unknown, IdentityDocument> = (values, context, options) =>
  schemaResolver(
    { ...values, expiryDate: values.expiryDate ? usToIsoDate(values.expiryDate) : values.expiryDate },
    context,
    options,
  )

type Side = 'front' | 'back'
const sides: Side[] = ['front', 'back']
const noPhoto: PhotoState = { uploaded: false, preview: null }

export function DocumentsForm({ onCompleted }: { onCompleted?: () => void }) {
  const m = useMessages()
  const t = m.journey.documents
  const api = useApi()
  const queryClient = useQueryClient()
  const refresh = useJourneyRefresh(onCompleted)
  const configQuery = useQuery({
    queryKey: uploadConfigKey,
    queryFn: ({ signal }) => api.call(getDocumentUploadConfig, {}, { signal }),
  })
  const config = configQuery.data ?? { ...defaultDocumentUploadConfig, attempt: 1 }
  const attemptsLeft = config.maxAttempts === 0 || config.attempt <= config.maxAttempts
  const [photos, setPhotos] = useState<Record<Side, PhotoState>>({ front: noPhoto, back: noPhoto })
  const [photoErrors, setPhotoErrors] = useState<Record<Side, FieldErrorView | null>>({
    front: null,
    back: null,
  })

  const { register, handleSubmit, formState, setError, control, setValue } = useForm<
    IdentityDocumentInput,
    unknown,
    IdentityDocument
  >({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      documentType: '' as IdentityDocumentInput['documentType'],
      documentNumber: '',
      expiryDate: '',
    },
  })
  const type = useWatch({ control, name: 'documentType' })
  const rule = type ? documentNumberRules[type] : null
  const { fieldError, formError, setFormError, fail, text } = useFormErrors(formState.errors, fields, refresh)
  const number = register('documentNumber')
  const expiry = register('expiryDate')

  const submit = handleSubmit(async (values) => {
    setFormError(null)
    if (!photos.front.uploaded) {
      setPhotoErrors((all) => ({ ...all, front: text('error-required') }))
      return
    }
    try {
      await api.call(finishIdDocument, { body: values })
      refresh()
    } catch (error) {
      // The server answers a missing photo on the side's name; the rest land on the fields.
      const side = isServerFailure(error)
        ? error.violations.find((v) => v.propertyPath === 'front' || v.propertyPath === 'back')
        : undefined
      if (side) setPhotoErrors((all) => ({ ...all, [side.propertyPath]: text(side.message) }))
      else fail(error, setError)
    }
  })

  return (
    <StepFrame step="documents" title={m.titles.registration_documents} intro={t.intro}>
      <form className="reg__form" noValidate onSubmit={submit}>
        <SelectField
          label={t.documentType}
          placeholder={m.journey.common.choose}
          options={identityDocumentTypeCodes.map((value) => ({ value, label: t.types[value] }))}
          error={fieldError('documentType')}
          {...register('documentType', {
            onChange: () => {
              setValue('documentNumber', '')
              setValue('expiryDate', '')
            },
          })}
        />
        <TextField
          label={t.documentNumber}
          hint={rule ? fmt(t.numberHint, { mask: maskExample(rule.mask) }) : undefined}
          autoComplete="off"
          autoCapitalize="characters"
          inputMode={rule && !rule.mask.includes('a') ? 'numeric' : 'text'}
          maxLength={rule ? rule.mask.length : 32}
          disabled={!type}
          error={fieldError('documentNumber')}
          {...number}
          onChange={(event) => {
            if (rule) event.target.value = applyMask(rule.mask, event.target.value)
            return number.onChange(event)
          }}
        />
        {type && typesWithExpiry.includes(type) ? (
          <TextField
            label={t.expiryDate}
            hint={t.expiryHint}
            inputMode="numeric"
            placeholder="MM/DD/YYYY"
            maxLength={10}
            error={fieldError('expiryDate')}
            {...expiry}
            onChange={(event) => {
              event.target.value = maskUsDate(event.target.value)
              return expiry.onChange(event)
            }}
          />
        ) : null}

        <h2 className="reg-section-title">{t.photos}</h2>
        <p className="field__hint">{t.photosHint}</p>
        {config.maxImageAge > 0 ? (
          <p className="field__hint">{fmt(t.photosAgeHint, { seconds: config.maxImageAge })}</p>
        ) : null}
        {config.maxAttempts > 0 ? (
          <p className="field__hint" aria-live="polite">
            {fmt(t.attempts, {
              attempt: Math.min(config.attempt, config.maxAttempts),
              max: config.maxAttempts,
            })}
          </p>
        ) : null}
        <div className="reg-list">
          {sides.map((side) => (
            <PhotoUpload
              key={side}
              side={side}
              config={config}
              state={photos[side]}
              disabled={!attemptsLeft}
              error={photoErrors[side] ?? (attemptsLeft ? null : text('uploadMetric'))}
              onError={(error) => setPhotoErrors((all) => ({ ...all, [side]: error }))}
              onChange={(state) => {
                setPhotos((all) => ({ ...all, [side]: state }))
                void queryClient.invalidateQueries({ queryKey: uploadConfigKey })
              }}
            />
          ))}
        </div>
        <FormFooter busy={formState.isSubmitting} error={formError} />
      </form>
    </StepFrame>
  )
}
