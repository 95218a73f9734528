/**
 * /application/manual-verification (status 14): a person in the back office decides. Nothing to do here: the
 * journey's poll moves the client on when the decision is made.
 */
import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { ScreenFrame } from './parts'

export function ManualVerificationScreen() {
  const m = useMessages().application
  return (
    <ScreenFrame title={m.manual.title} lead={m.manual.body}>
      <p>{m.manual.next}</p>
      <p className="button-row">
        <Link to="/contact" className="button button--secondary">
          {m.contactUs}
        </Link>
      </p>
    </ScreenFrame>
  )
}
