import { useRouterState } from '@tanstack/react-router'
import { registrationProgress } from '../../../domain/journey/progress'
import { useMessages } from '../../i18n/messages'

/**
 * The registration progress (spec section 2, Layout): the flow percent of the page on screen over the journey's
 * registration steps, 30 % on sign-up, none outside registration (domain/journey/progress.ts).
 */
export function ProgressBar() {
  const m = useMessages()
  const percent = useRouterState({ select: (s) => registrationProgress(s.location.pathname) })
  if (!percent) return null
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={m.progress.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}%`}
    >
      <div className="progress__bar" style={{ width: `${percent}%` }} />
    </div>
  )
}
