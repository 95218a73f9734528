/**
 * The loan agreement and the Truth-in-Lending disclosure statement (RA 3765; GUIDE section 5) as real PDFs
 * (pdf-lib), with the exact figures of the offer the pricing engine computed for the application. Rendered
 * outside any transaction, stored in one (bytes and SHA-256), and never rendered again once signed: the signed
 * file is the file the client read.
 */
import { createHash } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'
import { pathOf } from '../../../domain/contract/define'
import { downloadDocument } from '../../../domain/contract/lending'
import type { DocumentType, LoanDocument } from '../../../domain/contract/lending-answers'
import type { PricedOffer } from '../../../domain/contract/pricing-answers'
import { DomainError, notFound } from '../../../domain/errors'
import { formatPhpText } from '../../../domain/format'
import { disclosureFigures } from '../../../domain/pricing/disclosure'
import type { DbOrTx } from '../../db/client'
import { clientProfile } from '../../db/schema-journey'
import { application, loanDocument } from '../../db/schema-lending'
import { type Actor, journeyTransaction } from '../journey/journey'
import { listDisbursements } from '../journey/payout'
import {
  type ApplicationRow,
  AppStatus,
  activeApplication,
  applicationOffer,
  type documentsOf,
  type LendingCtx,
} from './applications'

// Shared with the sign screen (domain/pricing/disclosure.ts), so the screen and the PDF print the same figures.
export { disclosureFigures, monthlyEirHundredths } from '../../../domain/pricing/disclosure'

const pct = (hundredths: number) =>
  `${Math.trunc(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}%`

export interface DocumentInput {
  applicationId: number
  borrower: string
  offer: PricedOffer
  /** ISO instant of rendering; the PDF dates are set from it so the bytes depend on the inputs only. */
  renderedAt: Date
  disbursementLabel: string
}

class Writer {
  private page: PDFPage
  private y = 800
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage([595, 842])
  }
  line(text: string, options: { bold?: boolean; size?: number; gap?: number } = {}) {
    const size = options.size ?? 10
    if (this.y < 60) {
      this.page = this.doc.addPage([595, 842])
      this.y = 800
    }
    this.page.drawText(text, {
      x: 50,
      y: this.y,
      size,
      font: options.bold ? this.bold : this.font,
      color: rgb(0, 0, 0),
    })
    this.y -= size + (options.gap ?? 6)
  }
  row(label: string, value: string) {
    this.line(`${label}: ${value}`)
  }
  space() {
    this.y -= 8
  }
}

export async function newDocument(title: string, at: Date) {
  const doc = await PDFDocument.create()
  doc.setTitle(title)
  doc.setAuthor('Hiram Lending')
  doc.setCreator('Hiram')
  doc.setProducer('Hiram (pdf-lib)')
  doc.setCreationDate(at)
  doc.setModificationDate(at)
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  return { doc, w: new Writer(doc, font, bold) }
}

export async function renderDisclosure(input: DocumentInput): Promise<Uint8Array> {
  const { offer } = input
  const f = disclosureFigures(offer)
  const { doc, w } = await newDocument('Disclosure Statement on Loan Transaction', input.renderedAt)
  w.line('DISCLOSURE STATEMENT ON LOAN TRANSACTION', { bold: true, size: 14 })
  w.line('(As required under Republic Act No. 3765, the Truth in Lending Act)', { size: 9 })
  w.space()
  w.row('Name of borrower', input.borrower)
  w.row('Application number', String(input.applicationId))
  w.row('Loan type', 'Short-term loan, single payment')
  w.space()
  w.row('1. Loan amount (principal)', formatPhpText(f.principal))
  w.row('2. Amount financed', formatPhpText(f.amountFinanced))
  w.line('3. Finance charges, itemised:', { bold: true })
  w.row(`   a. Interest (${offer.term} days)`, formatPhpText(offer.interest.amount))
  if (offer.discount.interest.amount > 0)
    w.row('      of which discount on interest', `-${formatPhpText(offer.discount.interest.amount)}`)
  w.row('   b. Processing fee', formatPhpText(offer.processingFee.amount))
  w.row('   c. Service fee', formatPhpText(offer.serviceFee.amount))
  if (offer.discount.serviceFee.amount > 0)
    w.row('      of which discount on service fee', `-${formatPhpText(offer.discount.serviceFee.amount)}`)
  w.row('   d. Withdrawal fee', formatPhpText(offer.withdrawalFee.amount))
  w.row('   e. Invoicing fee', formatPhpText(offer.invoicingFee.amount))
  w.row("   f. Borrower's advantage package fee", formatPhpText(offer.borrowers_advantage_package_fee.amount))
  w.row('   Total finance charges', formatPhpText(f.financeCharge))
  if (offer.referralReward)
    w.row('   of the discounts above, your referral reward', `-${formatPhpText(offer.referralReward.amount)}`)
  w.row('4. Non-finance charges', formatPhpText(0))
  w.row('5. Net proceeds of the loan (paid out to you)', formatPhpText(f.netProceeds))
  w.row('6. Total amount to be paid', formatPhpText(f.total))
  w.line('7. Payment schedule:', { bold: true })
  w.row(
    '   One payment',
    `${formatPhpText(f.total)} due ${offer.term} days after the payout (${offer.endDate} if paid out today)`,
  )
  w.row('8. Effective interest rate', `${pct(f.monthlyEir)} per month; ${offer.apr.toFixed(2)}% per year`)
  w.row('9. Payout to', input.disbursementLabel)
  if (offer.promo?.applied) w.row('Promo code applied', offer.promo.code)
  w.space()
  w.line('Late payment: penalties never exceed 5% per month of the overdue amount, and interest, fees and', {
    size: 9,
  })
  w.line('penalties together never exceed 100% of the principal (SEC Memorandum Circular No. 3, s. 2022).', {
    size: 9,
  })
  w.line(
    `Prepared on ${input.renderedAt.toISOString().slice(0, 10)} (UTC). Signed electronically with a one-time code.`,
    { size: 9 },
  )
  return doc.save()
}

export async function renderAgreement(input: DocumentInput): Promise<Uint8Array> {
  const { offer } = input
  const f = disclosureFigures(offer)
  const { doc, w } = await newDocument('Loan Agreement', input.renderedAt)
  w.line('LOAN AGREEMENT', { bold: true, size: 14 })
  w.space()
  w.line(`This agreement is between Hiram Lending (the Lender) and ${input.borrower} (the Borrower).`)
  // Application 0: the anonymous terms (extra-documents.ts), a sample offer that binds nobody.
  w.row(
    'Application number',
    input.applicationId
      ? String(input.applicationId)
      : 'none (sample terms with an example offer; not an offer)',
  )
  w.space()
  w.line('1. The loan', { bold: true })
  w.row('   Principal', formatPhpText(f.principal))
  w.row('   Term', `${offer.term} days from the payout`)
  w.row('   Interest', formatPhpText(offer.interest.amount))
  w.row('   Fees', formatPhpText(f.financeCharge - offer.interest.amount))
  w.row('   Total amount to be repaid', formatPhpText(f.total))
  w.row('   Effective interest rate', `${pct(f.monthlyEir)} per month`)
  w.line('2. Payout. The Lender pays the principal, in full, to:', { bold: true })
  w.line(`   ${input.disbursementLabel}`)
  w.line('3. Repayment. The Borrower repays the total amount in one payment on the due date.', { bold: true })
  w.line(
    '4. Late payment. Penalties are at most 5% per month of the overdue amount; all charges together never',
    { size: 9 },
  )
  w.line('   exceed 100% of the principal. Collection follows SEC Memorandum Circular No. 18, s. 2019.', {
    size: 9,
  })
  w.line('5. Early repayment is allowed at any time without penalty.', { size: 9 })
  w.line('6. The Disclosure Statement on Loan Transaction is part of this agreement.', { size: 9 })
  w.line(
    '7. Personal data is processed under the Data Privacy Act (RA 10173) for the purposes consented to.',
    { size: 9 },
  )
  w.space()
  w.line('The Borrower signs this agreement electronically with the one-time code sent by SMS.')
  return doc.save()
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * POST /private/client/render/document: renders both documents for the client's application waiting for the
 * signature (status 2) and stores them with the offer they show. Renders again when the application changed.
 */
export async function renderApplicationDocuments(
  ctx: LendingCtx,
  clientId: number,
  now: Date,
  payoutLabel: string,
  by: Actor,
) {
  const db = ctx.database.db
  const row = await activeApplication(db, clientId)
  if (!row || row.status !== AppStatus.signing)
    throw new DomainError(
      'conflict',
      'applicationStatus',
      'There is no approved application waiting for your signature.',
    )
  const offer = await applicationOffer(db, row, now)
  const [profile] = await db.select().from(clientProfile).where(eq(clientProfile.clientId, clientId))
  const borrower = profile
    ? [profile.firstName, profile.middleName, profile.lastName].filter(Boolean).join(' ')
    : `Client ${clientId}`
  const input: DocumentInput = {
    applicationId: row.id,
    borrower,
    offer,
    renderedAt: now,
    disbursementLabel: payoutLabel,
  }
  const files: Record<DocumentType, Uint8Array> = {
    loan_agreement: await renderAgreement(input),
    disclosure_statement: await renderDisclosure(input),
  }
  const change = await journeyTransaction(
    ctx,
    clientId,
    { type: 'PREPARE_SIGNATURE' },
    by,
    now,
    async (tx) => {
      const [current] = await tx.select().from(application).where(eq(application.id, row.id)).for('update')
      if (!current || current.status !== AppStatus.signing || current.version !== row.version)
        throw new DomainError(
          'conflict',
          'applicationChanged',
          'The application changed meanwhile; render again.',
        )
      for (const [type, content] of Object.entries(files)) {
        const values = {
          applicationId: row.id,
          clientId,
          type,
          applicationVersion: row.version,
          content,
          sha256: sha256(content),
          size: content.byteLength,
          renderedAt: now,
          signedAt: null,
        }
        await tx
          .insert(loanDocument)
          .values(values)
          .onConflictDoUpdate({ target: [loanDocument.applicationId, loanDocument.type], set: values })
      }
      await tx.update(application).set({ acceptedOffer: offer }).where(eq(application.id, row.id))
      return { application: current as ApplicationRow, offer }
    },
  )
  return change.result
}

const documentName: Record<string, string> = {
  loan_agreement: 'Loan agreement',
  disclosure_statement: 'Disclosure statement (Truth in Lending Act)',
}

/** A loan document as the document calls answer it: its description and where to download it, never its bytes. */
export function documentView(d: Awaited<ReturnType<typeof documentsOf>>[number]): LoanDocument {
  return {
    id: d.id,
    applicationId: d.applicationId,
    type: d.type,
    name: documentName[d.type] ?? d.type,
    sha256: d.sha256,
    size: d.size,
    renderedAt: d.renderedAt.toISOString(),
    signed: d.signedAt !== null,
    signedAt: d.signedAt?.toISOString() ?? null,
    url: `/web${pathOf(downloadDocument, { type: d.type })}`,
  }
}

/** The newest file of a type among the client's documents, as rendered (and signed); a 404 when there is none. */
export async function latestDocument(db: DbOrTx, clientId: number, type: DocumentType) {
  const [doc] = await db
    .select({
      applicationId: loanDocument.applicationId,
      content: loanDocument.content,
      sha256: loanDocument.sha256,
    })
    .from(loanDocument)
    .where(and(eq(loanDocument.clientId, clientId), eq(loanDocument.type, type)))
    .orderBy(desc(loanDocument.renderedAt))
    .limit(1)
  if (!doc) throw notFound('Document')
  return doc
}

/** How the agreement names the payout account: the selected one ('bank transfer BDO account ending 7890'). */
export async function payoutLabel(db: DbOrTx, clientId: number) {
  const entries = await listDisbursements(db, clientId)
  const entry = entries.find((e) => e.selected)
  if (!entry) return 'the payout account you choose'
  const account = entry.accountNumber ? ` account ending ${entry.accountNumber.slice(-4)}` : ''
  return `${entry.type.replace('_', ' ')} ${entry.bankName ?? ''}${account}`.replace(/\s+/g, ' ').trim()
}
