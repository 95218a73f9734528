import { createFileRoute } from '@tanstack/react-router'
import { LoginPage } from '../features/auth/login-page'
import { loginSearchSchema } from '../features/auth/search'

export const Route = createFileRoute('/login')({
  validateSearch: loginSearchSchema,
  component: Page,
})

function Page() {
  const { redirect } = Route.useSearch()
  return <LoginPage redirectTo={redirect} />
}
