import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'

/** The body of a page whose feature is not built yet: honest, inside the real layout, with a way forward. */
export function ComingSoon({ title }: { title: string }) {
  const m = useMessages()
  return (
    <section className="page page--narrow coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title">{title}</h1>
      <p className="coming-soon__badge">{m.comingSoon.title}</p>
      <p>{m.comingSoon.body}</p>
      <p className="coming-soon__links">
        <Link to="/how-to-apply" className="button button--secondary">
          {m.comingSoon.howToApply}
        </Link>
        <Link to="/contact" className="button button--ghost">
          {m.comingSoon.contact}
        </Link>
      </p>
    </section>
  )
}
