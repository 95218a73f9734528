import { createFileRoute } from '@tanstack/react-router'
import { OfferDecreaseScreen } from '../../features/application/offer-screens'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/offer-decrease')({
  loader: () => loadPageTitle('application_offer_decrease'),
  head: titleHead,
  component: OfferDecreaseScreen,
})
