import { createContext, type ReactNode, useCallback, useContext } from 'react'
import type { AppServices } from './services'

const AppContext = createContext<AppServices | null>(null)

export function AppServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppContext.Provider value={services}>{children}</AppContext.Provider>
}

export function useAppServices(): AppServices {
  const services = useContext(AppContext)
  if (!services) throw new Error('useAppServices() outside <AppServicesProvider>')
  return services
}

/** Whether this page was rendered by the server for the session (ADR 0052): false outside the app's provider. */
export const useSessionPage = () => useContext(AppContext)?.sessionPage ?? false

export const useApi = () => useAppServices().api
export const useShell = () => useAppServices().shell
export const useAuthActor = () => useAppServices().auth

/**
 * Pages never decide the journey (ADR 0011, tests/features/journey-pages-do-not-navigate.test.ts): after a call
 * that may move it, a page asks the journey to fetch the flow now, and the route guards move the client.
 */
export function useJourneyRefresh(): () => void {
  const { journey } = useAppServices()
  return useCallback(() => journey.actor.send({ type: 'FLOW.REFRESH' }), [journey])
}
