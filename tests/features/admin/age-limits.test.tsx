// @vitest-environment happy-dom
/**
 * The age limits on the back office's content desk (/admin/content; spec section 9, ADR 0048): read by every
 * content role, changed by those holding content.manage, checked with the server's own schema before sending.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor, createMachine } from 'xstate'
import type { AgeLimitsSetting } from '../../../domain/contract/content'
import { ContentDesk } from '../../../src/features/admin/content'
import { routedApi } from '../../support/fake-api'
import { Harness } from '../application/harness'

afterEach(cleanup)

const authAs = (...roles: string[]) => createActor(createMachine({ context: { user: { roles } } })).start()

const defaults: AgeLimitsSetting = { min: 20, max: 70, isDefault: true, updatedAt: null }

function renderAs(roles: string[]) {
  let setting = defaults
  const fake = routedApi({
    'GET /private/back-office/banners': [],
    'GET /private/back-office/promo-items': [],
    'GET /private/back-office/app-link': {
      items: [],
      page: 1,
      perPage: 200,
      total: 0,
      count: 0,
      totalPages: 0,
    },
    'GET /private/back-office/age-limits': () => setting,
    'PUT /private/back-office/age-limits': (call: { body?: unknown }) => {
      const body = call.body as { min: number; max: number }
      setting = { ...body, isDefault: false, updatedAt: '2026-11-28T06:00:00.000Z' }
      return setting
    },
  })
  render(
    <Harness api={fake.api} services={{ auth: authAs(...roles) }}>
      <ContentDesk />
    </Harness>,
  )
  return fake
}

describe('age limits on the content desk', () => {
  it('shows the defaults, refuses a minimum below 18 before sending, and saves sound limits', async () => {
    const fake = renderAs(['administrator'])
    const min = (await screen.findByLabelText('Minimum age')) as HTMLInputElement
    expect(min.value).toBe('20')
    expect(screen.getByText('The defaults apply (never changed).')).toBeTruthy()
    fireEvent.change(min, { target: { value: '17' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save age limits' }))
    await screen.findByText('The minimum age is at least 18, the age of majority.')
    expect(fake.calls.filter((c) => c.method === 'PUT')).toEqual([])

    fireEvent.change(min, { target: { value: '18' } })
    fireEvent.change(screen.getByLabelText('Maximum age'), { target: { value: '65' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save age limits' }))
    await waitFor(() =>
      expect(fake.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ min: 18, max: 65 }]),
    )
    await screen.findByText(/^Last changed/)
  })

  it('a role without content.manage reads them and gets no save button', async () => {
    renderAs(['support'])
    expect(((await screen.findByLabelText('Minimum age')) as HTMLInputElement).readOnly).toBe(true)
    expect(screen.queryByRole('button', { name: 'Save age limits' })).toBeNull()
  })
})
