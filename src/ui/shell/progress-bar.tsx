import { useRouterState } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'

/** 30 percent on registration pages (spec section 2), 0 elsewhere; later steps may pass a higher value. */
export const REGISTRATION_START_PERCENT = 30

export function ProgressBar() {
  const m = useMessages()
  const inRegistration = useRouterState({ select: (s) => s.location.pathname.startsWith('/registration') })
  const percent = inRegistration ? REGISTRATION_START_PERCENT : 0
  if (!percent) return null
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={m.progress.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <div className="progress__bar" style={{ width: `${percent}%` }} />
    </div>
  )
}
