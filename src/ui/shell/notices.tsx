import { useSelector } from '@xstate/react'
import { useShell } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'

/** Toasts, top-right, each for 5 seconds (the app-shell machine times them). */
export function Notices() {
  const shell = useShell()
  const m = useMessages()
  const notices = useSelector(shell, (s) => s.context.notices)
  return (
    <section className="notices" aria-label={m.notices.region} aria-live="polite">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`notice notice--${notice.tone}`}
          role={notice.tone === 'error' ? 'alert' : 'status'}
        >
          <span>{notice.text}</span>
          <button
            type="button"
            className="notice__close"
            aria-label={m.notices.dismiss}
            onClick={() => shell.send({ type: 'notice.dismiss', id: notice.id })}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  )
}
