import { createFileRoute } from '@tanstack/react-router'
import { DetailsPage } from '../../features/registration/details-form'

export const Route = createFileRoute('/registration/details')({
  component: DetailsPage,
})
