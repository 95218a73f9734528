/** The statement of account as a PDF (issue 16, item 3), drawn from the same data as the screen. */

import type { Statement } from '../../../domain/contract/payments'
import { formatDate, formatPhpText } from '../../../domain/format'
import { newDocument } from '../lending/documents'

const kindLabel: Record<Statement['entries'][number]['kind'], string> = {
  disbursement: 'Loan paid out',
  fee: 'Fee',
  interest_accrual: 'Interest',
  extension_fee: 'Extension fee',
  schedule_interest: 'Schedule interest',
  penalty: 'Late-payment penalty',
  debt_sale: 'Debt sold to a collection agency',
  write_off: 'Written off',
  recovery: 'Recovered after write-off',
  allocation: 'Payment applied',
  overpayment: 'Overpayment (credit)',
  residue_waiver: 'Residue waived',
  refund: 'Credit refunded',
  reversal: 'Reversal',
}

export async function renderStatement(s: Statement, at: Date): Promise<Uint8Array> {
  const { doc, w } = await newDocument(`Statement of account ${s.loanNumber}`, at)
  w.line('Hiram Lending Corporation', { bold: true, size: 14 })
  w.line(`Statement of account, loan ${s.loanNumber}`, { bold: true, size: 12 })
  w.row('Payment reference', s.paymentReference)
  w.row('As of', formatDate(s.asOf))
  w.row('Principal', formatPhpText(s.principal))
  if (s.startDate) w.row('Paid out on', formatDate(s.startDate))
  w.row('Due date', formatDate(s.dueDate))
  w.space()
  w.line('Date | Entry | Part | Amount | Owed after | Credit after', { bold: true })
  for (const e of s.entries)
    w.line(
      `${formatDate(e.date)} | ${kindLabel[e.kind]}${e.memo ? ` (${e.memo})` : ''} | ${e.part} | ${formatPhpText(e.amount)} | ${formatPhpText(e.outstandingAfter)} | ${formatPhpText(e.creditAfter)}`,
      { size: 8, gap: 4 },
    )
  w.space()
  w.row('Principal outstanding', formatPhpText(s.balances.principal))
  w.row('Interest outstanding', formatPhpText(s.balances.interest))
  w.row('Fees outstanding', formatPhpText(s.balances.fees))
  w.row('Penalties outstanding', formatPhpText(s.balances.penalties))
  w.row('Credit held for you', formatPhpText(s.balances.credit))
  w.line(`To pay in full today: ${formatPhpText(s.payoff)}`, { bold: true })
  return doc.save()
}
