import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { CareEmail } from './care-email'

export function NotFoundPage() {
  const m = useMessages()
  return (
    <section className="error-page" aria-labelledby="not-found-title">
      <p className="error-page__code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">{m.errors.notFoundTitle}</h1>
      <p>{m.errors.notFoundBody}</p>
      <ul className="error-page__links">
        <li>
          <Link to="/">{m.common.home}</Link>
        </li>
        <li>
          <Link to="/faq">{m.common.faq}</Link>
        </li>
        <li>
          <Link to="/contact">{m.common.contact}</Link>
        </li>
      </ul>
      <p>
        {m.errors.careEmailLead} <CareEmail />
      </p>
    </section>
  )
}
