import { createFileRoute } from '@tanstack/react-router'
import { HowToApplyPage } from '../features/content/how-to-apply-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/how-to-apply')({
  loader: () => loadPageTitle('how_to_apply'),
  head: titleHead,
  component: HowToApplyPage,
})
