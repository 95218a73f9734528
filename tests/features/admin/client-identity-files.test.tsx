// @vitest-environment happy-dom
/**
 * The client file's "ID and uploaded files" part (/admin/clients/$id, issue 19 item 3) against a fake API: the ID
 * entered with the number as the server masked it, the identity checks, and each uploaded file opened only on
 * demand (each view is audited), an image shown with its alt text, a PDF as a link.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DeskIdentity } from '../../../domain/contract/clients'
import { IdentityFiles } from '../../../src/features/admin/clients-desk'
import { routedApi } from '../../support/fake-api'
import { Harness } from '../application/harness'

afterEach(cleanup)
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:photo')
  URL.revokeObjectURL = vi.fn()
})

const FRONT = '0b7c6f1e-5d1a-4c43-9f3e-1a2b3c4d5e6f'
const PAYSLIP = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'

const identity: DeskIdentity = {
  document: {
    documentType: 'SSS',
    documentNumber: '••••5678',
    expiryDate: null,
    finishedAt: '2026-11-24T01:30:00.000Z',
  },
  checks: [
    {
      id: 'c1',
      provider: 'sandbox',
      status: 'approved',
      reason: null,
      createdAt: '2026-11-24T01:31:00.000Z',
      decidedAt: '2026-11-24T01:32:00.000Z',
    },
  ],
  uploads: [
    {
      id: FRONT,
      category: 'id_document',
      kind: 'front',
      mime: 'image/jpeg',
      size: 204_800,
      capturedAt: null,
      createdAt: '2026-11-24T01:29:00.000Z',
    },
    {
      id: PAYSLIP,
      category: 'document',
      kind: 'payslip',
      mime: 'application/pdf',
      size: 51_200,
      capturedAt: null,
      createdAt: '2026-11-24T01:40:00.000Z',
    },
  ],
}

function renderPart() {
  const fake = routedApi({
    [`GET /private/back-office/clients/7/uploads/${FRONT}`]: new Blob([new Uint8Array([0xff, 0xd8, 0xff])], {
      type: 'image/jpeg',
    }),
    [`GET /private/back-office/clients/7/uploads/${PAYSLIP}`]: new Blob(['%PDF-'], {
      type: 'application/pdf',
    }),
  })
  render(
    <Harness api={fake.api}>
      <IdentityFiles id={7} identity={identity} />
    </Harness>,
  )
  return fake
}

describe('<IdentityFiles>', () => {
  it('shows the ID with its masked number and the checks, and loads no file by itself', () => {
    const { calls } = renderPart()
    const part = screen.getByRole('region', { name: 'ID and uploaded files' })
    expect(within(part).getByText('SSS')).toBeTruthy()
    expect(within(part).getByText('••••5678')).toBeTruthy()
    expect(within(part).getByText('Nov 24, 2026, 09:30')).toBeTruthy()
    expect(within(part).getByText('Approved')).toBeTruthy()
    expect(within(part).getByRole('list', { name: 'Uploaded files, newest first' })).toBeTruthy()
    expect(screen.queryByRole('img')).toBeNull()
    expect(calls).toEqual([])
  })

  it('shows an ID photo on demand, with its alt text, and hides it again', async () => {
    const { calls } = renderPart()
    fireEvent.click(screen.getByRole('button', { name: 'Show ID photo (front)' }))
    const photo = await screen.findByRole('img', { name: 'ID photo (front), uploaded Nov 24, 2026, 09:29' })
    expect(photo.getAttribute('src')).toBe('blob:photo')
    expect(calls.map((c) => c.path)).toEqual([`/private/back-office/clients/7/uploads/${FRONT}`])
    fireEvent.click(screen.getByRole('button', { name: 'Hide ID photo (front)' }))
    expect(screen.queryByRole('img')).toBeNull()
    expect(screen.getByRole('button', { name: 'Show ID photo (front)' })).toBeTruthy()
  })

  it('offers a PDF document as a link once fetched', async () => {
    renderPart()
    fireEvent.click(screen.getByRole('button', { name: 'Show Supporting document (payslip)' }))
    const link = await screen.findByRole('link', { name: 'Open Supporting document (payslip) (PDF)' })
    expect(link.getAttribute('href')).toBe('blob:photo')
  })
})
