import { createFileRoute } from '@tanstack/react-router'
import { BankDataForm } from '../../features/registration/bank-data-form'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/bank-data')({
  loader: () => loadPageTitle('registration_bank_data'),
  head: titleHead,
  component: BankDataForm,
})
