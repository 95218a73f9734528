import { createFileRoute } from '@tanstack/react-router'
import { calculatorSubmitBeforeLoad } from '../app/application-services'
import { useLoggedIn } from '../features/auth/use-auth'
import { Calculator } from '../features/calculator/calculator'
import { useCalculatorClient } from '../features/calculator/use-calculator-client'
import { HomePage } from '../features/content/home-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/')({
  // The calculator's submit decides where its client goes next (machines/calculator-submit.machine.ts).
  beforeLoad: calculatorSubmitBeforeLoad,
  loader: () => loadPageTitle('home'),
  head: titleHead,
  component: Home,
})

function Home() {
  const client = useCalculatorClient(useLoggedIn())
  return <HomePage calculator={<Calculator client={client} extraNote />} />
}
