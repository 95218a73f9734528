/**
 * /flow (spec section 2, public routes): the journey's entry, for links and bookmarks that mean "wherever I am".
 * The flow guard and the step table decide where it goes (domain/journey/routing.ts, page `flow`): a visitor to
 * registration (or to login with the single-link cookie), a client to the page of their step, a sold debt to its
 * page. The page itself only shows while that is being worked out (the profile or the flow still loading) and in
 * sandbox mode, which replaces the flow; it never navigates by itself: the journey's machine route moves it.
 */
import { createFileRoute, Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { journeyBeforeLoad } from '../app/journey-routing'
import { useMessages } from '../i18n/messages'

export const Route = createFileRoute('/flow')({
  beforeLoad: journeyBeforeLoad,
  component: Page,
})

function Page() {
  const m = useMessages()
  const { journey } = Route.useRouteContext()
  const sandbox = useSelector(journey.actor, (s) => s.matches('sandbox'))
  return (
    <section className="page page--narrow" aria-labelledby="flow-title">
      <h1 id="flow-title">{m.titles.flow}</h1>
      <p role="status">{sandbox ? m.flowPage.sandbox : m.flowPage.finding}</p>
      <p>{m.flowPage.stuck}</p>
      <p className="flow-page__links">
        <Link to="/profile" className="button button--secondary">
          {m.flowPage.profile}
        </Link>
        <Link to="/contact" className="button button--ghost">
          {m.flowPage.contact}
        </Link>
      </p>
    </section>
  )
}
