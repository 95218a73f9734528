import { createFileRoute } from '@tanstack/react-router'
import {
  forgetLead,
  leadLinkNotFound,
  rememberLead,
  validateLeadLinkSearch,
} from '../../features/affiliate/lead-link'
import { useLead } from '../../features/affiliate/use-lead-prefill'
import { RegistrationPage } from '../../features/auth/registration-page'

/**
 * /registration, and the lead link `/registration?lead_id=<uuid>&redirected-from-affiliates=true`
 * (docs/decisions/0014): a bad lead link is the 404 page; a good one is remembered in the leadId cookie and its
 * lead prefills the sign-up.
 */
export const Route = createFileRoute('/registration/')({
  validateSearch: validateLeadLinkSearch,
  onError: leadLinkNotFound,
  beforeLoad: ({ search, preload }) => {
    if (!preload && search.lead_id) rememberLead(search.lead_id)
  },
  component: Page,
})

function Page() {
  const { lead, leadId } = useLead()
  return (
    <RegistrationPage
      lead={{ leadId, phone: lead?.phone ?? undefined, email: lead?.email ?? undefined }}
      onSignedUp={forgetLead}
    />
  )
}
