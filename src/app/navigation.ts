import type { AnyRouter } from '@tanstack/react-router'
import type { Metric } from 'web-vitals'
import { storeAnalyticsQueryFromLanding, storeCampaignFromUrl } from '../features/campaign/store-campaign'
import type { ShellActor } from './services'

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[]
  }
}

/**
 * Real-user metrics (issue 21, item 4): LCP, INP and CLS, each once per page load, to the tag manager beside the
 * page views. The `web-vitals` library is fetched only after the page has loaded, so it is never on the path to
 * the first paint; its observers read the buffered entries, so nothing that happened before is missed.
 */
export function reportWebVitals() {
  const start = () => {
    import('web-vitals')
      .then(({ onCLS, onINP, onLCP }) => {
        const send = ({ name, value, rating, id, navigationType }: Metric) => {
          window.dataLayer ??= []
          window.dataLayer.push({
            event: 'web_vitals',
            metric_name: name,
            // CLS is a unitless score; LCP and INP are milliseconds.
            metric_value: name === 'CLS' ? Math.round(value * 1000) / 1000 : Math.round(value),
            metric_rating: rating,
            metric_id: id,
            navigation_type: navigationType,
            page_path: window.location.pathname,
          })
        }
        onLCP(send)
        onINP(send)
        onCLS(send)
      })
      // A failed fetch (offline, a deploy replaced the chunk) costs the metrics only, never the page.
      .catch(() => {})
  }
  if (document.readyState === 'complete') setTimeout(start, 0)
  else window.addEventListener('load', () => setTimeout(start, 0), { once: true })
}

/**
 * The landing address's campaign parameters and analytics query, kept as soon as the app's code runs (before the
 * app is built: a visitor who leaves at once has still arrived from the campaign).
 */
export function keepLanding() {
  storeCampaignFromUrl(window.location.search)
  storeAnalyticsQueryFromLanding(window.location.search)
}

/**
 * Route-change side effects of spec section 2: popups close and a stale full-page error clears before the new
 * page loads; campaign parameters are kept (the landing's by `keepLanding`); a page view goes to the tag manager
 * once the page has resolved, and the page load's web vitals once they are final.
 */
export function trackNavigation(router: AnyRouter, shell: ShellActor) {
  reportWebVitals()
  router.subscribe('onBeforeNavigate', ({ pathChanged }) => {
    if (pathChanged) shell.send({ type: 'navigated' })
  })
  router.subscribe('onResolved', ({ toLocation }) => {
    storeCampaignFromUrl(toLocation.searchStr)
    window.dataLayer ??= []
    window.dataLayer.push({ event: 'page_view', page_path: toLocation.pathname, page_title: document.title })
  })
}
