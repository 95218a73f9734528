import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import { SANDBOX_COOKIE } from '../../../domain/journey/routing'
import { useApi } from '../../app/app-context'
import { readCookie } from '../../app/cookies'
import { fetchDeployment } from '../../app/deployment'
import { ensureMessages, useMessages } from '../../i18n/messages'

/** The QA panel, its code and texts loaded only in a browser holding the QA cookie (issue 20 item 1). */
const SandboxPanel = lazy(() =>
  Promise.all([import('../../features/sandbox/sandbox-panel'), ensureMessages(['sandbox'])]).then(
    ([panel]) => panel,
  ),
)

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
  // Read once per mount: the panel's "Leave sandbox mode" removes the cookie and says so itself.
  const [qa] = useState(() => readCookie(SANDBOX_COOKIE) !== null)
  if (!data?.sandbox) return null
  const texts = m.layout.sandbox
  return (
    <section className="sandbox-banner" aria-label={texts.label}>
      <p className="sandbox-banner__text">
        <strong className="sandbox-banner__title">{texts.title}</strong> {texts.text}
      </p>
      {qa ? (
        <Suspense fallback={null}>
          <SandboxPanel />
        </Suspense>
      ) : null}
    </section>
  )
}
