/**
 * GET /private/client/registration: what the steps stored so far (or what staff entered for a back-office
 * client), shaped like the forms' fields, so a step is prefilled when the client comes back to it. Kept under
 * the `client` key so a completed step refreshes it.
 */
import { useQuery } from '@tanstack/react-query'
import { getRegistration } from '../../../domain/contract/journey'
import { useApi } from '../../app/app-context'

export const registrationDataKey = ['client', 'registration'] as const

export function useRegistrationData() {
  const api = useApi()
  return useQuery({
    queryKey: registrationDataKey,
    queryFn: ({ signal }) => api.call(getRegistration, {}, { signal }),
  })
}

/** Drops nulls so a stored value only fills a field it has. */
export function present<T extends Record<string, unknown>>(values: T | null | undefined) {
  return Object.fromEntries(
    Object.entries(values ?? {}).filter(([, v]) => v !== null && v !== undefined),
  ) as {
    [K in keyof T]?: NonNullable<T[K]>
  }
}
