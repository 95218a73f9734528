import { createFileRoute } from '@tanstack/react-router'
import { calculatorSubmitBeforeLoad } from '../../app/application-services'
import { useLoggedIn } from '../../features/auth/use-auth'
import { Calculator } from '../../features/calculator/calculator'
import { LimitNote } from '../../features/calculator/limit-note'
import { useCalculatorClient } from '../../features/calculator/use-calculator-client'
import { useMessages } from '../../i18n/messages'

export const Route = createFileRoute('/profile/no-loan')({
  beforeLoad: calculatorSubmitBeforeLoad,
  component: Page,
})

function Page() {
  const m = useMessages()
  const loggedIn = useLoggedIn()
  const client = useCalculatorClient(loggedIn)
  return (
    <section className="page page--narrow calculator-page" aria-labelledby="no-loan-title">
      <h1 id="no-loan-title">{m.titles.profile_no_loan}</h1>
      <LimitNote loggedIn={loggedIn} />
      <Calculator client={client} extraNote />
    </section>
  )
}
