import { createFileRoute } from '@tanstack/react-router'
import { BankTransferPage } from '../../features/repay/bank-transfer-page'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/repay/bank-transfer')({
  loader: () => loadPageTitle('repay_bank_transfer'),
  head: titleHead,
  component: BankTransferPage,
})
