import type { AnyRouter } from '@tanstack/react-router'
import { storeCampaignFromUrl } from '../features/campaign/store-campaign'
import type { AuthActor, ShellActor } from './services'

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

/**
 * The one place where the end of a session moves the user (spec sections 2 and 4): a logout goes to the login
 * route; a 401/403 during a session goes there too, remembering the page to come back to. A restored session
 * the server refused ends quietly: only the route guards react (a guarded page sends its visitor to login).
 */
export function followSession(router: AnyRouter, auth: AuthActor) {
  auth.on('session.ended', ({ reason }) => {
    if (reason === 'loadFailed') {
      void router.invalidate()
      return
    }
    const here = router.state.location
    const back = `${here.pathname}${here.searchStr}`
    const keep = reason === 'unauthorized' && here.pathname !== '/login' && here.pathname !== '/'
    void router.navigate({
      to: '/login',
      search: keep ? { redirect: back } : {},
      replace: reason === 'unauthorized',
    })
  })
}
