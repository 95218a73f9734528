/**
 * What a logged-in client's pages do besides the page itself, loaded after the page (src/ui/layout/layout.tsx
 * imports this lazily, so none of it weighs on the home route):
 * - the daily limit refresh (PUT /private/client/yhat/limit, once per 12-hour marker; spec sections 7 and 9);
 * - the device-data consent (RA 10173: a purpose of its own, asked just in time, recorded with its version), and,
 *   only once it is given, the behavioural tracking and the fraud signals (docs/decisions/0042).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { useEffect, useId, useRef } from 'react'
import { answerDeviceDataConsent, getDeviceDataConsent } from '../../../domain/contract/tracking'
import { DEVICE_DATA_CONSENT_VERSION, type DeviceDataConsent } from '../../../domain/tracking'
import { type AuthSnapshot, isLoggedIn } from '../../../machines/auth.machine'
import { useAppServices } from '../../app/app-context'
import { refreshDailyLimit } from '../../app/daily-limit'
import { startClientTracking } from '../../app/tracking/client-boot'
import { DEVICE_CONSENT_QUERY } from '../../app/tracking/signals'
import { deviceId } from '../../features/auth/device'
import { useMessages } from '../../i18n/messages'
import { useFootPanel } from './foot-panel'

/** The logged-in client's id, or null (nobody, a back-office user, a single-link session). */
const clientOf = (snapshot: AuthSnapshot) =>
  isLoggedIn(snapshot) && snapshot.context.claims?.type === 'client' && !snapshot.context.claims.sl
    ? snapshot.context.claims.sub
    : null

const consentKey = (clientId: string | null) => [...DEVICE_CONSENT_QUERY, clientId]

const answered = (consent: DeviceDataConsent | undefined) =>
  consent !== undefined && consent.granted !== null && consent.version === consent.currentVersion

export function ClientExtras() {
  const { api, auth } = useAppServices()
  const queryClient = useQueryClient()
  const clientId = useSelector(auth, clientOf)

  useEffect(() => {
    if (clientId) void refreshDailyLimit(api, () => auth.send({ type: 'USER.RELOAD' }))
  }, [api, auth, clientId])

  const consent = useQuery({
    queryKey: consentKey(clientId),
    queryFn: ({ signal }) => api.call(getDeviceDataConsent, {}, { signal, quiet: true }),
    enabled: clientId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const granted = consent.data?.granted === true && consent.data.version === consent.data.currentVersion

  useEffect(() => {
    if (!clientId || !granted) return
    return startClientTracking({
      api,
      getToken: () => auth.getSnapshot().context.token ?? null,
      deviceId,
    })
  }, [api, auth, clientId, granted])

  const answer = useMutation({
    mutationFn: (yes: boolean) =>
      api.call(answerDeviceDataConsent, { body: { granted: yes, version: DEVICE_DATA_CONSENT_VERSION } }),
    onSuccess: (data) => queryClient.setQueryData(consentKey(clientId), data),
  })

  if (!clientId || !consent.data || answered(consent.data)) return null
  return (
    <ConsentNotice onAnswer={(yes) => answer.mutate(yes)} saving={answer.isPending} failed={answer.isError} />
  )
}

function ConsentNotice({
  onAnswer,
  saving,
  failed,
}: {
  onAnswer: (granted: boolean) => void
  saving: boolean
  failed: boolean
}) {
  const t = useMessages().tracking.consent
  const titleId = useId()
  // At the foot of the screen: it appears once the client's consent is known, after the page has painted, and in
  // the flow above the page it pushed everything down (Lighthouse counted a layout shift of 0.9 to 1.2).
  const panel = useRef<HTMLElement>(null)
  useFootPanel(panel, true, { openClass: 'consent-notice-open', heightVariable: '--consent-notice-height' })
  return (
    <section ref={panel} className="consent-notice" aria-labelledby={titleId}>
      <div className="consent-notice__inner">
        <h2 id={titleId} className="consent-notice__title">
          {t.title}
        </h2>
        {/* A layered notice: the purpose shows, what is collected and the policy are one step away under
            "What we collect and why" (the consent stays specific and informed, RA 10173; the text and its
            version are unchanged). At the foot of a 360 px screen the whole text covered most of the page. */}
        <p>{t.summary}</p>
        <details className="consent-notice__details">
          <summary>{t.more}</summary>
          <p>{t.text}</p>
          <p>
            <Link to="/documents/policy" hash="policy-3">
              {t.policyLink}
            </Link>
          </p>
        </details>
        <div className="consent-notice__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={saving}
            onClick={() => onAnswer(true)}
          >
            {t.allow}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={saving}
            onClick={() => onAnswer(false)}
          >
            {t.decline}
          </button>
        </div>
        <p role="status" className="consent-notice__status">
          {saving ? t.saving : failed ? t.failed : ''}
        </p>
      </div>
    </section>
  )
}
