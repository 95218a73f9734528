import { createFileRoute } from '@tanstack/react-router'
import { DocumentVerification } from '../../features/registration/document-verification'

export const Route = createFileRoute('/registration/document-verification')({
  component: DocumentVerification,
})
