import { createFileRoute } from '@tanstack/react-router'
import { PaymentForm } from '../../features/registration/payment-form'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/payment')({
  loader: () => loadPageTitle('registration_payment'),
  head: titleHead,
  component: PaymentForm,
})
