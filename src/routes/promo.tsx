import { createFileRoute } from '@tanstack/react-router'
import { PromoPage } from '../features/content/promo-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/promo')({
  loader: () => loadPageTitle('promo'),
  head: titleHead,
  component: PromoPage,
})
