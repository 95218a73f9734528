/** The queries the application screens share, keyed once (applicationQueryKeys). */
import { useQuery } from '@tanstack/react-query'
import { useApi } from '../../app/app-context'
import { applicationQueryKeys, getActualApplication, getActualOffer } from './application-api'

export function useActualApplication() {
  const api = useApi()
  return useQuery({
    queryKey: applicationQueryKeys.actual,
    queryFn: ({ signal }) => getActualApplication(api, signal),
    staleTime: 0,
  })
}

export function useActualOffer(applicationId: number | undefined) {
  const api = useApi()
  return useQuery({
    queryKey: applicationQueryKeys.offer(applicationId ?? 0),
    queryFn: ({ signal }) => getActualOffer(api, applicationId as number, signal),
    enabled: applicationId !== undefined,
    staleTime: 0,
  })
}
