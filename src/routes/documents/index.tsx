import { createFileRoute } from '@tanstack/react-router'
import { DocumentsPage } from '../../features/content/documents-page'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/documents/')({
  loader: () => loadPageTitle('documents'),
  head: titleHead,
  component: DocumentsPage,
})
