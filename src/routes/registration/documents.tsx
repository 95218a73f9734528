import { createFileRoute } from '@tanstack/react-router'
import { DocumentsForm } from '../../features/registration/documents-form'

export const Route = createFileRoute('/registration/documents')({
  component: DocumentsForm,
})
