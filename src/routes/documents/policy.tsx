import { createFileRoute } from '@tanstack/react-router'
import { PolicyPage } from '../../features/content/policy-page'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/documents/policy')({
  loader: () => loadPageTitle('documents_policy'),
  head: titleHead,
  component: PolicyPage,
})
