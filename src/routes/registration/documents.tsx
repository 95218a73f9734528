import { createFileRoute } from '@tanstack/react-router'
import { DocumentsForm } from '../../features/registration/documents-form'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/documents')({
  loader: () => loadPageTitle('registration_documents'),
  head: titleHead,
  component: DocumentsForm,
})
