import { createFileRoute } from '@tanstack/react-router'
import { ReferenceForm } from '../../features/registration/reference-form'

export const Route = createFileRoute('/registration/reference')({
  component: ReferenceForm,
})
