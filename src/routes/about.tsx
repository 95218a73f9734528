import { createFileRoute } from '@tanstack/react-router'
import { AboutPage } from '../features/content/about-page'
import { loadPageTitle, titleHead } from '../ui/layout/page-title'

export const Route = createFileRoute('/about')({
  loader: () => loadPageTitle('about'),
  head: titleHead,
  component: AboutPage,
})
