/**
 * The calculator for a pending increase offer (spec section 4, Calculator; section 5: for an increase offer
 * the min is the application's principal): preset to the offered amount and the application's term, capped
 * at the offered amount, no submit of its own. The page that shows it decides what the choice is for.
 */
import { useMemo } from 'react'
import type { IncreaseOfferFacts } from '../../../domain/calculator-rules'
import { Calculator } from './calculator'
import { useCalculatorClient } from './use-calculator-client'

export interface IncreaseCalculatorProps {
  increaseOffer: IncreaseOfferFacts
  /** The application's package-fee consent: the calculator's checkbox starts there. */
  feeConsent: boolean
  onSelection: (choice: { amount: number; term: number; optionalFee: boolean }) => void
}

export function IncreaseCalculator({ increaseOffer, feeConsent, onSelection }: IncreaseCalculatorProps) {
  const client = useCalculatorClient(true)
  // The offered amount is the most the client may take: the calculator's max and its preset.
  const preset = useMemo(
    () => ({ ...client, availableAmount: increaseOffer.amount, increaseOffer }),
    [client, increaseOffer],
  )
  return <Calculator client={preset} submit={false} initialFee={feeConsent} onSelection={onSelection} />
}
