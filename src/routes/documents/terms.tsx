import { createFileRoute } from '@tanstack/react-router'
import { TermsPage } from '../../features/content/terms-page'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/documents/terms')({
  loader: () => loadPageTitle('documents_terms'),
  head: titleHead,
  component: TermsPage,
})
