import { createFileRoute } from '@tanstack/react-router'
import { EmploymentPage } from '../../features/registration/employment-form'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/employment')({
  loader: () => loadPageTitle('registration_employment'),
  head: titleHead,
  component: EmploymentPage,
})
