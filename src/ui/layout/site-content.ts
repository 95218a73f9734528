/**
 * What the layout shows by date window (issue 19 item 7): banners, promo menu items and the installable-app
 * entries, managed in the back office. The server applies the windows on its business day (one clock for
 * everyone, domain/content/windows.ts); the browser only draws the answer. One call per visit.
 */
import { useQuery } from '@tanstack/react-query'
import { getSiteContent, type SiteContent } from '../../../domain/contract/content-public'
import { useApi } from '../../app/app-context'

export const siteContentQueryKey = ['public', 'site-content'] as const

const NOTHING: SiteContent = { today: '', banners: [], promoItems: [], apps: [] }

/** Today's site content; nothing while it loads or when the call fails (the page works without it). */
export function useSiteContent(): SiteContent {
  const api = useApi()
  const { data } = useQuery({
    queryKey: siteContentQueryKey,
    queryFn: ({ signal }) => api.call(getSiteContent, undefined, { signal }),
    // Refetched when a page is opened after five minutes: a tab left open picks up the next day's items.
    staleTime: 5 * 60_000,
  })
  return data ?? NOTHING
}
