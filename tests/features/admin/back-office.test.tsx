// @vitest-environment happy-dom
/** The back office's review queue and sandbox outbox (src/features/admin) against a scripted API. */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ReviewItem } from '../../../src/features/admin/admin-api'
import { Outbox } from '../../../src/features/admin/outbox'
import { ReviewQueue } from '../../../src/features/admin/review-queue'
import { withCall } from '../../support/fake-api'
import { Harness } from '../application/harness'

afterEach(cleanup)

const QUEUE = '/private/back-office/review-queue'

const item = (id: number, overrides: Partial<ReviewItem> = {}): ReviewItem => ({
  id,
  status: 14,
  clientId: 100 + id,
  clientName: 'Manual Santos Dela Cruz',
  phone: '09191234567',
  amount: 500_000,
  term: 30,
  createdAt: '2026-11-24T01:30:00.000Z',
  decision: {
    outcome: 'manual',
    reasons: ['sandbox: first name Manual'],
    rules: [{ rule: 'affordability', passed: true }],
    createdAt: '2026-11-24T01:30:05.000Z',
  },
  ...overrides,
})

/** An API whose queue shrinks as decisions are taken; `failWith` makes the next decision fail. */
function queueApi(initial: ReviewItem[]) {
  let queue = [...initial]
  let failWith: unknown = null
  // The queue is answered a page at a time; the screen shows the first.
  const page = vi.fn(async (path: string) => {
    if (path !== QUEUE) throw new Error(`unexpected GET ${path}`)
    return { items: queue, page: 1, perPage: 100, total: queue.length, count: queue.length, totalPages: 1 }
  })
  const put = vi.fn(async (path: string, _body: unknown) => {
    if (failWith) {
      const error = failWith
      failWith = null
      throw error
    }
    const id = Number(/application\/(\d+)\/decision$/.exec(path)?.[1])
    queue = queue.filter((q) => q.id !== id)
    return { id, status: 2 }
  })
  return {
    api: withCall({ page, put }),
    page,
    put,
    failNext: (error: unknown) => {
      failWith = error
    },
  }
}

/** Renders the queue over `queueApi(items)` and waits for the card of application `id`. */
async function renderQueue(items: ReviewItem[], id = items[0]!.id) {
  const scripted = queueApi(items)
  render(
    <Harness api={scripted.api}>
      <ReviewQueue />
    </Harness>,
  )
  const card = await screen.findByRole('article', { name: `Application ${id}` })
  return { ...scripted, card }
}

describe('<ReviewQueue>', () => {
  it('shows each waiting application with its figures and reasons, and approves with a reason', async () => {
    const { put, card } = await renderQueue([item(7), item(8, { status: 401, decision: null })])
    expect(within(card).getByText('₱5,000.00')).toBeTruthy()
    expect(within(card).getByText('30 days')).toBeTruthy()
    expect(within(card).getByText('Nov 24, 2026, 09:30')).toBeTruthy()
    expect(within(card).getByText('sandbox: first name Manual')).toBeTruthy()
    const other = screen.getByRole('article', { name: 'Application 8' })
    expect(within(other).getByText('Decision error')).toBeTruthy()
    expect(within(other).getByText('No decision stored yet.')).toBeTruthy()

    fireEvent.change(within(card).getByLabelText('Reason for the decision', { exact: false }), {
      target: { value: 'Payslip checked by phone.' },
    })
    fireEvent.click(within(card).getByRole('button', { name: 'Approve application 7' }))
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith('/private/back-office/application/7/decision', {
        decision: 'approve',
        reason: 'Payslip checked by phone.',
      }),
    )
    expect(await screen.findByText('Application 7 approved: the client can now sign.')).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Application 7' })).toBeNull())
    expect(screen.getByRole('article', { name: 'Application 8' })).toBeTruthy()
  })

  it('asks for a reason before sending anything, with the shared schema message', async () => {
    const { put, card } = await renderQueue([item(7)])
    fireEvent.click(within(card).getByRole('button', { name: 'Reject application 7' }))
    expect(await within(card).findByText('A reason of at least 3 characters is required.')).toBeTruthy()
    expect(put).not.toHaveBeenCalled()
  })

  it("shows the server's refusal: a violation on the field, anything else for the form", async () => {
    const { failNext, card } = await renderQueue([item(7)])
    const reason = within(card).getByLabelText('Reason for the decision', { exact: false })
    fireEvent.change(reason, { target: { value: 'Looks fine' } })
    failNext({
      status: 400,
      code: 'validationError',
      message: 'Invalid input.',
      violations: [{ propertyPath: 'reason', message: 'At most 500 characters.' }],
    })
    fireEvent.click(within(card).getByRole('button', { name: 'Approve application 7' }))
    expect(await within(card).findByText('At most 500 characters.')).toBeTruthy()

    failNext({
      status: 409,
      code: 'applicationStatus',
      message: 'Only an application waiting for manual verification can be decided here.',
      violations: [],
    })
    fireEvent.click(within(card).getByRole('button', { name: 'Reject application 7' }))
    expect(
      await within(card).findByText(
        'Only an application waiting for manual verification can be decided here.',
      ),
    ).toBeTruthy()
  })

  it('says the decision was not saved when the call fails without an answer', async () => {
    const { failNext, card } = await renderQueue([item(7)])
    fireEvent.change(within(card).getByLabelText('Reason for the decision', { exact: false }), {
      target: { value: 'Payslip checked by phone.' },
    })
    failNext(new TypeError('Failed to fetch'))
    fireEvent.click(within(card).getByRole('button', { name: 'Approve application 7' }))
    expect(await within(card).findByText('The decision was not saved. Please try again.')).toBeTruthy()
    expect(within(card).queryByText('This list could not be loaded.')).toBeNull()
  })
})

describe('<Outbox>', () => {
  it('lists the newest messages and filters them by recipient', async () => {
    const page = vi.fn(async (_path: string, options: { query: { recipient?: string } }) => ({
      items:
        options.query.recipient === '09191234567'
          ? [
              {
                id: 2,
                channel: 'sms',
                recipient: '09191234567',
                subject: null,
                body: 'Your Hiram code is 123.',
                purpose: 'agreement',
                createdAt: '2026-11-24T02:00:00.000Z',
              },
            ]
          : [],
      page: 1,
      perPage: 20,
      total: 1,
      count: 1,
      totalPages: 1,
    }))
    render(
      <Harness api={withCall({ page })}>
        <Outbox />
      </Harness>,
    )
    expect(await screen.findByText('No messages.')).toBeTruthy()
    fireEvent.change(screen.getByRole('searchbox', { name: 'Mobile number or e-mail' }), {
      target: { value: ' 09191234567 ' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Show messages' }))
    expect(await screen.findByText('Your Hiram code is 123.')).toBeTruthy()
    expect(screen.getByText('Nov 24, 2026, 10:00')).toBeTruthy()
    // The query as the wire carries it: text.
    expect(page).toHaveBeenLastCalledWith('/private/back-office/outbox', {
      signal: expect.any(AbortSignal),
      query: { recipient: '09191234567', perPage: '20' },
    })
  })
})
