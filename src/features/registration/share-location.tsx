/**
 * Optional, during the address step: the device's location (POST /private/client/geo), asked for only when
 * the client presses the button, with a just-in-time notice of why (Data Privacy Act: consent per purpose).
 * Refusing, or a browser without geolocation, changes nothing in the registration.
 */
import { useState } from 'react'
import * as v from 'valibot'
import { recordGeo } from '../../../domain/contract/journey'
import { geoSchema } from '../../../domain/journey/fields'
import { useApi } from '../../app/app-context'
import { useBrowserCapability } from '../../app/browser-capabilities'
import { useMessages } from '../../i18n/messages'

type Status = 'idle' | 'asking' | 'shared' | 'refused'

export function ShareLocation() {
  const t = useMessages().journey.address
  const api = useApi()
  const [status, setStatus] = useState<Status>('idle')
  // Whether the API exists (kept for a day); whether the client allows it is asked each time, on the button.
  const canLocate = useBrowserCapability('geolocation')
  if (!canLocate) return null

  function share() {
    setStatus('asking')
    navigator.geolocation.getCurrentPosition(
      async (position) => {
        const body = v.safeParse(geoSchema, {
          latitude: position.coords.latitude,
          longitude: position.coords.longitude,
          accuracy: position.coords.accuracy,
        })
        if (!body.success) return setStatus('refused')
        try {
          await api.call(recordGeo, { body: body.output })
          setStatus('shared')
        } catch {
          setStatus('refused')
        }
      },
      () => setStatus('refused'),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 60_000 },
    )
  }

  return (
    <aside className="callout reg-geo" aria-labelledby="geo-title">
      <p id="geo-title" className="callout__title">
        {t.geoTitle}
      </p>
      <p className="callout__body">{t.geoNotice}</p>
      <p aria-live="polite" className="reg-card__meta">
        {status === 'shared' ? t.geoShared : status === 'refused' ? t.geoRefused : ''}
      </p>
      {status === 'shared' ? null : (
        <button
          type="button"
          className="button button--secondary"
          disabled={status === 'asking'}
          aria-busy={status === 'asking'}
          onClick={share}
        >
          {t.geoShare}
        </button>
      )}
    </aside>
  )
}
