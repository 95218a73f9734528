/**
 * After a completing call the page does not decide where to go (ADR 0011): it tells the journey to fetch the
 * flow now, reloads the session's user and drops the cached client data; the router's `beforeLoad` then moves
 * the client.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useAuthActor, useJourneyRefresh as useFlowRefresh } from '../../app/app-context'

export function useJourneyRefresh(onCompleted?: () => void) {
  const refreshFlow = useFlowRefresh()
  const auth = useAuthActor()
  const queryClient = useQueryClient()
  return useCallback(() => {
    refreshFlow()
    // The journey guards read the session's user (first name, status): after the details step the first name
    // is new, and until the session reloads it the registration guard keeps the client on details.
    auth.send({ type: 'USER.RELOAD' })
    // The client's own data (first name, phone, ...) may have changed with the step; the step's own screen
    // data (sessions, payout lists) is kept, since the answer that completed the step already holds it.
    void queryClient.invalidateQueries({ queryKey: ['client'] })
    onCompleted?.()
  }, [refreshFlow, auth, queryClient, onCompleted])
}
