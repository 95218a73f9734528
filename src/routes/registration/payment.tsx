import { createFileRoute } from '@tanstack/react-router'
import { PaymentForm } from '../../features/registration/payment-form'

export const Route = createFileRoute('/registration/payment')({
  component: PaymentForm,
})
