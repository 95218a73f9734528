import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { lazy, Suspense, useCallback, useRef } from 'react'
import { useShell } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { ProgressBar } from '../shell/progress-bar'
import { displayName, type HeaderUser } from './account'
import { Logo } from './logo'
import { DRAWER_ID, DRAWER_POPUP, MobileDrawer } from './mobile-drawer'
import { type NavItem, navItems } from './nav-items'
import { useSiteContent } from './site-content'

// A signed-in person's menu and links: only a session needs them, and the server renders every page for a
// visitor, so their code stays off the public pages' critical path (issue 21 item 3). Until it arrives the
// header shows the name in the menu button's place, so nothing moves.
const AccountMenu = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })))
const AccountLinks = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountLinks })))

export interface HeaderProps {
  /** The signed-in person; absent or null when logged out. */
  user?: HeaderUser | null
  /** Signed in through a single link: only My loan and its log out. */
  singleLink?: boolean
  onLogout?: () => void
}

export function Header({ user, singleLink, onLogout }: HeaderProps) {
  const m = useMessages()
  const shell = useShell()
  const drawerOpen = useSelector(shell, (s) => s.context.popup === DRAWER_POPUP)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  const closeDrawer = useCallback(() => shell.send({ type: 'popup.close' }), [shell])
  const items = navItems(m, useSiteContent().promoItems)
  const name = user ? displayName(user) : ''
  const logout = () => {
    closeDrawer()
    onLogout?.()
  }

  return (
    <>
      <header className="site-header">
        {/* Inside the banner landmark, like everything on the page (axe "region"); drawn fixed at the top. */}
        <ProgressBar />
        <div className="site-header__inner container">
          <Logo label={m.layout.homeLink} brand={m.common.brand} />
          <nav className="site-header__nav" aria-label={m.layout.nav.label}>
            <NavList items={items} className="nav-list" />
          </nav>
          <div className="site-header__actions">
            {user ? (
              <div className="site-header__account">
                <Suspense
                  fallback={
                    <span className="account-menu">
                      <span className="account-menu__button">{name}</span>
                    </span>
                  }
                >
                  <AccountMenu name={name} singleLink={singleLink} onLogout={onLogout} />
                </Suspense>
              </div>
            ) : (
              <Link to="/login" className="button button--primary button--sm site-header__login">
                {m.layout.login}
              </Link>
            )}
            <button
              ref={menuButtonRef}
              type="button"
              className="icon-button site-header__menu-button"
              aria-label={m.layout.menu}
              aria-expanded={drawerOpen}
              aria-controls={DRAWER_ID}
              onClick={() => shell.send({ type: 'popup.open', id: DRAWER_POPUP })}
            >
              <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path
                  d="M4 7h16M4 12h16M4 17h16"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
            </button>
          </div>
        </div>
      </header>
      <MobileDrawer open={drawerOpen} onClose={closeDrawer} returnFocusTo={menuButtonRef}>
        <nav className="drawer__nav" aria-label={m.layout.nav.label}>
          <NavList items={items} className="drawer__list" onNavigate={closeDrawer} />
        </nav>
        <div className="drawer__account">
          {user ? (
            <>
              <p className="drawer__name">{name}</p>
              <ul className="drawer__list">
                <Suspense fallback={null}>
                  <AccountLinks singleLink={singleLink} onLogout={logout} onNavigate={closeDrawer} />
                </Suspense>
              </ul>
            </>
          ) : (
            <Link to="/login" className="button button--primary button--block">
              {m.layout.login}
            </Link>
          )}
        </div>
      </MobileDrawer>
    </>
  )
}

function NavList({
  items,
  className,
  onNavigate,
}: {
  items: NavItem[]
  className: string
  onNavigate?: () => void
}) {
  return (
    <ul className={className}>
      {items.map((item) =>
        'to' in item ? (
          <li key={item.to}>
            <Link to={item.to} className="nav-link" onClick={onNavigate}>
              {item.label}
            </Link>
          </li>
        ) : (
          // A promo item's link is the back office's: a path of the site (the router's, typed as one path it
          // knows) or an https address, both checked by the API.
          <li key={item.key}>
            {item.href.startsWith('/') ? (
              <Link to={item.href as '/promo'} className="nav-link" onClick={onNavigate}>
                {item.label}
              </Link>
            ) : (
              <a href={item.href} className="nav-link" onClick={onNavigate}>
                {item.label}
              </a>
            )}
          </li>
        ),
      )}
    </ul>
  )
}
