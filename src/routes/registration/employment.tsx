import { createFileRoute } from '@tanstack/react-router'
import { EmploymentForm } from '../../features/registration/employment-form'

export const Route = createFileRoute('/registration/employment')({
  component: EmploymentForm,
})
