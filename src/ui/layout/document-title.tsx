/**
 * The document's title from the deepest route's `head` (src/ui/layout/page-title.ts): what the router's
 * HeadContent did for us, which also carried meta, link and script tags we never use, in every page's
 * JavaScript (issue 21 item 3). The server writes the title of a page it renders into its <head>
 * (server/http/prerender.ts), so nothing here renders markup to hydrate.
 */
import { useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'

export function DocumentTitle() {
  const title = useRouterState({
    select: (state) => {
      for (const match of [...state.matches].reverse())
        for (const meta of match.meta ?? []) if (meta?.title) return meta.title
      return undefined
    },
  })
  useEffect(() => {
    if (title) document.title = title
  }, [title])
  return null
}
