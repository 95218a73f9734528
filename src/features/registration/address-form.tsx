/**
 * /registration/address (step address): the PSGC cascade region -> province or city -> city or municipality ->
 * barangay from the public address API, and the street; sent with PUT /complete-step-four. Choosing a level
 * clears the levels under it, so the four codes always nest (the server checks that again).
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useQuery } from '@tanstack/react-query'
import { type UseFormRegisterReturn, useForm, useWatch } from 'react-hook-form'
import type { Page } from '../../../domain/contract/define'
import { completeAddress } from '../../../domain/contract/journey'
import { listDistricts, listRegionCities, listRegions, listWards } from '../../../domain/contract/reference'
import { type Address, type AddressInput, addressSchema } from '../../../domain/journey/fields'
import type { GeoItem } from '../../../domain/reference'
import type { ApiClient } from '../../api/client'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import type { FieldErrorView } from '../../ui/forms/fields'
import { TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { FormFooter } from './form-footer'
import { useFormErrors } from './form-support'
import { ShareLocation } from './share-location'
import { StepFrame } from './step-frame'
import { useJourneyRefresh } from './use-journey-refresh'

const fields = ['regionId', 'cityId', 'districtId', 'wardId', 'street'] as const
const resolver = standardSchemaResolver(addressSchema)
/** One select shows a whole level: the largest (barangays of a city) stay well under the API's 1000. */
const all = { perPage: 1000 }

/** Where a level's options come from: a cache key and the call that lists them (one page holds a level). */
interface GeoSource {
  key: readonly string[]
  list(api: ApiClient, signal: AbortSignal): Promise<unknown>
}

/** Where each level's options come from, given the chosen parent. */
export const geoSources = {
  regionId: (): GeoSource => ({
    key: ['region'],
    list: (api, signal) => api.call(listRegions, { query: all }, { signal }),
  }),
  cityId: (regionId: string): GeoSource => ({
    key: ['city', regionId],
    list: (api, signal) => api.call(listRegionCities, { params: { id: regionId }, query: all }, { signal }),
  }),
  districtId: (cityId: string): GeoSource => ({
    key: ['district', cityId],
    list: (api, signal) => api.call(listDistricts, { query: { cityId, ...all } }, { signal }),
  }),
  wardId: (districtId: string): GeoSource => ({
    key: ['ward', districtId],
    list: (api, signal) => api.call(listWards, { query: { districtId, ...all } }, { signal }),
  }),
}

function GeoSelect({
  label,
  source,
  registration,
  error,
}: {
  label: string
  /** Null until the level above is chosen. */
  source: GeoSource | null
  registration: UseFormRegisterReturn
  error: FieldErrorView | null
}) {
  const m = useMessages().journey.common
  const api = useApi()
  const list = useQuery({
    queryKey: ['geo', ...(source?.key ?? [])],
    // The cast: defineContract widens `paginated: true` to boolean, so a list call is typed as its items.
    queryFn: async ({ signal }) => ((await source!.list(api, signal)) as Page<GeoItem>).items,
    enabled: source !== null,
    staleTime: Number.POSITIVE_INFINITY,
  })
  return (
    <div className="reg__geo">
      <SelectField
        label={label}
        placeholder={list.isFetching ? m.loading : m.choose}
        options={(list.data ?? []).map((item) => ({ value: item.id, label: item.title }))}
        disabled={source === null || list.isFetching}
        aria-busy={list.isFetching || undefined}
        error={error}
        {...registration}
      />
      {list.isError ? (
        <p className="reg__load-error" role="alert">
          {m.loadFailed}{' '}
          <button type="button" className="button button--ghost" onClick={() => void list.refetch()}>
            {m.retry}
          </button>
        </p>
      ) : null}
    </div>
  )
}

export function AddressForm({ onCompleted }: { onCompleted?: () => void }) {
  const m = useMessages()
  const t = m.journey.address
  const api = useApi()
  const refresh = useJourneyRefresh(onCompleted)
  const { register, handleSubmit, formState, setError, setValue, control } = useForm<
    AddressInput,
    unknown,
    Address
  >({
    resolver,
    mode: 'onTouched',
    defaultValues: { regionId: '', cityId: '', districtId: '', wardId: '', street: '' },
  })
  const [regionId, cityId, districtId] = useWatch({ control, name: ['regionId', 'cityId', 'districtId'] })
  const { fieldError, formError, setFormError, fail } = useFormErrors(formState.errors, fields, refresh)

  /** A level's registration that clears the levels below it when it changes. */
  const cascade = (
    name: 'regionId' | 'cityId' | 'districtId',
    below: ('cityId' | 'districtId' | 'wardId')[],
  ) => {
    const registration = register(name)
    return {
      ...registration,
      onChange: (event: { target: unknown; type?: unknown }) => {
        for (const level of below) setValue(level, '')
        return registration.onChange(event)
      },
    }
  }

  const submit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      await api.call(completeAddress, { body: values })
      refresh()
    } catch (error) {
      fail(error, setError)
    }
  })

  return (
    <StepFrame step="address" title={m.titles.registration_address} intro={t.intro}>
      <form className="reg__form" noValidate onSubmit={submit}>
        <GeoSelect
          label={t.region}
          source={geoSources.regionId()}
          registration={cascade('regionId', ['cityId', 'districtId', 'wardId'])}
          error={fieldError('regionId')}
        />
        <GeoSelect
          label={t.city}
          source={regionId ? geoSources.cityId(regionId) : null}
          registration={cascade('cityId', ['districtId', 'wardId'])}
          error={fieldError('cityId')}
        />
        <GeoSelect
          label={t.district}
          source={cityId ? geoSources.districtId(cityId) : null}
          registration={cascade('districtId', ['wardId'])}
          error={fieldError('districtId')}
        />
        <GeoSelect
          label={t.ward}
          source={districtId ? geoSources.wardId(districtId) : null}
          registration={register('wardId')}
          error={fieldError('wardId')}
        />
        <TextField
          label={t.street}
          hint={t.streetHint}
          autoComplete="address-line1"
          maxLength={50}
          error={fieldError('street')}
          {...register('street')}
        />
        <FormFooter busy={formState.isSubmitting} error={formError} />
      </form>
      <ShareLocation />
    </StepFrame>
  )
}
