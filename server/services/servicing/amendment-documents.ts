/**
 * The documents of a loan's amendments (issue 17): an extension (rollover) and a payment schedule each amend the
 * signed loan agreement, are signed with a one-time SMS code like it, and come with their own Truth in Lending
 * disclosure statement (RA 3765), since SEC MC 3 s.2022 and MC 14 s.2025 count extensions and restructurings as
 * renewals. Real PDFs drawn with the loan documents' writer (server/services/lending/documents.ts).
 *
 * Pure: the bytes depend only on the input (the PDF dates are set from `renderedAt`), so a signed file can be
 * rendered again and compared. Amounts are integer centavos; rates are computed with integers and printed with
 * 2 decimals. No personal data beyond the borrower's name.
 */

import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib'
import { formatDate, formatPhpText } from '../../../domain/format'
import { monthlyEirHundredths } from '../../../domain/pricing/disclosure'
import { newDocument } from '../lending/documents'

export interface ExtensionDocumentInput {
  /** 'L00000012'. */
  loanNumber: string
  /** The borrower's full name. */
  borrower: string
  renderedAt: Date
  type: 'cheap' | 'expensive'
  /** Days added to the due date. */
  term: number
  /** Centavos: the whole price of the added days (no interest on top). */
  fee: number
  /** The principal still owed, which the fee is priced on. */
  principalBasis: number
  /** The contract's principal. */
  principal: number
  /** YYYY-MM-DD, Manila. */
  dueDateBefore: string
  dueDateAfter: string
  /** What is owed today (centavos), unchanged by the extension except the fee paid with it. */
  outstanding: number
  /** 1 for the first extension of this loan. */
  extensionNumber: number
  maxCount: number
  /** 100% of principal minus every cost so far, to come, and this fee. */
  legalRoomAfter: number
  /** The last Manila day the fee can be paid. */
  payableUntil: string
}

export interface ScheduleDocumentInput {
  loanNumber: string
  borrower: string
  renderedAt: Date
  type: 'monthly' | 'semi_monthly'
  /** Centavos owed at the agreement (principal + interest to the end of the contract term + fees). */
  owed: number
  /** The principal still owed. */
  principalBasis: number
  /** The schedule's interest in all. */
  interest: number
  /** The configured rate, parts per million a day. */
  interestPpmPerDay: number
  /** owed + interest. */
  total: number
  /** The schedule's length in days. */
  days: number
  instalments: { seq: number; dueDate: string; amount: number; interest: number }[]
  /** The legal room before the schedule. */
  legalRoom: number
}

export type AmendmentDocumentType = 'extension_agreement' | 'schedule_agreement' | 'disclosure_statement'

/** What the API calls each document. */
export const amendmentDocumentName: Record<AmendmentDocumentType, string> = {
  extension_agreement: 'Extension agreement',
  schedule_agreement: 'Payment schedule agreement',
  disclosure_statement: 'Disclosure statement (Truth in Lending Act)',
}

// ---------------------------------------------------------------------------------------------------------------
// Rates, exact with integers.

const pct = (hundredths: number) =>
  `${Math.trunc(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}%`

/** Hundredths of a percent, rounded half up: cost / basis x period / days; 0 when there is no basis or no days. */
function rateHundredths(cost: number, basis: number, days: number, period: number): number {
  if (basis <= 0 || days <= 0 || cost <= 0) return 0
  if (period === 30) return monthlyEirHundredths(cost, basis, days)
  const num = BigInt(cost) * BigInt(period) * 10_000n
  const den = BigInt(basis) * BigInt(days)
  return Number((num * 2n + den) / (den * 2n))
}

/** The effective interest rate of an amendment over its own days, per month of 30 days and per year of 365. */
export function amendmentRates(cost: number, basis: number, days: number) {
  return { monthly: rateHundredths(cost, basis, days, 30), yearly: rateHundredths(cost, basis, days, 365) }
}

/** A rate given in parts per million as a percentage: 1000 -> '0.10%', 1234 -> '0.1234%'. */
function ppmPct(ppm: number): string {
  const frac = String(ppm % 10_000)
    .padStart(4, '0')
    .replace(/0{1,2}$/, '')
  return `${Math.trunc(ppm / 10_000)}.${frac}%`
}

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`

// ---------------------------------------------------------------------------------------------------------------
// Layout: a document is a list of lines, wrapped to the page width and drawn with the loan documents' writer.

export type DocLine = { text: string; bold?: boolean; size?: number } | 'space'

const SPACE = 'space' as const
const line = (text: string, options: { bold?: boolean; size?: number } = {}): DocLine => ({
  text,
  ...options,
})
const row = (label: string, value: string): DocLine => ({ text: `${label}: ${value}` })
const small = (text: string): DocLine => ({ text, size: 9 })

/** The writer draws at x = 50 on an A4 page (595 pt wide): the same margin on the right. */
const TEXT_WIDTH = 495

/** The fonts' metrics, from a document of their own (pdf-lib measures through an embedded font). */
let metrics: Promise<{ regular: PDFFont; bold: PDFFont }> | undefined
function fontMetrics() {
  metrics ??= PDFDocument.create().then(async (doc) => ({
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  }))
  return metrics
}

/** One line as drawn lines: wrapped at spaces to the text width, continuations indented 3 more. */
async function wrap(text: string, bold: boolean, size: number): Promise<string[]> {
  const font = (await fontMetrics())[bold ? 'bold' : 'regular']
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= TEXT_WIDTH
  if (fits(text)) return [text]
  const indent = `${/^ */.exec(text)?.[0] ?? ''}   `
  // Never between 'PHP' and its amount or inside a date: no break before a word starting with a digit.
  const words = text.trimStart().split(/ (?!\d)/)
  const out: string[] = []
  let current = text.slice(0, text.length - text.trimStart().length)
  let started = false
  for (const word of words) {
    const candidate = started ? `${current} ${word}` : `${current}${word}`
    if (started && !fits(candidate)) {
      out.push(current)
      current = `${indent}${word}`
    } else current = candidate
    started = true
  }
  out.push(current)
  return out
}

async function render(title: string, at: Date, lines: readonly DocLine[]): Promise<Uint8Array> {
  const { doc, w } = await newDocument(title, at)
  for (const l of lines) {
    if (l === SPACE) {
      w.space()
      continue
    }
    const size = l.size ?? 10
    for (const part of await wrap(l.text, l.bold ?? false, size)) w.line(part, { bold: l.bold, size })
  }
  return doc.save()
}

/** A document's lines as the PDF draws them, wrapped, with their style: readable without parsing the PDF. */
export async function drawnLines(
  lines: readonly DocLine[],
): Promise<{ text: string; bold: boolean; size: number }[]> {
  const drawn: { text: string; bold: boolean; size: number }[] = []
  for (const l of lines) {
    if (l === SPACE) continue
    const bold = l.bold ?? false
    const size = l.size ?? 10
    for (const text of await wrap(l.text, bold, size)) drawn.push({ text, bold, size })
  }
  return drawn
}

// ---------------------------------------------------------------------------------------------------------------
// Shared wording.

const lender = 'Hiram Lending'

const latePayment = (what: string): DocLine[] => [
  small(
    `Late payment: ${what} penalties never exceed 5% per month of the overdue amount, and interest, fees and penalties together never exceed 100% of the principal (SEC Memorandum Circular No. 3, s. 2022). Collection follows SEC Memorandum Circular No. 18, s. 2019.`,
  ),
]

const prepared = (at: Date): DocLine =>
  small(
    `Prepared on ${at.toISOString().slice(0, 10)} (UTC). Signed electronically with a one-time code sent by SMS.`,
  )

const renewalNote = small(
  'Extensions and restructurings count as renewals under SEC Memorandum Circular No. 3, s. 2022 and Memorandum Circular No. 14, s. 2025: the legal caps apply to this amendment as to a new loan (0.2% a day nominal interest, 12% a month effective interest rate, total cost at most 100% of the principal).',
)

// ---------------------------------------------------------------------------------------------------------------
// Extension.

/** The lines of an extension agreement. */
export function extensionAgreementLines(input: ExtensionDocumentInput): DocLine[] {
  const rates = amendmentRates(input.fee, input.principalBasis, input.term)
  return [
    line('EXTENSION AGREEMENT', { bold: true, size: 14 }),
    small(`Amendment of the loan agreement of loan ${input.loanNumber}`),
    SPACE,
    line(
      `This agreement is between ${lender} (the Lender) and ${input.borrower} (the Borrower). It amends the loan agreement of loan ${input.loanNumber}, which otherwise stays in force.`,
    ),
    row('Loan number', input.loanNumber),
    row('Extension', `${input.extensionNumber} of at most ${input.maxCount} for this loan`),
    SPACE,
    line('1. The extension', { bold: true }),
    row('   Days added', String(input.term)),
    row('   Due date before the extension', formatDate(input.dueDateBefore)),
    row('   New due date', formatDate(input.dueDateAfter)),
    line('2. The fee', { bold: true }),
    row('   Extension fee', formatPhpText(input.fee)),
    row('   Priced on the principal still owed', formatPhpText(input.principalBasis)),
    row('   Effective interest rate', `${pct(rates.monthly)} per month over the ${days(input.term)} added`),
    line(
      '   The fee is the whole price of the added days: no interest accrues on top of it for those days, and no other fee is charged for the extension.',
    ),
    line('3. Payment of the fee', { bold: true }),
    line(
      `   The Borrower pays the fee by ${formatDate(input.payableUntil)}. The extension takes effect when the fee is paid; if it is not paid by then, the extension lapses and the due date of the loan agreement stays.`,
    ),
    line('4. What is owed', { bold: true }),
    row('   Amount owed today', formatPhpText(input.outstanding)),
    line(
      `   The extension does not change it: the fee is paid on its own. What is owed is due on ${formatDate(input.dueDateAfter)} instead of ${formatDate(input.dueDateBefore)}, with any interest the loan agreement still charges for the days of its own term.`,
    ),
    line('5. Total cost', { bold: true }),
    line(
      `   Interest, fees and penalties together never exceed 100% of the principal (${formatPhpText(input.principal)}). After this fee, ${formatPhpText(input.legalRoomAfter)} of that room is left.`,
    ),
    small(
      '6. Late payment. Penalties are at most 5% per month of the overdue amount; all charges together never exceed 100% of the principal. Collection follows SEC Memorandum Circular No. 18, s. 2019.',
    ),
    small('7. Early repayment is allowed at any time without penalty.'),
    small('8. The Disclosure Statement on Loan Transaction for this extension is part of this agreement.'),
    small(
      '9. Personal data is processed under the Data Privacy Act (RA 10173) for the purposes consented to.',
    ),
    SPACE,
    line('The Borrower signs this agreement electronically with the one-time code sent by SMS.'),
  ]
}

/** The lines of an extension's disclosure statement. */
export function extensionDisclosureLines(input: ExtensionDocumentInput): DocLine[] {
  const rates = amendmentRates(input.fee, input.principalBasis, input.term)
  return [
    line('DISCLOSURE STATEMENT ON LOAN TRANSACTION', { bold: true, size: 14 }),
    line(`Renewal: extension ${input.extensionNumber} of loan ${input.loanNumber}`, { bold: true, size: 11 }),
    small('(As required under Republic Act No. 3765, the Truth in Lending Act)'),
    SPACE,
    row('Name of borrower', input.borrower),
    row('Loan number', input.loanNumber),
    row('Transaction', `Extension of the due date by ${days(input.term)}, for a fee`),
    row('Extension', `${input.extensionNumber} of at most ${input.maxCount} for this loan`),
    SPACE,
    row('1. Principal of the loan', formatPhpText(input.principal)),
    row('2. Amount financed (principal still owed)', formatPhpText(input.principalBasis)),
    line('3. Finance charges, itemised:', { bold: true }),
    row(`   a. Extension fee (${days(input.term)})`, formatPhpText(input.fee)),
    row('   b. Interest for the added days', formatPhpText(0)),
    row('   c. Other fees', formatPhpText(0)),
    row('   Total finance charges', formatPhpText(input.fee)),
    row('4. Non-finance charges', formatPhpText(0)),
    row('5. Net proceeds (no new money is paid out)', formatPhpText(0)),
    row('6. Amount owed today, unchanged by the extension', formatPhpText(input.outstanding)),
    line('7. Payment schedule:', { bold: true }),
    row('   Extension fee', `${formatPhpText(input.fee)} by ${formatDate(input.payableUntil)}`),
    row(
      '   Amount owed',
      `due on ${formatDate(input.dueDateAfter)} instead of ${formatDate(input.dueDateBefore)}, once the fee is paid`,
    ),
    row(
      '8. Effective interest rate',
      `${pct(rates.monthly)} per month; ${pct(rates.yearly)} per year (the fee on the principal still owed over ${days(input.term)})`,
    ),
    row('9. Room left under the 100% total cost cap after this fee', formatPhpText(input.legalRoomAfter)),
    SPACE,
    small(
      'The fee is the whole price of the added days: no interest accrues on top of it during the extension. The extension takes effect when the fee is paid; unpaid, it lapses and the loan keeps its due date.',
    ),
    renewalNote,
    ...latePayment('after the new due date,'),
    prepared(input.renderedAt),
  ]
}

export function renderExtensionAgreement(input: ExtensionDocumentInput): Promise<Uint8Array> {
  return render(
    `Extension Agreement ${input.loanNumber} (${input.extensionNumber})`,
    input.renderedAt,
    extensionAgreementLines(input),
  )
}

export function renderExtensionDisclosure(input: ExtensionDocumentInput): Promise<Uint8Array> {
  return render(
    `Disclosure Statement on Loan Transaction: extension ${input.extensionNumber} of ${input.loanNumber}`,
    input.renderedAt,
    extensionDisclosureLines(input),
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Payment schedule.

const scheduleKind: Record<ScheduleDocumentInput['type'], string> = {
  monthly: 'monthly',
  semi_monthly: 'semi-monthly',
}

/** What the configured rate alone would charge: the plan charges less when a cap leaves less room. */
const interestAtRate = (input: ScheduleDocumentInput) => {
  const num = BigInt(input.principalBasis) * BigInt(input.interestPpmPerDay) * BigInt(input.days)
  return Number((num * 2n + 1_000_000n) / 2_000_000n)
}

function scheduleTable(input: ScheduleDocumentInput): DocLine[] {
  return [
    line('   No. | Due date | Amount | of which interest', { bold: true, size: 9 }),
    ...[...input.instalments]
      .sort((a, b) => a.seq - b.seq)
      .map((i) =>
        small(
          `   ${i.seq} | ${formatDate(i.dueDate)} | ${formatPhpText(i.amount)} | ${formatPhpText(i.interest)}`,
        ),
      ),
    small(`   Total | | ${formatPhpText(input.total)} | ${formatPhpText(input.interest)}`),
  ]
}

const scheduleInterestLines = (input: ScheduleDocumentInput): DocLine[] => {
  const atRate = interestAtRate(input)
  return input.interest < atRate
    ? [
        small(
          `   The configured rate would charge ${formatPhpText(atRate)}; the interest is lowered to ${formatPhpText(input.interest)} so the loan stays within the legal caps.`,
        ),
      ]
    : []
}

const earlyPayment =
  "Each instalment's interest is charged when its period starts (the first on the day of this agreement, each next one on the previous instalment's due date). Paying early, in part or in full, saves the interest of the periods not yet started."

/** The lines of a payment schedule agreement. */
export function scheduleAgreementLines(input: ScheduleDocumentInput): DocLine[] {
  const rates = amendmentRates(input.interest, input.principalBasis, input.days)
  const count = input.instalments.length
  return [
    line('PAYMENT SCHEDULE AGREEMENT', { bold: true, size: 14 }),
    small(`Amendment of the loan agreement of loan ${input.loanNumber}`),
    SPACE,
    line(
      `This agreement is between ${lender} (the Lender) and ${input.borrower} (the Borrower). It amends the loan agreement of loan ${input.loanNumber}, which otherwise stays in force.`,
    ),
    row('Loan number', input.loanNumber),
    SPACE,
    line('1. What is owed', { bold: true }),
    row('   Owed today (principal, interest to the end of the loan term, fees)', formatPhpText(input.owed)),
    row('   of which principal still owed', formatPhpText(input.principalBasis)),
    line('2. Interest of the schedule', { bold: true }),
    row(
      '   Interest',
      `${formatPhpText(input.interest)} (at most ${ppmPct(input.interestPpmPerDay)} a day on the principal still owed, for ${days(input.days)})`,
    ),
    ...scheduleInterestLines(input),
    row('   Effective interest rate', `${pct(rates.monthly)} per month over the ${days(input.days)}`),
    line('   No fee is charged for the schedule.'),
    line('3. Repayment', { bold: true }),
    line(
      `   The Borrower repays ${formatPhpText(input.total)} in ${count} ${scheduleKind[input.type]} instalment${count === 1 ? '' : 's'} instead of one payment on the due date:`,
    ),
    ...scheduleTable(input),
    line(
      '   Each payment goes to the oldest unpaid instalment first; an instalment unpaid after its due date is overdue.',
    ),
    line('4. Early payment', { bold: true }),
    line(`   ${earlyPayment}`),
    line('5. Total cost', { bold: true }),
    line(
      `   Interest, fees and penalties together never exceed 100% of the principal. Before this schedule, ${formatPhpText(input.legalRoom)} of that room was left; after its interest, ${formatPhpText(Math.max(0, input.legalRoom - input.interest))}.`,
    ),
    small(
      '6. Late payment. Penalties are at most 5% per month of the overdue amount; all charges together never exceed 100% of the principal. Collection follows SEC Memorandum Circular No. 18, s. 2019.',
    ),
    small('7. A loan on a payment schedule cannot be extended.'),
    small(
      '8. The Disclosure Statement on Loan Transaction for this payment schedule is part of this agreement.',
    ),
    small(
      '9. Personal data is processed under the Data Privacy Act (RA 10173) for the purposes consented to.',
    ),
    SPACE,
    line('The Borrower signs this agreement electronically with the one-time code sent by SMS.'),
  ]
}

/** The lines of a payment schedule's disclosure statement. */
export function scheduleDisclosureLines(input: ScheduleDocumentInput): DocLine[] {
  const rates = amendmentRates(input.interest, input.principalBasis, input.days)
  const count = input.instalments.length
  return [
    line('DISCLOSURE STATEMENT ON LOAN TRANSACTION', { bold: true, size: 14 }),
    line(`Renewal: payment schedule (restructuring) of loan ${input.loanNumber}`, { bold: true, size: 11 }),
    small('(As required under Republic Act No. 3765, the Truth in Lending Act)'),
    SPACE,
    row('Name of borrower', input.borrower),
    row('Loan number', input.loanNumber),
    row(
      'Transaction',
      `Payment schedule: ${count} ${scheduleKind[input.type]} instalment${count === 1 ? '' : 's'} over ${days(input.days)}`,
    ),
    SPACE,
    row('1. Amount financed (principal still owed)', formatPhpText(input.principalBasis)),
    row(
      '2. Owed at this agreement (principal, interest to the end of the loan term, fees)',
      formatPhpText(input.owed),
    ),
    line('3. Finance charges of the schedule, itemised:', { bold: true }),
    row(
      `   a. Interest (${ppmPct(input.interestPpmPerDay)} a day on the principal still owed, ${days(input.days)})`,
      formatPhpText(input.interest),
    ),
    ...scheduleInterestLines(input),
    row('   b. Fees', formatPhpText(0)),
    row('   Total finance charges', formatPhpText(input.interest)),
    row('4. Non-finance charges', formatPhpText(0)),
    row('5. Net proceeds (no new money is paid out)', formatPhpText(0)),
    row('6. Total amount to be paid', formatPhpText(input.total)),
    line('7. Payment schedule:', { bold: true }),
    ...scheduleTable(input),
    row(
      '8. Effective interest rate',
      `${pct(rates.monthly)} per month; ${pct(rates.yearly)} per year (the interest on the principal still owed over ${days(input.days)})`,
    ),
    row('9. Room left under the 100% total cost cap before this schedule', formatPhpText(input.legalRoom)),
    row('   after its interest', formatPhpText(Math.max(0, input.legalRoom - input.interest))),
    SPACE,
    small(earlyPayment),
    renewalNote,
    ...latePayment('an instalment unpaid after its due date is overdue;'),
    prepared(input.renderedAt),
  ]
}

export function renderScheduleAgreement(input: ScheduleDocumentInput): Promise<Uint8Array> {
  return render(
    `Payment Schedule Agreement ${input.loanNumber}`,
    input.renderedAt,
    scheduleAgreementLines(input),
  )
}

export function renderScheduleDisclosure(input: ScheduleDocumentInput): Promise<Uint8Array> {
  return render(
    `Disclosure Statement on Loan Transaction: payment schedule of ${input.loanNumber}`,
    input.renderedAt,
    scheduleDisclosureLines(input),
  )
}
