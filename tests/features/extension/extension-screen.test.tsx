// @vitest-environment happy-dom
/**
 * /profile/rollover/{id} (issue 17 item 5): extending the loan against a fake of the issue 17 server
 * (harness.tsx). Without an id the best available choice is offered; the client chooses, reviews what it costs
 * and when the new due date takes effect, signs with the SMS code and pays the fee; when the fee posts, the page
 * says the loan is extended and shows the new due date. Refusals say why: the rollover's refusal when it is not
 * available, the API's 409 message when a call is refused.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Rollover } from '../../../domain/contract/servicing-answers'
import { ExtensionScreen } from '../../../src/features/extension/extension-screen'
import { requestedIdOf } from '../../../src/features/extension/texts'
import { messages } from '../../support/messages'
import { cheap, expensive, expired, inEffect, maxCount, refused, signed } from './fixtures'
import {
  applicationPath,
  CHOOSE,
  conflict,
  documentPath,
  downloadPath,
  type FakeServerOptions,
  fakeServer,
  Harness,
  INTENTION,
} from './harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}))

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const t = messages.application.extension

function renderPage(
  rollovers: Rollover[] = [cheap(), expensive()],
  {
    requestedId = null,
    pollMs = 30,
    ...options
  }: FakeServerOptions & { requestedId?: number | null; pollMs?: number } = {},
) {
  const server = fakeServer(rollovers, options)
  render(
    <Harness api={server.api}>
      <ExtensionScreen requestedId={requestedId} pollMs={pollMs} />
    </Harness>,
  )
  return server
}

const figure = (name: string) => document.querySelector(`[data-figure="${name}"] dd`)?.textContent
const click = (name: string | RegExp) => fireEvent.click(screen.getByRole('button', { name }))
const currentStep = () => document.querySelector('[aria-current="step"]')?.getAttribute('data-step')

async function chooseAndReview(server: ReturnType<typeof renderPage>, option?: RegExp) {
  if (option) fireEvent.click(await screen.findByRole('radio', { name: option }))
  else await screen.findByRole('radio', { name: /7 more days/ })
  click('Continue')
  await screen.findByRole('heading', { name: 'Review what it costs' })
  return server
}

async function sign(code = '123') {
  click('Continue to sign')
  click('Prepare my documents and send the code')
  await screen.findByText(t.sign.codeSent)
  fireEvent.change(screen.getByLabelText('Code from the SMS'), { target: { value: code } })
  click('Sign the extension')
}

describe('<ExtensionScreen>: choosing', () => {
  it('without an id, the cheapest available extension is chosen for you; each option is a labelled radio', async () => {
    renderPage([expensive(), cheap()])
    const week = (await screen.findByRole('radio', { name: '7 more days for ₱350.00' })) as HTMLInputElement
    const month = screen.getByRole('radio', { name: '30 more days for ₱1,500.00' }) as HTMLInputElement
    expect(week.checked).toBe(true)
    expect(month.checked).toBe(false)
    expect(screen.getByText(t.choose.cheapest)).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: 'Extend your loan' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'How many days do you want to add?' })).toBeTruthy()
    // Each option says its new due date; the loan's due date now is above.
    expect(week.getAttribute('aria-describedby')).toBeTruthy()
    expect(screen.getByText('New due date: Dec 08, 2026')).toBeTruthy()
    expect(figure('due-date-now')).toBe('Dec 01, 2026')
    expect(figure('extensions-used')).toBe('0 of 3')
    expect(currentStep()).toBe('choose')
    expect(within(screen.getByRole('list', { name: t.stepsLabel })).getAllByRole('listitem')).toHaveLength(4)
  })

  it('with an id, that extension is chosen', async () => {
    renderPage([cheap(), expensive()], { requestedId: 12 })
    const month = (await screen.findByRole('radio', { name: /30 more days/ })) as HTMLInputElement
    expect(month.checked).toBe(true)
  })

  it('an extension the server refuses is shown disabled with its refusal', async () => {
    renderPage([
      cheap(),
      refused(expensive, { code: 'totalCap', message: 'This fee would exceed the cost cap.' }),
    ])
    const month = (await screen.findByRole('radio', { name: /30 more days/ })) as HTMLInputElement
    expect(month.disabled).toBe(true)
    expect(screen.getByText('This fee would exceed the cost cap.')).toBeTruthy()
  })

  it('an id that is not offered says so and offers the best choice', async () => {
    renderPage([cheap(), expensive()], { requestedId: 99 })
    expect(await screen.findByText(t.notices.notOffered)).toBeTruthy()
    expect(((await screen.findByRole('radio', { name: /7 more days/ })) as HTMLInputElement).checked).toBe(
      true,
    )
  })

  it('an id whose fee was not paid in time says so', async () => {
    renderPage([expired(cheap), expensive()], { requestedId: 11 })
    expect(await screen.findByText(t.notices.expired)).toBeTruthy()
  })

  it('a refused choice shows the API’s 409 message and stays on choosing', async () => {
    const server = renderPage([cheap(), expensive()], {
      refuse: {
        choose: conflict('extensionNotAvailable', 'Extensions are offered until 5 days after the due date.'),
      },
    })
    await screen.findByRole('radio', { name: /7 more days/ })
    click('Continue')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('Extensions are offered until 5 days after the due date.')
    expect(alert.getAttribute('data-error-key')).toBe('extensionNotAvailable')
    expect(server.sent(CHOOSE)).toEqual([{ type: 'cheap' }])
    expect(currentStep()).toBe('choose')
  })

  it('when none can be taken, the page says why and links on', async () => {
    renderPage([refused(cheap), refused(expensive)])
    expect(await screen.findByRole('heading', { name: t.unavailable.title })).toBeTruthy()
    expect(screen.getAllByText(maxCount.message)).toHaveLength(1)
    expect(screen.getByRole('link', { name: 'Go to My loan' }).getAttribute('href')).toBe('/profile/my-loan')
    expect(screen.queryByRole('radio')).toBeNull()
  })
})

describe('<ExtensionScreen>: review, sign, pay', () => {
  it('choose -> review -> sign -> pay -> in effect when the fee posts, with the new due date', async () => {
    const server = renderPage()
    await chooseAndReview(server, /30 more days/)
    expect(server.sent(CHOOSE)).toEqual([{ type: 'expensive' }])
    expect(server.sent(applicationPath(12))).toHaveLength(1)
    // The disclosure's figures, and when the new due date takes effect.
    expect(currentStep()).toBe('review')
    expect(figure('days')).toBe('30 days')
    expect(figure('fee')).toBe('₱1,500.00')
    expect(figure('due-date-now')).toBe('Dec 01, 2026')
    expect(figure('new-due-date')).toBe('Dec 31, 2026')
    expect(figure('payable-until')).toBe('Nov 25, 2026')
    expect(figure('legal-room')).toBe('₱4,000.00')
    expect(figure('legal-room-after')).toBe('₱2,500.00')
    expect(document.querySelector('[data-takes-effect]')?.textContent).toBe(
      'Your new due date, Dec 31, 2026, takes effect when your fee of ₱1,500.00 posts. Until then your loan stays due on Dec 01, 2026.',
    )

    await sign()
    // Signed: the fee is payable, through a channel.
    await screen.findByRole('heading', { name: 'Pay the extension fee' })
    expect(server.sent(documentPath(12))).toEqual([{}, { code: '123' }])
    expect(currentStep()).toBe('pay')
    expect(screen.getByText('Signed. Pay ₱1,500.00 by Nov 25, 2026 to extend your loan.')).toBeTruthy()
    expect(document.querySelector('[data-takes-effect]')?.textContent).toBe(
      'Your due date moves from Dec 01, 2026 to Dec 31, 2026 when your fee posts.',
    )
    fireEvent.click(screen.getByRole('radio', { name: 'GCash' }))
    click('Show me how to pay')
    await screen.findByRole('heading', { name: 'Pay ₱1,500.00 with GCash' })
    expect(server.sent(INTENTION)).toEqual([{ purpose: 'extension_fee', channel: 'gcash' }])
    expect(screen.getByRole('link', { name: 'Continue to GCash' }).getAttribute('href')).toBe(
      '/sandbox/checkout/chg_abcdefgh12345678',
    )

    // The fee posts: the payment watch sees it, a toast says so, the extension is in effect.
    server.postFee()
    expect(
      await screen.findByRole('heading', { name: 'Your loan is extended' }, { timeout: 3000 }),
    ).toBeTruthy()
    expect(
      screen.getByText('Your extension fee of ₱1,500.00 posted. Your new due date is Dec 31, 2026.'),
    ).toBeTruthy()
    expect(await screen.findByText('Payment of ₱1,500.00 received')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to My loan' })).toBeTruthy()
  })

  it('the documents rendered with the code can be read and downloaded', async () => {
    const server = renderPage()
    await chooseAndReview(server)
    click('Continue to sign')
    click('Prepare my documents and send the code')
    const read = await screen.findByRole('button', { name: 'Read: Extension agreement (PDF)' })
    expect(
      screen.getByRole('button', { name: 'Download: Truth in Lending disclosure statement (PDF)' }),
    ).toBeTruthy()
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    URL.createObjectURL = vi.fn(() => 'blob:pdf')
    URL.revokeObjectURL = vi.fn()
    fireEvent.click(read)
    await waitFor(() => expect(open).toHaveBeenCalledWith('blob:pdf', '_blank', 'noopener'))
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toContain(downloadPath(501))
  })

  it('a wrong code is said on the code field; the right one signs', async () => {
    const server = renderPage()
    await chooseAndReview(server)
    await sign('999')
    const error = await screen.findByText(t.errors.codeIncorrect)
    expect(error.getAttribute('data-error-key')).toBe('codeIncorrect')
    expect(screen.getByLabelText('Code from the SMS').getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(screen.getByLabelText('Code from the SMS'), { target: { value: '123' } })
    click('Sign the extension')
    expect(await screen.findByRole('heading', { name: 'Pay the extension fee' })).toBeTruthy()
  })

  it('a code that is not 3 digits is refused before any call', async () => {
    const server = renderPage()
    await chooseAndReview(server)
    click('Continue to sign')
    fireEvent.change(screen.getByLabelText('Code from the SMS'), { target: { value: '12' } })
    click('Sign the extension')
    expect(await screen.findByText(t.errors['error-verification-code'])).toBeTruthy()
    expect(server.sent(documentPath(11))).toEqual([])
  })

  it('a refused code request shows the API’s 409 message', async () => {
    const server = renderPage([cheap(), expensive()], {
      refuse: { code: conflict('extensionExpired', 'The fee was payable until 2026-11-25; choose again.') },
    })
    await chooseAndReview(server)
    click('Continue to sign')
    click('Prepare my documents and send the code')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The fee was payable until 2026-11-25; choose again.',
    )
  })

  it('back goes from sign to review and from review to choose', async () => {
    const server = renderPage()
    await chooseAndReview(server)
    click('Continue to sign')
    click('Back to the review')
    await screen.findByRole('heading', { name: 'Review what it costs' })
    click('Choose another extension')
    expect(await screen.findByRole('heading', { name: 'Choose your extension' })).toBeTruthy()
  })

  it('paying needs a channel; another channel can be chosen after', async () => {
    renderPage([signed(cheap), expensive()], { requestedId: 11 })
    await screen.findByRole('heading', { name: 'Pay the extension fee' })
    click('Show me how to pay')
    const error = await screen.findByText('Choose how you want to pay.')
    expect(error.getAttribute('data-error-key')).toBe('error-channel-required')
    fireEvent.click(screen.getByRole('radio', { name: '7-Eleven (CLiQQ)' }))
    click('Show me how to pay')
    await screen.findByRole('heading', { name: /Pay ₱350.00 with 7-Eleven/ })
    click('Choose another channel')
    expect(
      ((await screen.findByRole('radio', { name: '7-Eleven (CLiQQ)' })) as HTMLInputElement).checked,
    ).toBe(true)
  })

  it('an extension signed earlier opens on paying, without an id too', async () => {
    renderPage([cheap(), signed(expensive)])
    expect(await screen.findByRole('heading', { name: 'Pay the extension fee' })).toBeTruthy()
    expect(screen.getByText('Signed. Pay ₱1,500.00 by Nov 25, 2026 to extend your loan.')).toBeTruthy()
  })

  it('an extension already in effect says so', async () => {
    renderPage([inEffect(cheap), expensive()], { requestedId: 11 })
    expect(await screen.findByRole('heading', { name: 'Your loan is extended' })).toBeTruthy()
    expect(
      screen.getByText('Your extension fee of ₱350.00 posted. Your new due date is Dec 08, 2026.'),
    ).toBeTruthy()
  })
})

describe('requestedIdOf', () => {
  it('reads the optional id of the address', () => {
    expect(requestedIdOf(undefined)).toBeNull()
    expect(requestedIdOf('')).toBeNull()
    expect(requestedIdOf('12')).toBe(12)
    expect(requestedIdOf('abc')).toBe(0)
    expect(requestedIdOf('012')).toBe(0)
  })
})
