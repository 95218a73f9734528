// @vitest-environment happy-dom
/** The back office's one pager (src/features/admin/admin-parts.tsx), shared by the clients, users and audit screens. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AdminPager } from '../../../src/features/admin/admin-parts'

afterEach(cleanup)

const texts = {
  label: 'Pages of clients',
  position: 'Page 2 of 3 (45 in all)',
  previous: 'Previous page',
  next: 'Next page',
}

describe('<AdminPager>', () => {
  it('names itself, says where the list stands and moves a page either way', () => {
    const onPage = vi.fn()
    render(<AdminPager {...texts} page={2} pages={3} onPage={onPage} />)
    expect(screen.getByRole('navigation', { name: 'Pages of clients' })).toBeTruthy()
    expect(screen.getByText('Page 2 of 3 (45 in all)')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }))
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    expect(onPage.mock.calls).toEqual([[1], [3]])
  })

  it('disables the ends, hides itself for a single page, stays to walk back from past the end', () => {
    const { rerender } = render(<AdminPager {...texts} page={1} pages={2} onPage={vi.fn()} />)
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true)
    rerender(<AdminPager {...texts} page={1} pages={1} onPage={vi.fn()} />)
    expect(screen.queryByRole('navigation')).toBeNull()
    rerender(<AdminPager {...texts} page={3} pages={1} onPage={vi.fn()} />)
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(false)
  })
})
