import { createFileRoute } from '@tanstack/react-router'
import { BankDataForm } from '../../features/registration/bank-data-form'

export const Route = createFileRoute('/registration/bank-data')({
  component: BankDataForm,
})
