/**
 * The increase offer composes two features here (a feature never reaches into another): the calculator preset
 * from the pending increase, and the offer answer.
 */
import { createFileRoute } from '@tanstack/react-router'
import { OfferIncreaseScreen } from '../../features/application/offer-screens'
import { IncreaseCalculator } from '../../features/calculator/increase-calculator'

export const Route = createFileRoute('/application/offer-increase')({
  component: Page,
})

function Page() {
  return <OfferIncreaseScreen Calculator={IncreaseCalculator} />
}
