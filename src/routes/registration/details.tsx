import { createFileRoute } from '@tanstack/react-router'
import { useLeadPrefill } from '../../features/affiliate/use-lead-prefill'
import { DetailsPage } from '../../features/registration/details-form'
import { useMessages } from '../../i18n/messages'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/details')({
  loader: () => loadPageTitle('registration_details'),
  head: titleHead,
  component: Page,
})

/**
 * The affiliate lead's data (docs/decisions/0014) under what the client already gave: DetailsPage lets stored
 * details and the sign-up e-mail win. The form takes its values once, so it waits for the lead (a failed
 * lookup is simply no prefill).
 */
function Page() {
  const { prefill, isLoading } = useLeadPrefill()
  const loading = useMessages().journey.common.loading
  if (isLoading) return <p aria-busy="true">{loading}</p>
  return (
    <DetailsPage
      prefill={
        prefill
          ? {
              firstName: prefill.firstName,
              middleName: prefill.middleName,
              lastName: prefill.lastName,
              birthDate: prefill.birthDateIso,
              gender: prefill.gender,
              civilStatus: prefill.civilStatus,
              email: prefill.email,
            }
          : undefined
      }
    />
  )
}
