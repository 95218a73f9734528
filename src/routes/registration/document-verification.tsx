import { createFileRoute } from '@tanstack/react-router'
import { DocumentVerification } from '../../features/registration/document-verification'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/document-verification')({
  loader: () => loadPageTitle('registration_document_verification'),
  head: titleHead,
  component: DocumentVerification,
})
