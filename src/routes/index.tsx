import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../features/content/home-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/')({
  loader: () => loadPageTitle('home'),
  head: titleHead,
  component: Home,
})

function Home() {
  return <HomePage />
}
