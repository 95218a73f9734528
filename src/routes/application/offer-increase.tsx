/**
 * The increase offer composes two features here (a feature never reaches into another): the calculator,
 * preset from the pending increase (spec section 4, Calculator), and the offer answer.
 */
import { createFileRoute } from '@tanstack/react-router'
import { useMemo } from 'react'
import { type IncreaseCalculatorProps, OfferIncreaseScreen } from '../../features/application/offer-screens'
import { Calculator } from '../../features/calculator/calculator'
import { useCalculatorClient } from '../../features/calculator/use-calculator-client'

export const Route = createFileRoute('/application/offer-increase')({
  component: Page,
})

function IncreaseCalculator({ increaseOffer, onSelection }: IncreaseCalculatorProps) {
  const client = useCalculatorClient(true)
  // The offered amount is the most the client may take: the calculator's max and its preset.
  const preset = useMemo(
    () => ({ ...client, availableAmount: increaseOffer.amount, increaseOffer }),
    [client, increaseOffer],
  )
  return <Calculator client={preset} submit={false} onSelection={onSelection} />
}

function Page() {
  return <OfferIncreaseScreen Calculator={IncreaseCalculator} />
}
