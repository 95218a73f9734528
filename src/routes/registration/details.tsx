import { createFileRoute } from '@tanstack/react-router'
import { DetailsPage } from '../../features/registration/details-form'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/details')({
  loader: () => loadPageTitle('registration_details'),
  head: titleHead,
  component: DetailsPage,
})
