import { createFileRoute } from '@tanstack/react-router'
import { Calculator } from '../features/calculator/calculator'
import { useCalculatorClient } from '../features/calculator/use-calculator-client'
import { HomePage } from '../features/content/home-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/')({
  loader: () => loadPageTitle('home'),
  head: titleHead,
  component: Home,
})

function Home() {
  // wired to the auth session at merge: pass the session's loggedIn instead of false.
  const client = useCalculatorClient(false)
  return <HomePage calculator={<Calculator client={client} extraNote />} />
}
