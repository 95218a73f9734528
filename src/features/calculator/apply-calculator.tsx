/**
 * The calculator of the apply form (/application/apply, a client-only page): compact with its Edit toggle, preset from the logged-in
 * client's limits (GET /private/client: the available amount caps the sliders), with the package-fee consent
 * and the promo code in view. No submit of its own: the apply form sends what it reports.
 */
import { Calculator, type CalculatorSelection } from './calculator'
import { useCalculatorClient } from './use-calculator-client'

export interface ApplyCalculatorProps {
  onSelection: (selection: CalculatorSelection) => void
}

export function ApplyCalculator({ onSelection }: ApplyCalculatorProps) {
  const client = useCalculatorClient(true)
  return <Calculator mode="compact" client={client} submit={false} optionsShown onSelection={onSelection} />
}
