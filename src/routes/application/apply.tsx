/**
 * The apply form composes two features here (a feature never reaches into another): the calculator, preset
 * from the client's limits, with its create-application call, and the application screen around them.
 */
import { createFileRoute } from '@tanstack/react-router'
import { ApplyScreen } from '../../features/application/apply-screen'
import { ApplyCalculator } from '../../features/calculator/apply-calculator'
import { createApplication, newIdempotencyKey } from '../../features/calculator/submit'
import { useMessages } from '../../i18n/messages'

export const Route = createFileRoute('/application/apply')({
  component: Page,
})

function Page() {
  const m = useMessages()
  return (
    <section className="page page--narrow calculator-page" aria-labelledby="apply-title">
      <h1 id="apply-title">{m.titles.application_apply}</h1>
      <ApplyScreen Calculator={ApplyCalculator} create={createApplication} newKey={newIdempotencyKey} />
    </section>
  )
}
