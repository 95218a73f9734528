import { createFileRoute } from '@tanstack/react-router'
import { ApplicationLoading } from '../../features/application/application-loading'

export const Route = createFileRoute('/application/loading')({
  component: ApplicationLoading,
})
