/**
 * Payout accounts (disbursement entries). The rules that involve other rows are unique indexes
 * (server/db/schema-journey.ts), so they hold under concurrent requests: the database refuses the second insert
 * and the violation is mapped to the spec's messages here.
 */
import { and, asc, eq, ne } from 'drizzle-orm'
import { journeyMessageKeys as k, type Payout } from '../../../domain/journey/fields'
import type { DbOrTx, Tx } from '../../db/client'
import { institution } from '../../db/schema'
import { disbursementEntry } from '../../db/schema-journey'
import { ApiError, notFound, validationFailed } from '../../http/errors'
import { uniqueViolationOn } from './journey'

export const cashPickupNames: Record<string, string> = {
  cebuana: 'Cebuana Lhuillier',
  m_lhuillier: 'M Lhuillier',
}

export interface AccountFacts {
  type: string
  institution: string | null
  accountNumber: string | null
  provider: string | null
}

/**
 * Where the money goes, as a message to the client may say it: the institution and the last 4 digits, never
 * the whole number (an SMS is read on lock screens and kept by the carrier).
 */
export function describeAccount(entry: AccountFacts): string {
  const ending = entry.accountNumber ? ` ending ${entry.accountNumber.slice(-4)}` : ''
  switch (entry.type) {
    case 'bank_transfer':
      return `${entry.institution ?? 'bank'} account${ending}`
    case 'ewallet':
      return `${entry.institution ?? 'e-wallet'} e-wallet${ending}`
    case 'cash_card':
      return `cash card${ending}`
    case 'cash_pickup':
      return `cash pickup at ${cashPickupNames[entry.provider ?? ''] ?? 'a pickup partner'}`
    default:
      return 'payout account'
  }
}

export interface DisbursementView {
  id: number
  type: string
  bankId: number | null
  bankName: string | null
  accountNumber: string | null
  provider: string | null
  selected: boolean
}

export async function listDisbursements(db: DbOrTx, clientId: number): Promise<DisbursementView[]> {
  const rows = await db
    .select({
      id: disbursementEntry.id,
      type: disbursementEntry.type,
      bankId: disbursementEntry.institutionId,
      institutionName: institution.name,
      accountNumber: disbursementEntry.accountNumber,
      provider: disbursementEntry.provider,
      selected: disbursementEntry.selected,
    })
    .from(disbursementEntry)
    .leftJoin(institution, eq(institution.id, disbursementEntry.institutionId))
    .where(eq(disbursementEntry.clientId, clientId))
    .orderBy(asc(disbursementEntry.id))
  return rows.map(({ institutionName, ...row }) => ({
    ...row,
    bankName: institutionName ?? (row.provider ? (cashPickupNames[row.provider] ?? null) : null),
  }))
}

/** The bank or e-wallet must exist in the list of its kind (GET /public/bank). Reference data: checked first. */
export async function assertInstitution(db: DbOrTx, payout: Payout) {
  if (payout.type !== 'bank_transfer' && payout.type !== 'ewallet') return
  const parent = payout.type === 'bank_transfer' ? 'bank_account' : 'e-wallet'
  const [row] = await db
    .select({ id: institution.id })
    .from(institution)
    .where(and(eq(institution.id, payout.bankId), eq(institution.parent, parent)))
  if (!row) throw validationFailed([{ propertyPath: 'bankId', message: k.required }])
}

/** The account a client adds becomes the selected one: it is what they just chose on the payment screen. */
export async function addDisbursement(tx: Tx, clientId: number, payout: Payout, now: Date) {
  await tx
    .update(disbursementEntry)
    .set({ selected: false })
    .where(and(eq(disbursementEntry.clientId, clientId), eq(disbursementEntry.selected, true)))
  const [row] = await tx
    .insert(disbursementEntry)
    .values({
      clientId,
      type: payout.type,
      institutionId: 'bankId' in payout ? payout.bankId : null,
      accountNumber: 'accountNumber' in payout ? payout.accountNumber : null,
      provider: payout.type === 'cash_pickup' ? payout.provider : null,
      selected: true,
      createdAt: now,
    })
    .returning({ id: disbursementEntry.id })
  return row!.id
}

/** Maps a unique-index refusal to the field and rule name the payment form shows. */
export function payoutUniqueError(error: unknown): ApiError | null {
  switch (uniqueViolationOn(error)) {
    case 'disbursement_account_uq':
      return validationFailed([{ propertyPath: 'accountNumber', message: k.bankAccountExist }])
    case 'disbursement_cash_card_uq':
      return validationFailed([{ propertyPath: 'accountNumber', message: k.uniqueCashCard }])
    case 'disbursement_cash_pickup_uq':
      return validationFailed([{ propertyPath: 'provider', message: k.bankAccountExist }])
    default:
      return null
  }
}

export async function selectDisbursement(tx: Tx, clientId: number, id: number) {
  const [entry] = await tx
    .select({ id: disbursementEntry.id })
    .from(disbursementEntry)
    .where(and(eq(disbursementEntry.id, id), eq(disbursementEntry.clientId, clientId)))
  // Another client's entry answers exactly like one that does not exist.
  if (!entry) throw notFound('Disbursement entry')
  await tx
    .update(disbursementEntry)
    .set({ selected: false })
    .where(
      and(
        eq(disbursementEntry.clientId, clientId),
        eq(disbursementEntry.selected, true),
        ne(disbursementEntry.id, id),
      ),
    )
  await tx.update(disbursementEntry).set({ selected: true }).where(eq(disbursementEntry.id, id))
}

export async function assertPayoutSelected(tx: Tx, clientId: number) {
  const [row] = await tx
    .select({ id: disbursementEntry.id })
    .from(disbursementEntry)
    .where(and(eq(disbursementEntry.clientId, clientId), eq(disbursementEntry.selected, true)))
  if (!row) throw new ApiError(409, 'payoutNotSelected', 'Choose how to receive the money before finishing.')
}

/** PUT /iban/validate: the format, and that this client has not saved the same bank account already. */
export async function bankAccountExists(db: DbOrTx, clientId: number, accountNumber: string) {
  const [row] = await db
    .select({ id: disbursementEntry.id })
    .from(disbursementEntry)
    .where(
      and(
        eq(disbursementEntry.clientId, clientId),
        eq(disbursementEntry.type, 'bank_transfer'),
        eq(disbursementEntry.accountNumber, accountNumber),
      ),
    )
  return Boolean(row)
}
