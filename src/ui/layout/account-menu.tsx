import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { useEffect, useId, useRef } from 'react'
import { useShell } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'

export const ACCOUNT_MENU_POPUP = 'account-menu'

export interface AccountMenuProps {
  name: string
  /** Signed in through a single link: only My loan and its own log out. */
  singleLink?: boolean
  onLogout?: () => void
}

/**
 * The signed-in person's name opening a short list of links (a disclosure, so Tab moves through it as usual).
 * Its open state is the shell's popup, so navigating closes it; Escape and a click outside close it too.
 */
export function AccountMenu({ name, singleLink, onLogout }: AccountMenuProps) {
  const m = useMessages()
  const shell = useShell()
  const open = useSelector(shell, (s) => s.context.popup === ACCOUNT_MENU_POPUP)
  const listId = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const close = () => shell.send({ type: 'popup.close' })
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      close()
      buttonRef.current?.focus()
    }
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close()
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [open, shell])

  const toggle = () =>
    shell.send(open ? { type: 'popup.close' } : { type: 'popup.open', id: ACCOUNT_MENU_POPUP })
  const logout = () => {
    shell.send({ type: 'popup.close' })
    onLogout?.()
  }

  return (
    <div className="account-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="account-menu__button"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={fmt(m.layout.account.menuLabel, { name })}
        onClick={toggle}
      >
        <span className="account-menu__avatar" aria-hidden="true">
          {name.charAt(0).toUpperCase()}
        </span>
        <span className="account-menu__name">{name}</span>
        <svg className="account-menu__chevron" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
          <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </button>
      <ul id={listId} className="account-menu__list" hidden={!open}>
        <AccountLinks
          singleLink={singleLink}
          onLogout={logout}
          onNavigate={() => shell.send({ type: 'popup.close' })}
        />
      </ul>
    </div>
  )
}

/** The account entries as list items, shared by the header menu and the mobile drawer. */
export function AccountLinks({
  singleLink,
  onLogout,
  onNavigate,
}: {
  singleLink?: boolean
  onLogout: () => void
  /** Closes the menu or drawer even when the link points at the current page. */
  onNavigate?: () => void
}) {
  const m = useMessages()
  return (
    <>
      {singleLink ? null : (
        <li>
          <Link
            to="/profile"
            className="account-menu__item"
            activeOptions={{ exact: true }}
            onClick={onNavigate}
          >
            {m.layout.account.profile}
          </Link>
        </li>
      )}
      <li>
        <Link to="/profile/my-loan" className="account-menu__item" onClick={onNavigate}>
          {m.layout.account.myLoan}
        </Link>
      </li>
      <li>
        <button type="button" className="account-menu__item account-menu__logout" onClick={onLogout}>
          {m.layout.account.logout}
        </button>
      </li>
    </>
  )
}
