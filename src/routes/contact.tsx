import { createFileRoute } from '@tanstack/react-router'
import { ContactPage } from '../features/content/contact-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/contact')({
  loader: () => loadPageTitle('contact'),
  head: titleHead,
  component: ContactPage,
})
