import type { AnyRouter } from '@tanstack/react-router'
import { storeCampaignFromUrl } from '../features/campaign/store-campaign'
import type { ShellActor } from './services'

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[]
  }
}

/**
 * Route-change side effects of spec section 2: popups close and a stale full-page error clears before the new
 * page loads; campaign parameters are kept; a page view goes to the tag manager once the page has resolved.
 */
export function trackNavigation(router: AnyRouter, shell: ShellActor) {
  storeCampaignFromUrl(window.location.search)
  router.subscribe('onBeforeNavigate', ({ pathChanged }) => {
    if (pathChanged) shell.send({ type: 'navigated' })
  })
  router.subscribe('onResolved', ({ toLocation }) => {
    storeCampaignFromUrl(toLocation.searchStr)
    window.dataLayer ??= []
    window.dataLayer.push({ event: 'page_view', page_path: toLocation.pathname, page_title: document.title })
  })
}
