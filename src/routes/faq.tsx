import { createFileRoute } from '@tanstack/react-router'
import { FaqPage } from '../features/content/faq-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/faq')({
  loader: () => loadPageTitle('faq'),
  head: titleHead,
  component: FaqPage,
})
