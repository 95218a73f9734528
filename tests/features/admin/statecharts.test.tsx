// @vitest-environment happy-dom
/**
 * /admin/statecharts (issue 20, item 3) against a fake API: every machine's diagram (the docs/statecharts/ files)
 * with its alt text and full-size link, the live count of each server state opening the list of clients or loans
 * in it (linked to the client's file), and the date range sent as the query. axe finds nothing (contrast aside:
 * happy-dom lays nothing out).
 */
import { readdirSync } from 'node:fs'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import axe from 'axe-core'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Statecharts as Charts, StateMember } from '../../../domain/contract/statecharts'
import { Statecharts } from '../../../src/features/admin/statecharts'
import { type FakeCall, routedApi } from '../../support/fake-api'
import { Harness } from '../application/harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, params, children }: { to: string; params?: { id: string }; children: ReactNode }) => (
    <a href={to.replace('$id', params?.id ?? '')}>{children}</a>
  ),
}))

afterEach(cleanup)

const charts = (from: string, to: string): Charts => ({
  from,
  to,
  machines: [
    {
      machine: 'clientJourney',
      subject: 'client',
      initial: 'new_client_created',
      total: 3,
      created: 2,
      states: [
        { state: 'new_client_created', parent: null, leaf: true, now: 0, entered: 2, left: 2 },
        { state: 'work_info', parent: null, leaf: true, now: 3, entered: 2, left: 0 },
      ],
      transitions: [
        { from: 'new_client_created', to: 'work_info', event: 'SUBMIT_DETAILS', count: 2, inModel: true },
        { from: 'work_info', to: 'relative_info', event: 'SUBMIT_EMPLOYMENT', count: 0, inModel: true },
      ],
    },
    {
      machine: 'loanLifecycle',
      subject: 'loan',
      initial: 'draft',
      total: 1,
      created: 1,
      states: [
        { state: 'draft', parent: null, leaf: true, now: 0, entered: 1, left: 1 },
        { state: 'active', parent: null, leaf: false, now: 1, entered: 1, left: 0 },
        { state: 'active.on_terms', parent: 'active', leaf: false, now: 1, entered: 1, left: 0 },
        {
          state: 'active.on_terms.current',
          parent: 'active.on_terms',
          leaf: true,
          now: 1,
          entered: 1,
          left: 0,
        },
      ],
      transitions: [
        { from: 'draft', to: 'active.on_terms.current', event: 'DISBURSED', count: 1, inModel: true },
      ],
    },
  ],
})

const member: StateMember = {
  id: 17,
  clientId: 17,
  summary: 'work_info',
  state: 'work_info',
  since: '2026-11-20T02:00:00.000Z',
}

describe('<Statecharts>', () => {
  it('shows every diagram, the live counts, the people in a state and the chosen range', async () => {
    const fake = routedApi({
      'GET /private/back-office/statecharts': ({ query }: FakeCall) =>
        charts(query?.from ?? '2026-10-30', query?.to ?? '2026-11-28'),
      'GET /private/back-office/statecharts/clientJourney/states/work_info': {
        items: [member],
        page: 1,
        perPage: 20,
        total: 1,
        count: 1,
        totalPages: 1,
      },
    })
    const { container } = render(
      <Harness api={fake.api}>
        <Statecharts />
      </Harness>,
    )
    await screen.findByText('Transitions from 2026-10-30 to 2026-11-28, Manila time.')
    // Every generated diagram, each an image with its name and a link to open it full size.
    const svgs = readdirSync('docs/statecharts').filter((name) => name.endsWith('.svg'))
    expect(screen.getAllByRole('img')).toHaveLength(svgs.length)
    expect(screen.getByRole('img', { name: 'Statechart diagram of Loan lifecycle' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Open the Client journey diagram full size' })).toBeTruthy()

    const states = screen.getByRole('region', { name: 'States of Client journey, scrollable' })
    expect(
      within(states).getByRole('button', { name: 'List the 0 clients in new_client_created' }),
    ).toHaveProperty('disabled', true)
    // Transitions never taken are hidden until asked for.
    const moves = screen.getByRole('region', { name: 'Transitions of Client journey, scrollable' })
    expect(within(moves).queryByText('SUBMIT_EMPLOYMENT')).toBeNull()
    expect(within(moves).getByText('100%')).toBeTruthy()

    fireEvent.click(within(states).getByRole('button', { name: 'List the 3 clients in work_info' }))
    const list = await screen.findByRole('region', { name: 'clients in work_info, scrollable' })
    expect(within(list).getByRole('link', { name: 'Client 17' }).getAttribute('href')).toBe(
      '/admin/clients/17',
    )

    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } })
    expect(results.passes.length).toBeGreaterThan(10)
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' ')}`)).toEqual([])

    fireEvent.change(screen.getByLabelText('From (Manila date)'), { target: { value: '2026-01-01' } })
    fireEvent.change(screen.getByLabelText('To (Manila date)'), { target: { value: '2026-01-31' } })
    fireEvent.click(screen.getByRole('button', { name: 'Show' }))
    await screen.findByText('Transitions from 2026-01-01 to 2026-01-31, Manila time.')
    await waitFor(() => expect(fake.calls.at(-1)?.query).toEqual({ from: '2026-01-01', to: '2026-01-31' }))
  })
})
