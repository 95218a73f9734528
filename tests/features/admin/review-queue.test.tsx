// @vitest-environment happy-dom
/**
 * The review queue's issue 19 parts (src/features/admin/review-queue.tsx, docs/decisions/0036-review-queue.md)
 * against a scripted API: filters sent as the query, assignment, the four-eyes marks and messages, and the polite
 * announcement of applications that arrived since the last refresh.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReviewQueueItem } from '../../../domain/back-office/review'
import { ReviewQueue } from '../../../src/features/admin/review-queue'
import { type FakeCall, routedApi } from '../../support/fake-api'
import { Harness } from '../application/harness'

afterEach(cleanup)

const QUEUE = 'GET /private/back-office/review-queue'

const item = (id: number, overrides: Partial<ReviewQueueItem> = {}): ReviewQueueItem => ({
  id,
  status: 14,
  clientId: 100 + id,
  clientName: 'Manual Santos Dela Cruz',
  phone: '09191234567',
  amount: 1_500_000,
  term: 30,
  createdAt: '2026-11-24T01:30:00.000Z',
  decision: null,
  assignment: null,
  fourEyes: false,
  firstApproval: null,
  ...overrides,
})

const pageOf = (items: ReviewQueueItem[]) => ({
  items,
  page: 1,
  perPage: 50,
  total: items.length,
  count: items.length,
  totalPages: 1,
})

function renderQueue(routes: Record<string, unknown | ((call: FakeCall) => unknown)>) {
  const fake = routedApi(routes)
  render(
    <Harness api={fake.api}>
      <ReviewQueue />
    </Harness>,
  )
  return fake
}

describe('<ReviewQueue> (issue 19)', () => {
  it('sends the filters as the query: kind, assignee, amounts in centavos, days', async () => {
    const { calls } = renderQueue({ [QUEUE]: pageOf([item(7)]) })
    await screen.findByRole('article', { name: 'Application 7' })
    const form = screen.getByRole('form', { name: 'Filter the review queue' })
    fireEvent.change(within(form).getByLabelText('Kind of review'), { target: { value: 'second' } })
    fireEvent.change(within(form).getByLabelText('Assigned to'), { target: { value: 'me' } })
    fireEvent.change(within(form).getByLabelText('Lowest amount (PHP)', { exact: false }), {
      target: { value: '10 000.50' },
    })
    fireEvent.change(within(form).getByLabelText('Received from', { exact: false }), {
      target: { value: '2026-11-01' },
    })
    fireEvent.click(within(form).getByRole('button', { name: 'Show applications' }))
    await waitFor(() =>
      expect(calls.at(-1)?.query).toEqual({
        kind: 'second',
        assignee: 'me',
        minAmount: '1000050',
        from: '2026-11-01',
        page: '1',
        perPage: '50',
      }),
    )

    fireEvent.change(within(form).getByLabelText('Highest amount (PHP)', { exact: false }), {
      target: { value: 'lots' },
    })
    const before = calls.length
    fireEvent.click(within(form).getByRole('button', { name: 'Show applications' }))
    expect(await within(form).findByText('Enter an amount in pesos, e.g. 5000 or 5000.50.')).toBeTruthy()
    expect(calls.length).toBe(before)
  })

  it('takes an application, and announces politely the applications that arrived meanwhile', async () => {
    let queue = [item(7)]
    const { calls } = renderQueue({
      [QUEUE]: () => pageOf(queue),
      'POST /private/back-office/application/7/assign': () => {
        queue = [
          item(7, { assignment: { to: { id: 3, name: 'Ana Reyes' }, at: '2026-11-24T02:00:00.000Z' } }),
          item(8),
        ]
        return queue[0]
      },
    })
    const card = await screen.findByRole('article', { name: 'Application 7' })
    expect(within(card).getByText('Nobody')).toBeTruthy()
    fireEvent.click(within(card).getByRole('button', { name: 'Take application 7' }))
    expect(await screen.findByText('Application 7 is assigned to you.')).toBeTruthy()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({})
    expect(await screen.findByText('1 new application arrived in the review queue.')).toBeTruthy()
    const announcement = screen.getByText('1 new application arrived in the review queue.')
    expect(announcement.getAttribute('aria-live')).toBe('polite')
    expect(await within(card).findByText('Ana Reyes since Nov 24, 2026, 10:00')).toBeTruthy()
    expect(within(card).getByRole('button', { name: 'Release application 7' })).toBeTruthy()
  })

  it('marks a four-eyes application and says when an approval is only the first signature', async () => {
    const { calls } = renderQueue({
      [QUEUE]: pageOf([
        item(7, { fourEyes: true }),
        item(8, {
          fourEyes: true,
          firstApproval: { by: { id: 3, name: 'Ana Reyes' }, at: '2026-11-24T02:00:00.000Z' },
        }),
      ]),
      'PUT /private/back-office/application/7/decision': { id: 7, status: 14 },
    })
    const card = await screen.findByRole('article', { name: 'Application 7' })
    expect(within(card).getByText(/an approval needs two different underwriters/)).toBeTruthy()
    const second = screen.getByRole('article', { name: 'Application 8' })
    expect(
      within(second).getByText(/Needs a second approval: first approved by Ana Reyes on Nov 24, 2026, 10:00/),
    ).toBeTruthy()

    fireEvent.change(within(card).getByLabelText('Reason for the decision', { exact: false }), {
      target: { value: 'Employer confirmed.' },
    })
    fireEvent.click(within(card).getByRole('button', { name: 'Approve application 7' }))
    expect(
      await screen.findByText(
        'Application 7: your approval is recorded as the first; a second underwriter must approve it.',
      ),
    ).toBeTruthy()
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      decision: 'approve',
      reason: 'Employer confirmed.',
    })
  })
})
