import { createContext, type ReactNode, useContext } from 'react'
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

export const useApi = () => useAppServices().api
export const useShell = () => useAppServices().shell
export const useAuthActor = () => useAppServices().auth
