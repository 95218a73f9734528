/**
 * GET /private/client/registration: what the steps stored so far (or what staff entered for a back-office
 * client), shaped like the forms' fields, so a step is prefilled when the client comes back to it. Kept under
 * the `client` key so a completed step refreshes it.
 */
import { useQuery } from '@tanstack/react-query'
import { useApi } from '../../app/app-context'

export interface RegistrationData {
  details: {
    firstName: string | null
    middleName: string | null
    lastName: string | null
    birthDate: string | null
    gender: string | null
    civilStatus: string | null
    enteredBy: 'client' | 'back_office' | string
    confirmed: boolean
  } | null
  employment: {
    employmentType: string
    companyName: string | null
    monthlyIncome: string | null
    monthlyExpenses: string | null
  } | null
  contacts?: { id: number; kind: string; fullName: string; relation: string; phone: string }[]
}

export const registrationDataKey = ['client', 'registration'] as const

export function useRegistrationData() {
  const api = useApi()
  return useQuery({
    queryKey: registrationDataKey,
    queryFn: ({ signal }) => api.get<RegistrationData>('/private/client/registration', { signal }),
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
