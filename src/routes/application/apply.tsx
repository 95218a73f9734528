import { createFileRoute } from '@tanstack/react-router'
import { Calculator } from '../../features/calculator/calculator'
import { useCalculatorClient } from '../../features/calculator/use-calculator-client'
import { useMessages } from '../../i18n/messages'

export const Route = createFileRoute('/application/apply')({
  component: Page,
})

function Page() {
  const m = useMessages()
  // wired to the auth session at merge: pass the session's loggedIn instead of false.
  const client = useCalculatorClient(false)
  return (
    <section className="page page--narrow calculator-page" aria-labelledby="apply-title">
      <h1 id="apply-title">{m.titles.application_apply}</h1>
      {/* Compact: the amount and term chosen earlier, editable; the application form below submits them. */}
      <Calculator mode="compact" client={client} submit={false} />
      <div className="coming-soon">
        <p className="coming-soon__badge">{m.comingSoon.title}</p>
        <p>{m.comingSoon.body}</p>
      </div>
    </section>
  )
}
