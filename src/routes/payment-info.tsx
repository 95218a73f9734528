import { createFileRoute } from '@tanstack/react-router'
import { PaymentInfoPage } from '../features/content/payment-info-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/payment-info')({
  loader: () => loadPageTitle('payment_info'),
  head: titleHead,
  component: PaymentInfoPage,
})
