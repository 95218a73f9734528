/**
 * /application/rejected: the application was rejected. Says whether a new application is possible now, or
 * from which date (the application's `reapplyFrom`, on the Manila calendar).
 */
import { Link } from '@tanstack/react-router'
import { fmt, useMessages } from '../../i18n/messages'
import { canReapply, formatLongDate } from './format'
import { QueryGate, ScreenFrame } from './parts'
import { useActualApplication } from './queries'

export function RejectedScreen({ now = () => new Date() }: { now?: () => Date }) {
  const m = useMessages().application
  const query = useActualApplication()
  return (
    <ScreenFrame title={m.rejected.title} lead={m.rejected.body}>
      <QueryGate query={query}>
        {(application) =>
          canReapply(application.reapplyFrom, now()) ? (
            <>
              <p data-figure="reapply">{m.rejected.againNow}</p>
              <p className="button-row">
                <Link to="/application/apply" className="button button--primary">
                  {m.rejected.apply}
                </Link>
              </p>
            </>
          ) : (
            <p data-figure="reapply">
              {fmt(m.rejected.againFrom, { date: formatLongDate(application.reapplyFrom as string) })}
            </p>
          )
        }
      </QueryGate>
    </ScreenFrame>
  )
}
