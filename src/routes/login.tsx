import { createFileRoute } from '@tanstack/react-router'
import { loginGuard } from '../app/auth-guards'
import { LoginPage } from '../features/auth/login-page'
import { loginSearchSchema } from '../features/auth/search'

export const Route = createFileRoute('/login')({
  validateSearch: loginSearchSchema,
  // A pending session end is acknowledged here; a logged-in session goes on to its after-login page.
  beforeLoad: ({ context, location, preload }) => loginGuard(context.auth, location, preload),
  component: Page,
})

function Page() {
  return <LoginPage />
}
