import { createFileRoute } from '@tanstack/react-router'
import { ExtensionScreen } from '../../../features/extension/extension-screen'
import { requestedIdOf } from '../../../features/extension/texts'
import { loadPageTitle, titleHead } from '../../../ui/layout/page-title'

// The profile route's guard lets only a client's own session in (a single-link one is kept on My loan).
export const Route = createFileRoute('/profile/rollover/{-$id}')({
  loader: () => loadPageTitle('profile_rollover'),
  head: titleHead,
  component: Page,
})

function Page() {
  return <ExtensionScreen requestedId={requestedIdOf(Route.useParams().id)} />
}
