import { createFileRoute } from '@tanstack/react-router'
import { ReferencePage } from '../../features/registration/reference-form'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/reference')({
  loader: () => loadPageTitle('registration_reference'),
  head: titleHead,
  component: ReferencePage,
})
