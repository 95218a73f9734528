import { type ReactNode, type RefObject, useEffect, useRef } from 'react'
import { useMessages } from '../../i18n/messages'

export const DRAWER_POPUP = 'drawer'
export const DRAWER_ID = 'mobile-drawer'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])'
const WIDE_SCREEN = '(min-width: 768px)'

export interface MobileDrawerProps {
  open: boolean
  onClose: () => void
  /** The menu button: focus goes back to it when the drawer closes. */
  returnFocusTo: RefObject<HTMLElement | null>
  children: ReactNode
}

/**
 * The navigation below 768px: a modal dialog sliding in from the right. Focus moves in on open, stays inside
 * (Tab wraps), and returns to the menu button on close; Escape, the close button and the backdrop close it,
 * and so does widening the window past the mobile breakpoint. It stays in the DOM (hidden) so the menu
 * button's aria-controls always points at something.
 */
export function MobileDrawer({ open, onClose, returnFocusTo, children }: MobileDrawerProps) {
  const m = useMessages()
  const panelRef = useRef<HTMLDivElement>(null)
  const closeRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const panel = panelRef.current
    closeRef.current?.focus()
    const root = document.documentElement
    const previousOverflow = root.style.overflow
    root.style.overflow = 'hidden'

    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        onClose()
        return
      }
      if (event.key !== 'Tab' || !panel) return
      const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE))
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault()
        first.focus()
      } else if (!panel.contains(document.activeElement)) {
        event.preventDefault()
        first.focus()
      }
    }
    const wide = window.matchMedia(WIDE_SCREEN)
    const onWide = (event: MediaQueryListEvent) => {
      if (event.matches) onClose()
    }
    document.addEventListener('keydown', onKey)
    wide.addEventListener('change', onWide)
    return () => {
      document.removeEventListener('keydown', onKey)
      wide.removeEventListener('change', onWide)
      root.style.overflow = previousOverflow
      const active = document.activeElement
      if (!active || active === document.body || panel?.contains(active)) returnFocusTo.current?.focus()
    }
  }, [open, onClose, returnFocusTo])

  return (
    <div className="drawer" id={DRAWER_ID} hidden={!open}>
      <div className="drawer__backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={panelRef}
        className="drawer__panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${DRAWER_ID}-title`}
      >
        <div className="drawer__header">
          <h2 id={`${DRAWER_ID}-title`} className="drawer__title">
            {m.layout.drawerTitle}
          </h2>
          <button
            ref={closeRef}
            type="button"
            className="icon-button drawer__close"
            aria-label={m.common.close}
            onClick={onClose}
          >
            <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {children}
      </div>
    </div>
  )
}
