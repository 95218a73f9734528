import { createFileRoute } from '@tanstack/react-router'
import { ApplicationLoading } from '../../features/application/application-loading'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/loading')({
  loader: () => loadPageTitle('application_loading'),
  head: titleHead,
  component: ApplicationLoading,
})
