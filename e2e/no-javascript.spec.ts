/**
 * Issue 21 item 2, "Done when": the home page shows its heading and the calculator with JavaScript disabled. The
 * server renders the public pages (server/http/prerender.ts, docs/decisions/0040); the calculator's sliders are
 * real form controls, usable with the keyboard before any script runs. With JavaScript on, the same HTML is
 * hydrated: no mismatch, no blocked inline block, and the calculator prices a new amount as before.
 */
import type { ConsoleMessage, Page } from '@playwright/test'
import { expect, test } from './fixtures'

/** The browser's complaints: CSP refusals, hydration mismatches, uncaught errors. */
function collectProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || /Content Security Policy|hydrat/i.test(message.text()))
      problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  return problems
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the home page shows its heading and the calculator at its default offer', async ({ page }) => {
    const problems = collectProblems(page)
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Loan calculator' })).toBeVisible()
    const amount = page.getByRole('slider', { name: 'Amount' })
    const term = page.getByRole('slider', { name: 'Term' })
    await expect(amount).toBeVisible()
    await expect(term).toBeVisible()
    // The default offer's figures, priced by the server.
    await expect(page.locator('[data-stat="principal"] .calculator__value')).toHaveText(/₱\s?\d/)
    await expect(page.locator('[data-stat="repay-date"] .calculator__value')).toHaveText(/\d/)
    // A real range input: the keyboard moves it with no script at all.
    const before = await amount.inputValue()
    await amount.focus()
    await page.keyboard.press('ArrowRight')
    await expect(amount).not.toHaveValue(before)
    // Styled by the inline CSS (allowed by its hash): the header is laid out, not raw markup.
    const display = await page.locator('.site-header').evaluate((el) => getComputedStyle(el).display)
    expect(display).not.toBe('inline')
    expect(problems).toEqual([])
  })

  for (const path of ['/about', '/faq', '/how-to-apply', '/repay', '/documents']) {
    test(`${path} shows its content`, async ({ page }) => {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/\w/)
      await expect(page.getByRole('navigation', { name: 'Main' }).first()).toBeVisible()
    })
  }
})

test.describe('with JavaScript', () => {
  test('the server page is hydrated: no mismatch, and the calculator prices a new amount', async ({
    page,
  }) => {
    const problems = collectProblems(page)
    // The server's nodes, marked before any script of the page runs: hydration keeps them, a client render
    // (what React falls back to after a mismatch) would replace them.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        for (const node of document.querySelectorAll('h1, input[type="range"]'))
          (node as HTMLElement & { fromServer?: boolean }).fromServer = true
      })
    })
    await page.goto('/')
    const amount = page.getByRole('slider', { name: 'Amount' })
    await expect(amount).toBeVisible()
    const principal = page.locator('[data-stat="principal"] .calculator__value')
    const first = await principal.textContent()
    // Interactive once hydrated: a key moves the slider and the offer follows.
    await expect(async () => {
      await amount.focus()
      await page.keyboard.press('ArrowRight')
      await expect(principal).not.toHaveText(first ?? '', { timeout: 2_000 })
    }).toPass({ timeout: 20_000 })
    const kept = await page.evaluate(() =>
      [...document.querySelectorAll('h1, input[type="range"]')].map(
        (node) => (node as HTMLElement & { fromServer?: boolean }).fromServer === true,
      ),
    )
    expect(kept).toEqual([true, true, true])
    expect(problems).toEqual([])
  })

  test('Apply now pressed before the app runs takes the visitor to registration with the figures chosen', async ({
    page,
    context,
  }) => {
    const { calculator, release } = await moveAmountBeforeTheApp(page)
    // The server's button is a real form's: the browser goes on by itself.
    await calculator.getByRole('button', { name: 'Apply now' }).click()
    await expect(page).toHaveURL(/\/registration\?amount=510000&term=\d+/)
    release()
    // The app keeps the figures as its own submit does, and takes them out of the address.
    await expect(page).toHaveURL(/\/registration$/, { timeout: 30_000 })
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible()
    const cookie = (await context.cookies()).find((c) => c.name === 'calculator')
    expect(JSON.parse(decodeURIComponent(cookie!.value))).toMatchObject({ amount: 510_000 })
  })

  test('what a visitor does before the app runs is kept when it hydrates', async ({ page }) => {
    // The page's own scripts are held back until the visitor has moved the slider, ticked the package off and
    // typed a promo code into the server's HTML: a slow phone on a slow network.
    const { calculator, amount, release } = await moveAmountBeforeTheApp(page)
    const fee = calculator.getByRole('checkbox', { name: 'Add the borrowers advantage package' })
    const feeWas = await fee.isChecked()
    await fee.click()
    const promo = calculator.getByRole('textbox', { name: 'Promo code' })
    await promo.fill('ABC123')
    release()
    // Hydrated: the machine took over what the controls held.
    await expect(amount).toHaveAttribute('aria-valuetext', 'PHP 5 100.00', { timeout: 30_000 })
    await expect(calculator.locator('[data-stat="principal"] .calculator__value')).toHaveText('₱5 100.00')
    await expect(fee).toBeChecked({ checked: !feeWas })
    await expect(promo).toHaveValue('ABC123')
  })
})

/**
 * Home as a slow phone on a slow network sees it: the page's own scripts are held back (until `release`), and
 * the visitor moves the amount one step on the server's HTML.
 */
async function moveAmountBeforeTheApp(page: Page) {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  // Deferred scripts hold DOMContentLoaded back: the page is read as soon as it has arrived.
  await page.goto('/', { waitUntil: 'commit' })
  const calculator = page.getByRole('region', { name: 'Loan calculator' }).last()
  const amount = calculator.getByRole('slider', { name: 'Amount' })
  await expect(amount).toHaveAttribute('aria-valuetext', 'PHP 5 000.00')
  await amount.focus()
  await page.keyboard.press('ArrowRight')
  await expect(amount).toHaveValue('510000')
  return { calculator, amount, release }
}
