// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { DocumentVerification } from '../../../src/features/registration/document-verification'
import { renderWithApp, scriptedApi } from './harness'

afterEach(cleanup)

const id = '0b7f4f3e-8c1e-4a57-9a57-1f0c2d3e4f50'
const created = (url: string) => ({ id, url, status: 'created', reason: null })
const sandboxUrl = `/registration/document-verification?sandboxSession=${id}`
const none = () => {
  throw new ApiError(404, '/web/private/client/veriff/session', 'notFound', 'Not found', [])
}

function outcome() {
  return document.querySelector('[data-outcome]')?.getAttribute('data-outcome') ?? null
}

describe('<DocumentVerification>', () => {
  it('starts a sandbox session, explains the test data, and shows approval', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/veriff/session': none,
      'POST /private/client/veriff/session': created(sandboxUrl),
      [`GET /private/client/veriff/decision/${id}`]: {
        id,
        url: sandboxUrl,
        status: 'approved',
        reason: null,
      },
    })
    const { journey } = renderWithApp(api, <DocumentVerification />)
    fireEvent.click(await screen.findByRole('button', { name: /start identity check/i }))
    await screen.findByText(/sandbox test data/i)
    expect(screen.getByText(/containing "Declined"/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /check the result/i }))
    await waitFor(() => expect(outcome()).toBe('approved'))
    expect(screen.getByText(/identity is confirmed/i)).toBeTruthy()
    expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' })
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /private/client/veriff/session')
  })

  it('asks for a new session after a resubmission request, with the reason', async () => {
    const { api } = scriptedApi({
      'GET /private/client/veriff/session': created(sandboxUrl),
      [`GET /private/client/veriff/decision/${id}`]: {
        id,
        url: sandboxUrl,
        status: 'resubmission_requested',
        reason: 'Sandbox: the photo of the document is blurred.',
      },
    })
    const { journey } = renderWithApp(api, <DocumentVerification />)
    fireEvent.click(await screen.findByRole('button', { name: /check the result/i }))
    await waitFor(() => expect(outcome()).toBe('resubmission_requested'))
    expect(screen.getByText(/photo of the document is blurred/)).toBeTruthy()
    expect(screen.getByRole('button', { name: /start again/i })).toBeTruthy()
    expect(journey.actor.send).not.toHaveBeenCalled()
  })

  it('shows a decline clearly and lets the journey move on', async () => {
    const { api } = scriptedApi({
      'GET /private/client/veriff/session': created(sandboxUrl),
      [`GET /private/client/veriff/decision/${id}`]: {
        id,
        url: sandboxUrl,
        status: 'declined',
        reason: null,
      },
    })
    const { journey } = renderWithApp(api, <DocumentVerification />)
    fireEvent.click(await screen.findByRole('button', { name: /check the result/i }))
    await waitFor(() => expect(outcome()).toBe('declined'))
    expect(screen.getByText(/could not confirm your identity/i)).toBeTruthy()
    expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' })
  })

  it('links to a real provider and hides the sandbox help; a pending decision says so', async () => {
    const url = 'https://magic.veriff.me/v/abc'
    const { api } = scriptedApi({
      'GET /private/client/veriff/session': created(url),
      [`GET /private/client/veriff/decision/${id}`]: created(url),
    })
    renderWithApp(api, <DocumentVerification />)
    expect((await screen.findByRole('link', { name: /open the identity check/i })).getAttribute('href')).toBe(
      url,
    )
    expect(screen.queryByText(/sandbox test data/i)).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: /check the result/i }))
    await waitFor(() => expect(outcome()).toBe('pending'))
  })
})
