/**
 * The anonymous terms document and the temporary (unsigned) document download (issue 22 item 5).
 *
 * The anonymous terms are the loan agreement itself (documents.ts `renderAgreement`, one text for guests and
 * borrowers), priced with a sample offer: the calculator's initial amount for a new client over its shortest term,
 * by the pricing in force. It is a public call that renders a PDF, so the file is made once per configuration
 * version and Manila day and kept: a flood of requests costs a lookup each, never a render.
 */
import { and, eq } from 'drizzle-orm'
import { DomainError, notFound } from '../../../domain/errors'
import { manilaDate } from '../../../domain/pricing/manila-date'
import type { DbOrTx } from '../../db/client'
import { loanDocument } from '../../db/schema-lending'
import { lendingConfig, priceOffer } from '../pricing'
import { renderAgreement } from './documents'

/** Per database (each test app has its own), the last file made and what it was made from. */
const kept = new WeakMap<object, { key: string; bytes: Uint8Array }>()

/** POST /public/client/document: the terms as a PDF, with a sample offer and no borrower. */
export async function anonymousTerms(db: DbOrTx, now: Date): Promise<Uint8Array> {
  const config = await lendingConfig(db)
  const today = manilaDate(now)
  const key = `${config.versions.calculator}|${config.versions.pricing}|${today}`
  const known = kept.get(db)
  if (known?.key === key) return known.bytes
  const calculator = config.calculator
  const offer = await priceOffer(
    db,
    {
      kind: 'new',
      amount: calculator.initialStates.new.initialAmount,
      term: calculator.termLimits.minTermForNew,
      withPackageFee: false,
    },
    now,
  )
  const bytes = await renderAgreement({
    applicationId: 0,
    borrower: 'the person who signs it',
    offer,
    renderedAt: new Date(`${today}T00:00:00+08:00`),
    disbursementLabel: 'the payout account the Borrower chooses (bank, e-wallet, cash card or cash pickup)',
  })
  kept.set(db, { key, bytes })
  return bytes
}

/** GET /private/client/document/download-temporary/{id}: an own document not signed yet. */
export async function temporaryDocument(db: DbOrTx, clientId: number, id: string) {
  const [doc] = await db
    .select({
      type: loanDocument.type,
      applicationId: loanDocument.applicationId,
      content: loanDocument.content,
      sha256: loanDocument.sha256,
      signedAt: loanDocument.signedAt,
    })
    .from(loanDocument)
    .where(and(eq(loanDocument.id, id), eq(loanDocument.clientId, clientId)))
  if (!doc) throw notFound('Document')
  if (doc.signedAt)
    throw new DomainError(
      'conflict',
      'documentSigned',
      'This document is signed: download it from your documents by its type.',
    )
  return doc
}
