import { createFileRoute } from '@tanstack/react-router'
import { RepayPage } from '../../features/repay/repay-page'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/repay/')({
  loader: () => loadPageTitle('repay'),
  head: titleHead,
  component: RepayPage,
})
