import { createFileRoute } from '@tanstack/react-router'
import { DetailsForm } from '../../features/registration/details-form'

export const Route = createFileRoute('/registration/details')({
  component: DetailsForm,
})
