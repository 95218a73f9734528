// @vitest-environment happy-dom
/**
 * The header's mobile drawer (spec section 2, Layout: "a mobile drawer"; src/ui/layout/header.tsx,
 * mobile-drawer.tsx), with the real app-shell machine holding which popup is open: the menu button opens it and
 * says so (aria-expanded), focus moves into the dialog and Tab stays there, Escape closes it and gives focus back to
 * the menu button, and following one of its links (or clicking the backdrop) closes it too.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import type { MouseEvent, ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { appShellMachine } from '../../machines/app-shell.machine'
import { Header } from '../../src/ui/layout/header'
import { Harness } from '../features/application/harness'
import { withCall } from '../support/fake-api'
import { messages } from '../support/messages'

vi.mock('@tanstack/react-router', () => ({
  Link: ({
    to,
    children,
    className,
    onClick,
    ...rest
  }: {
    to: string
    children: ReactNode
    className?: string
    onClick?: (event: MouseEvent) => void
    'aria-label'?: string
  }) => (
    <a
      href={to}
      className={className}
      aria-label={rest['aria-label']}
      onClick={(event) => {
        // The router would change the page here; the page itself is not under test.
        event.preventDefault()
        onClick?.(event)
      }}
    >
      {children}
    </a>
  ),
  useRouterState: ({ select }: { select: (state: { location: { pathname: string } }) => unknown }) =>
    select({ location: { pathname: '/' } }),
}))

const stops: (() => void)[] = []
afterEach(() => {
  cleanup()
  for (const stop of stops.splice(0)) stop()
})

const layout = messages.layout

/** No promo items today: the site content call answers nothing in its windows. */
const api = withCall({ get: async () => ({ today: '2026-11-28', banners: [], promoItems: [], apps: [] }) })

function renderHeader() {
  const shell = createActor(appShellMachine, { input: {} }).start()
  stops.push(() => shell.stop())
  render(
    <Harness api={api} services={{ shell }}>
      <Header />
    </Harness>,
  )
  const menuButton = screen.getByRole('button', { name: layout.menu }) as HTMLButtonElement
  const dialog = () => screen.queryByRole('dialog', { name: layout.drawerTitle })
  return { shell, menuButton, dialog }
}

const press = (key: string, shiftKey = false) =>
  act(() => {
    fireEvent.keyDown(document.activeElement ?? document.body, { key, shiftKey })
  })

describe('mobile drawer', () => {
  it('opens from the menu button with focus inside, keeps Tab inside, and Escape gives focus back', () => {
    const { shell, menuButton, dialog } = renderHeader()
    expect(menuButton.getAttribute('aria-expanded')).toBe('false')
    expect(menuButton.getAttribute('aria-controls')).toBe('mobile-drawer')
    // Closed: in the DOM (the button's aria-controls points at it) but hidden.
    expect(dialog()).toBeNull()
    expect(document.getElementById('mobile-drawer')?.hidden).toBe(true)

    menuButton.focus()
    act(() => {
      fireEvent.click(menuButton)
    })
    const open = dialog()
    expect(open).not.toBeNull()
    expect(open?.getAttribute('aria-modal')).toBe('true')
    expect(menuButton.getAttribute('aria-expanded')).toBe('true')
    expect(shell.getSnapshot().context.popup).toBe('drawer')
    // Focus moved in, onto the close button; the page behind does not scroll.
    const close = within(open!).getByRole('button', { name: messages.common.close })
    expect(document.activeElement).toBe(close)
    expect(document.documentElement.style.overflow).toBe('hidden')
    // The drawer lists the main navigation and the login.
    const links = within(open!).getAllByRole('link')
    expect(links.map((link) => link.textContent)).toEqual([
      layout.nav.about,
      layout.nav.howToApply,
      layout.nav.repay,
      layout.nav.faq,
      layout.nav.contact,
      layout.login,
    ])

    // Tab wraps: Shift+Tab on the first control goes to the last, Tab on the last back to the first.
    press('Tab', true)
    expect(document.activeElement).toBe(links.at(-1))
    press('Tab')
    expect(document.activeElement).toBe(close)

    press('Escape')
    expect(dialog()).toBeNull()
    expect(menuButton.getAttribute('aria-expanded')).toBe('false')
    expect(shell.getSnapshot().context.popup).toBeNull()
    expect(document.activeElement).toBe(menuButton)
    expect(document.documentElement.style.overflow).toBe('')
  })

  it('following a link of the drawer closes it; so does the backdrop', () => {
    const { menuButton, dialog } = renderHeader()
    act(() => {
      fireEvent.click(menuButton)
    })
    act(() => {
      fireEvent.click(within(dialog()!).getByRole('link', { name: layout.nav.faq }))
    })
    expect(dialog()).toBeNull()
    expect(menuButton.getAttribute('aria-expanded')).toBe('false')

    act(() => {
      fireEvent.click(menuButton)
    })
    expect(dialog()).not.toBeNull()
    const backdrop = document.querySelector('#mobile-drawer .drawer__backdrop') as HTMLElement
    act(() => {
      fireEvent.click(backdrop)
    })
    expect(dialog()).toBeNull()
    expect(document.activeElement).toBe(menuButton)
  })
})
