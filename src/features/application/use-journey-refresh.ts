/**
 * Pages never decide the journey (issue 5, tests/features/journey-pages-do-not-navigate.test.ts): when an
 * answer changes the application, they ask the journey actor to refetch the flow now, and the route guards
 * move the client. Typed loosely: the journey joins the app services when the lead wires it in; until then
 * the call is a no-op and the 10-second poll catches up.
 */
import { useCallback } from 'react'
import { useAppServices } from '../../app/app-context'

interface JourneyRefreshTarget {
  journey?: { actor: { send: (event: { type: 'FLOW.REFRESH' }) => void } } | null
}

export function useJourneyRefresh(): () => void {
  const services = useAppServices() as unknown as JourneyRefreshTarget
  return useCallback(() => {
    services.journey?.actor.send({ type: 'FLOW.REFRESH' })
  }, [services])
}
