/**
 * The increase offer composes two features here (a feature never reaches into another): the calculator preset
 * from the pending increase, and the offer answer.
 */
import { createFileRoute } from '@tanstack/react-router'
import { OfferIncreaseScreen } from '../../features/application/offer-screens'
import { IncreaseCalculator } from '../../features/calculator/increase-calculator'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/offer-increase')({
  loader: () => loadPageTitle('application_offer_increase'),
  head: titleHead,
  component: Page,
})

function Page() {
  return <OfferIncreaseScreen Calculator={IncreaseCalculator} />
}
