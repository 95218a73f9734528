/**
 * The device-data consent on the profile (RA 10173: a consent can be withdrawn as easily as it was given;
 * docs/decisions/0042): the current answer and the button that changes it. Withdrawing stops the tracking at
 * once: the layout's client extras read the same query and stop the tracker when it is no longer granted.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId } from 'react'
import { answerDeviceDataConsent, getDeviceDataConsent } from '../../../domain/contract/tracking'
import { DEVICE_DATA_CONSENT_VERSION } from '../../../domain/tracking'
import { useApi } from '../../app/app-context'
import { DEVICE_CONSENT_QUERY } from '../../app/tracking/signals'
import { useMessages } from '../../i18n/messages'

export function DeviceDataSetting({ clientId }: { clientId: string }) {
  const t = useMessages().tracking.setting
  const api = useApi()
  const queryClient = useQueryClient()
  const titleId = useId()
  const key = [...DEVICE_CONSENT_QUERY, clientId]
  const consent = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.call(getDeviceDataConsent, {}, { signal, quiet: true }),
    staleTime: Number.POSITIVE_INFINITY,
  })
  const answer = useMutation({
    mutationFn: (granted: boolean) =>
      api.call(answerDeviceDataConsent, { body: { granted, version: DEVICE_DATA_CONSENT_VERSION } }),
    onSuccess: (data) => queryClient.setQueryData(key, data),
  })
  if (!consent.data) return null
  const granted = consent.data.granted === true && consent.data.version === consent.data.currentVersion
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId}>{t.title}</h2>
      <p>{granted ? t.granted : t.notGranted}</p>
      <button
        type="button"
        className="button button--secondary"
        disabled={answer.isPending}
        onClick={() => answer.mutate(!granted)}
      >
        {granted ? t.withdraw : t.grant}
      </button>
      <p role="status">{answer.isError ? t.failed : ''}</p>
    </section>
  )
}
