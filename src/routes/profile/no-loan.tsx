import { createFileRoute } from '@tanstack/react-router'
import { Calculator } from '../../features/calculator/calculator'
import { useCalculatorClient } from '../../features/calculator/use-calculator-client'
import { useMessages } from '../../i18n/messages'

export const Route = createFileRoute('/profile/no-loan')({
  component: Page,
})

function Page() {
  const m = useMessages()
  // wired to the auth session at merge: pass the session's loggedIn instead of false.
  const client = useCalculatorClient(false)
  return (
    <section className="page page--narrow calculator-page" aria-labelledby="no-loan-title">
      <h1 id="no-loan-title">{m.titles.profile_no_loan}</h1>
      <Calculator client={client} extraNote />
    </section>
  )
}
