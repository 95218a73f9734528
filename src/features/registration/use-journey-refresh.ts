/**
 * After a completing call the page does not decide where to go (ADR 0011): it tells the journey actor to fetch
 * the flow now and drops the cached client data; the router's `beforeLoad` then moves the client.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useAppServices } from '../../app/app-context'

/**
 * The journey actor is added to the app services by the lead at merge (`services.journey.actor`). Until then
 * it is read loosely so this compiles either way; with no actor only the queries are refreshed.
 */
interface MaybeJourneyServices {
  journey?: { actor?: { send(event: { type: 'FLOW.REFRESH' }): void } }
  auth?: { send(event: { type: 'USER.RELOAD' }): void }
}

export function useJourneyRefresh(onCompleted?: () => void) {
  const services = useAppServices() as unknown as MaybeJourneyServices
  const queryClient = useQueryClient()
  return useCallback(() => {
    services.journey?.actor?.send({ type: 'FLOW.REFRESH' })
    // The journey guards read the session's user (first name, status): after the details step the first name
    // is new, and until the session reloads it the registration guard keeps the client on details.
    services.auth?.send({ type: 'USER.RELOAD' })
    // The client's own data (first name, phone, ...) may have changed with the step; the step's own screen
    // data (sessions, payout lists) is kept, since the answer that completed the step already holds it.
    void queryClient.invalidateQueries({ queryKey: ['client'] })
    onCompleted?.()
  }, [services, queryClient, onCompleted])
}
