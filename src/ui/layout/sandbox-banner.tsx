import { useQuery } from '@tanstack/react-query'
import { useApi } from '../../app/app-context'
import { fetchDeployment } from '../../app/deployment'
import { useMessages } from '../../i18n/messages'

/**
 * On every page while the server runs any adapter on its sandbox provider (docs/decisions/0018): a sandbox
 * deployment must never be mistaken for the real service. A labelled region, not a live one: it is there from
 * the start and says nothing new later. Nothing shows until the server has answered, and nothing if it fails.
 */
export function SandboxBanner() {
  const api = useApi()
  const m = useMessages()
  const { data } = useQuery({
    queryKey: ['public', 'environment'],
    // A failed answer hides the banner rather than replacing the page with the full-page error.
    queryFn: ({ signal }) => fetchDeployment(api, signal),
    staleTime: Number.POSITIVE_INFINITY,
  })
  if (!data?.sandbox) return null
  const texts = m.layout.sandbox
  return (
    <section className="sandbox-banner" aria-label={texts.label}>
      <p className="sandbox-banner__text">
        <strong className="sandbox-banner__title">{texts.title}</strong> {texts.text}
      </p>
    </section>
  )
}
