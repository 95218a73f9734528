import { createFileRoute } from '@tanstack/react-router'
import { OfferDecreaseScreen } from '../../features/application/offer-screens'

export const Route = createFileRoute('/application/offer-decrease')({
  component: OfferDecreaseScreen,
})
