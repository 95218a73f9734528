/**
 * Payout accounts (disbursement entries). The rules that involve other rows are unique indexes
 * (server/db/schema-journey.ts), so they hold under concurrent requests: the database refuses the second insert
 * and the violation is mapped to the spec's messages here.
 */
import { and, asc, count, eq, ne } from 'drizzle-orm'
import * as v from 'valibot'
import {
  type DisbursementEntry,
  disbursementEntrySchema,
  MAX_PAYOUT_ACCOUNTS,
} from '../../../domain/contract/payout'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import type { JourneyStep } from '../../../domain/journey/client-journey.machine'
import { isPlaceholderAccount, journeyMessageKeys as k, type Payout } from '../../../domain/journey/fields'
import type { DbOrTx, Tx } from '../../db/client'
import { contact, institution } from '../../db/schema'
import { disbursementEntry } from '../../db/schema-journey'
import { disbursement } from '../../db/schema-lending'
import type { MessagingProvider } from '../../providers/messaging'
import { readJourney, uniqueViolationOn } from './journey'

/**
 * Whether adding or selecting a payout account needs an SMS code (issue 13, item 9; docs/decisions/0012):
 * once registration is finished, the account the next loan is paid to is changed only by the phone's owner.
 * The journey accepts SAVE_PAYOUT at disbursement_type and no_loan_page only; disbursement_type after a
 * finished registration is the step a failed payout returns to, and such a client has a disbursement on record.
 * Asked inside the journey transaction (`from` is the locked step), so the answer cannot change under the call.
 */
export async function payoutChangeNeedsCode(db: DbOrTx, clientId: number, from?: JourneyStep) {
  const step = from ?? (await readJourney(db, clientId)).value
  if (step !== 'disbursement_type') return true
  const [row] = await db.select({ n: count() }).from(disbursement).where(eq(disbursement.clientId, clientId))
  return (row?.n ?? 0) > 0
}

export const payoutCodeRequired = () =>
  new DomainError(
    'refused',
    'payoutCodeRequired',
    'Changing where your money is sent needs the code we send to your mobile number.',
    [{ propertyPath: 'code', message: 'payoutCodeRequired' }],
  )

async function careLine(db: DbOrTx) {
  const [row] = await db.select({ display: contact.display }).from(contact).where(eq(contact.key, 'cc'))
  return row?.display ?? 'customer care'
}

/**
 * After the change committed: the client hears of it on both channels, so a change they did not make does not
 * go unnoticed until the money is gone. Never the whole account number.
 */
export async function sendPayoutChangedNotice(
  db: DbOrTx,
  messaging: MessagingProvider,
  to: { phone: string; email: string },
  account: string,
) {
  const body =
    `Hiram: your payout account was changed to ${account}. Your next loan will be sent there. ` +
    `If this was not you, call customer care now at ${await careLine(db)}.`
  await messaging.send(db, { channel: 'sms', recipient: to.phone, body, purpose: 'payout_changed' })
  await messaging.send(db, {
    channel: 'email',
    recipient: to.email,
    subject: 'Your Hiram payout account was changed',
    body,
    purpose: 'payout_changed',
  })
}

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

const entryList = v.array(disbursementEntrySchema)

/** The client's payout accounts, oldest first, as the payout calls answer them. */
export async function listDisbursements(db: DbOrTx, clientId: number): Promise<DisbursementEntry[]> {
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
  // The type column is plain text; parsing keeps a hand-edited row with an unknown type from reaching the app.
  return v.parse(
    entryList,
    rows.map(({ institutionName, ...row }) => ({
      ...row,
      bankName: institutionName ?? (row.provider ? (cashPickupNames[row.provider] ?? null) : null),
    })),
  )
}

/** What a notice says about one of the client's entries ('BDO Unibank account ending 7890'). */
export async function describeEntry(db: DbOrTx, clientId: number, id: number) {
  const [row] = await db
    .select({
      type: disbursementEntry.type,
      accountNumber: disbursementEntry.accountNumber,
      provider: disbursementEntry.provider,
      institution: institution.name,
    })
    .from(disbursementEntry)
    .leftJoin(institution, eq(institution.id, disbursementEntry.institutionId))
    .where(and(eq(disbursementEntry.id, id), eq(disbursementEntry.clientId, clientId)))
  return row ? describeAccount(row) : 'a new payout account'
}

/** The bank or e-wallet must exist in the list of its kind (GET /public/bank). Reference data: checked first. */
export async function assertInstitution(db: DbOrTx, payout: Payout) {
  if (payout.type !== 'bank_transfer' && payout.type !== 'ewallet') return
  const parent = payout.type === 'bank_transfer' ? 'bank_account' : 'e-wallet'
  const [row] = await db
    .select({ id: institution.id })
    .from(institution)
    .where(and(eq(institution.id, payout.bankId), eq(institution.parent, parent)))
  if (!row) throw invalid([{ propertyPath: 'bankId', message: k.required }])
  if (payout.type === 'bank_transfer' && isPlaceholderAccount(payout.accountNumber))
    throw invalid([{ propertyPath: 'accountNumber', message: k.bankAccountInvalid }])
}

/** The account a client adds becomes the selected one: it is what they just chose on the payment screen. */
export async function addDisbursement(tx: Tx, clientId: number, payout: Payout, now: Date) {
  const [kept] = await tx
    .select({ n: count() })
    .from(disbursementEntry)
    .where(eq(disbursementEntry.clientId, clientId))
  if ((kept?.n ?? 0) >= MAX_PAYOUT_ACCOUNTS)
    throw new DomainError(
      'refused',
      'payoutAccountLimit',
      `At most ${MAX_PAYOUT_ACCOUNTS} payout accounts can be kept. Choose one of yours instead.`,
      [{ propertyPath: 'type', message: 'payoutAccountLimit' }],
    )
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
export function payoutUniqueError(error: unknown): DomainError | null {
  switch (uniqueViolationOn(error)) {
    case 'disbursement_account_uq':
      return invalid([{ propertyPath: 'accountNumber', message: k.bankAccountExist }])
    case 'disbursement_cash_card_uq':
      return invalid([{ propertyPath: 'accountNumber', message: k.uniqueCashCard }])
    case 'disbursement_cash_pickup_uq':
      return invalid([{ propertyPath: 'provider', message: k.bankAccountExist }])
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
  if (!row)
    throw new DomainError(
      'conflict',
      'payoutNotSelected',
      'Choose how to receive the money before finishing.',
    )
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
