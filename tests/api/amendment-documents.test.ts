/**
 * The amendment documents of issue 17 (extension and payment schedule agreements and their Truth in Lending
 * disclosures), without a database: real PDFs that pdf-lib loads back, the same bytes for the same inputs, and
 * the figures the borrower signs for printed in them.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { formatPhpText } from '../../domain/format'
import {
  amendmentDocumentName,
  amendmentRates,
  drawnLines,
  type ExtensionDocumentInput,
  extensionAgreementLines,
  extensionDisclosureLines,
  renderExtensionAgreement,
  renderExtensionDisclosure,
  renderScheduleAgreement,
  renderScheduleDisclosure,
  type ScheduleDocumentInput,
  scheduleAgreementLines,
  scheduleDisclosureLines,
} from '../../server/services/servicing/amendment-documents'
import { pdfText } from './lending-helpers'

const renderedAt = new Date('2026-11-22T02:00:00Z')

// A ₱10,000 loan with ₱6,000 principal still owed, extended 30 days at 5.70%.
const extension: ExtensionDocumentInput = {
  loanNumber: 'L00000012',
  borrower: 'Juan Dela Cruz',
  renderedAt,
  type: 'expensive',
  term: 30,
  fee: 342_00,
  principalBasis: 6_000_00,
  principal: 10_000_00,
  dueDateBefore: '2026-11-25',
  dueDateAfter: '2026-12-25',
  outstanding: 6_120_50,
  extensionNumber: 2,
  maxCount: 5,
  legalRoomAfter: 8_118_00,
  payableUntil: '2026-11-24',
}

// ₱6,000 principal owed, 0.10% a day for 60 days: ₱360 interest, 2 monthly instalments.
const schedule: ScheduleDocumentInput = {
  loanNumber: 'L00000013',
  borrower: 'Maria Santos',
  renderedAt,
  type: 'monthly',
  owed: 6_250_00,
  principalBasis: 6_000_00,
  interest: 360_00,
  interestPpmPerDay: 1_000,
  total: 6_610_00,
  days: 60,
  instalments: [
    { seq: 1, dueDate: '2026-12-22', amount: 3_305_00, interest: 180_00 },
    { seq: 2, dueDate: '2027-01-21', amount: 3_305_00, interest: 180_00 },
  ],
  legalRoom: 8_000_00,
}

/** The PDF's text with wrapped lines joined: phrases are found across line breaks. */
const textOf = async (bytes: Uint8Array) => (await pdfText(bytes)).replace(/\s+/g, ' ')

async function loaded(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes)
  return { pages: doc.getPageCount(), title: doc.getTitle(), created: doc.getCreationDate() }
}

describe('amendment rates', () => {
  it('are the cost on the principal owed over the amendment’s own days, exact to the hundredth', () => {
    // 342 / 6000 × 30 / 30 = 5.70% a month; × 365 / 30 = 69.35% a year.
    expect(amendmentRates(342_00, 6_000_00, 30)).toEqual({ monthly: 570, yearly: 6935 })
    // 360 / 6000 × 30 / 60 = 3.00% a month; × 365 / 60 = 36.50% a year.
    expect(amendmentRates(360_00, 6_000_00, 60)).toEqual({ monthly: 300, yearly: 3650 })
    // Half up: 1 / 3 × 30 / 7 = 142.857…% -> 142.86%.
    expect(amendmentRates(1, 3, 7).monthly).toBe(14286)
    // Nothing owed or no days: 0, never a division by zero.
    expect(amendmentRates(100, 0, 30)).toEqual({ monthly: 0, yearly: 0 })
    expect(amendmentRates(100, 100, 0)).toEqual({ monthly: 0, yearly: 0 })
  })
})

describe('extension documents', () => {
  it('load with pdf-lib with their title and date, on one page, the same bytes for the same input', async () => {
    for (const [render, title] of [
      [renderExtensionAgreement, 'Extension Agreement L00000012 (2)'],
      [renderExtensionDisclosure, 'Disclosure Statement on Loan Transaction: extension 2 of L00000012'],
    ] as const) {
      const bytes = await render(extension)
      const doc = await loaded(bytes)
      expect(doc.pages).toBe(1)
      expect(doc.title).toBe(title)
      expect(doc.created?.toISOString()).toBe(renderedAt.toISOString())
      expect(Buffer.from(await render({ ...extension })).equals(Buffer.from(bytes))).toBe(true)
      // Another figure, other bytes: what is signed is what was shown.
      expect(Buffer.from(await render({ ...extension, fee: 341_99 })).equals(Buffer.from(bytes))).toBe(false)
    }
  })

  it('the agreement amends the loan agreement, moves the due date and prices the added days', async () => {
    const text = await textOf(await renderExtensionAgreement(extension))
    expect(text).toContain('EXTENSION AGREEMENT')
    expect(text).toContain('Juan Dela Cruz')
    expect(text).toMatch(/amends the loan agreement of loan L00000012, which otherwise stays in force/)
    expect(text).toContain('New due date: Dec 25, 2026')
    expect(text).toContain('Due date before the extension: Nov 25, 2026')
    expect(text).toContain(`Extension fee: ${formatPhpText(342_00)}`)
    expect(text).toContain(formatPhpText(6_000_00))
    expect(text).toContain('5.70% per month')
    expect(text).toContain('whole price of the added days')
    expect(text).toContain('no interest accrues on top')
    expect(text).toContain('Nov 24, 2026')
    expect(text).toContain(formatPhpText(8_118_00))
    expect(text).toContain('2 of at most 5')
    expect(text).toContain('one-time code')
  })

  it('the disclosure itemises the fee, shows both rates and names the renewal', async () => {
    const text = await textOf(await renderExtensionDisclosure(extension))
    expect(text).toContain('DISCLOSURE STATEMENT ON LOAN TRANSACTION')
    expect(text).toContain('Renewal: extension 2 of loan L00000012')
    expect(text).toContain('Republic Act No. 3765')
    expect(text).toContain(`2. Amount financed (principal still owed): ${formatPhpText(6_000_00)}`)
    expect(text).toContain(`a. Extension fee (30 days): ${formatPhpText(342_00)}`)
    expect(text).toContain(`b. Interest for the added days: ${formatPhpText(0)}`)
    expect(text).toContain(`Total finance charges: ${formatPhpText(342_00)}`)
    expect(text).toContain(formatPhpText(6_120_50))
    expect(text).toContain('5.70% per month; 69.35% per year')
    expect(text).toContain('Dec 25, 2026')
    expect(text).toContain(formatPhpText(8_118_00))
    expect(text).toContain('5% per month of the overdue amount')
    expect(text).toContain('one-time code')
  })
})

describe('payment schedule documents', () => {
  it('load with pdf-lib with their title, on one page, the same bytes for the same input', async () => {
    for (const [render, title] of [
      [renderScheduleAgreement, 'Payment Schedule Agreement L00000013'],
      [renderScheduleDisclosure, 'Disclosure Statement on Loan Transaction: payment schedule of L00000013'],
    ] as const) {
      const bytes = await render(schedule)
      const doc = await loaded(bytes)
      expect(doc.pages).toBe(1)
      expect(doc.title).toBe(title)
      expect(Buffer.from(await render({ ...schedule })).equals(Buffer.from(bytes))).toBe(true)
    }
  })

  it('the agreement shows the table, the interest and that paying early saves the periods not started', async () => {
    const text = await textOf(await renderScheduleAgreement(schedule))
    expect(text).toContain('PAYMENT SCHEDULE AGREEMENT')
    expect(text).toContain('Maria Santos')
    expect(text).toMatch(/which otherwise stays in force/)
    expect(text).toContain(`1 | Dec 22, 2026 | ${formatPhpText(3_305_00)} | ${formatPhpText(180_00)}`)
    expect(text).toContain(`2 | Jan 21, 2027 | ${formatPhpText(3_305_00)} | ${formatPhpText(180_00)}`)
    expect(text).toContain(`Total | | ${formatPhpText(6_610_00)} | ${formatPhpText(360_00)}`)
    expect(text).toContain('0.10% a day')
    expect(text).toContain('3.00% per month')
    expect(text).toContain('2 monthly instalments')
    expect(text).toContain('saves the interest of the periods not yet started')
    expect(text).toContain(formatPhpText(8_000_00))
    expect(text).toContain(formatPhpText(7_640_00))
    expect(text).not.toContain('configured rate would charge')
  })

  it('the disclosure itemises the interest and shows both rates and the room', async () => {
    const text = await textOf(await renderScheduleDisclosure(schedule))
    expect(text).toContain('DISCLOSURE STATEMENT ON LOAN TRANSACTION')
    expect(text).toContain('Renewal: payment schedule (restructuring) of loan L00000013')
    expect(text).toContain(`1. Amount financed (principal still owed): ${formatPhpText(6_000_00)}`)
    expect(text).toContain(formatPhpText(6_250_00))
    expect(text).toContain(`Total finance charges: ${formatPhpText(360_00)}`)
    expect(text).toContain(`6. Total amount to be paid: ${formatPhpText(6_610_00)}`)
    expect(text).toContain('3.00% per month; 36.50% per year')
    expect(text).toContain('Dec 22, 2026')
    expect(text).toContain('when its period starts')
    expect(text).toContain('5% per month of the overdue amount')
  })

  it('says so when the caps lowered the interest below the configured rate', async () => {
    const capped = { ...schedule, interest: 300_00, total: 6_550_00, legalRoom: 300_00 }
    const text = await textOf(await renderScheduleDisclosure(capped))
    expect(text).toContain(
      `The configured rate would charge ${formatPhpText(360_00)}; the interest is lowered to ${formatPhpText(300_00)}`,
    )
    expect(text).toContain(`after its interest: ${formatPhpText(0)}`)
  })

  it('a long schedule flows onto a second page', async () => {
    const many = {
      ...schedule,
      instalments: Array.from({ length: 60 }, (_, i) => ({
        seq: i + 1,
        dueDate: '2027-01-01',
        amount: 100_00,
        interest: 6_00,
      })),
    }
    expect((await loaded(await renderScheduleAgreement(many))).pages).toBe(2)
  })
})

describe('layout', () => {
  it('every drawn line fits the page width, for long names and amounts too', async () => {
    const measure = await PDFDocument.create()
    const font = {
      regular: await measure.embedFont(StandardFonts.Helvetica),
      bold: await measure.embedFont(StandardFonts.HelveticaBold),
    }
    const long = {
      ...extension,
      borrower: 'Maria Concepcion Dela Cruz-Villanueva y Santiago',
      fee: 99_999_999_99,
      principalBasis: 99_999_999_99,
    }
    const all = [
      ...(await drawnLines(extensionAgreementLines(long))),
      ...(await drawnLines(extensionDisclosureLines(long))),
      ...(await drawnLines(scheduleAgreementLines({ ...schedule, borrower: long.borrower }))),
      ...(await drawnLines(scheduleDisclosureLines({ ...schedule, interestPpmPerDay: 1_234 }))),
    ]
    expect(all.length).toBeGreaterThan(100)
    expect(all.some((l) => l.text.startsWith('   '))).toBe(true)
    // The writer draws at x = 50 on a 595 pt wide page.
    for (const l of all)
      expect(font[l.bold ? 'bold' : 'regular'].widthOfTextAtSize(l.text, l.size), l.text).toBeLessThanOrEqual(
        495,
      )
    // An amount is never split from its currency.
    expect(all.filter((l) => /PHP$/.test(l.text))).toEqual([])
    // Wrapping loses no word.
    const words = (texts: string[]) => texts.join(' ').trim().split(/\s+/)
    expect(words((await drawnLines(extensionAgreementLines(long))).map((l) => l.text))).toEqual(
      words(extensionAgreementLines(long).flatMap((l) => (l === 'space' ? [] : [l.text]))),
    )
  })

  it('names each document for the API', () => {
    expect(amendmentDocumentName).toEqual({
      extension_agreement: 'Extension agreement',
      schedule_agreement: 'Payment schedule agreement',
      disclosure_statement: 'Disclosure statement (Truth in Lending Act)',
    })
  })
})
