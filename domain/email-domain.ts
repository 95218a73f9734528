/**
 * The server's `wrongEmailDomain` rule (spec section 5 names it without its condition; issue 22 item 5): an e-mail
 * whose domain cannot serve a borrower. A lender sends the disclosure statement, the signed agreement, payment
 * receipts and collection notices by e-mail (RA 3765; SEC MC 18 s.2019), so an address must be one the client will
 * still read in a month:
 * - disposable inboxes (mailinator and its kind), which vanish within hours and are the first tool of a fraudster
 *   opening accounts in series;
 * - the usual misspellings of the providers most Filipinos use (gmial.com, gmail.con, yaho.com…), where every
 *   message would bounce or, worse, reach a stranger who registered the typo.
 * Pure and small on purpose: the lists are the common cases, not a blocklist service; the form's own rule (pattern
 * and a top-level domain of 2+ letters) stays in domain/identity.ts `emailSchema`.
 */

export const WRONG_EMAIL_DOMAIN = 'wrongEmailDomain'

const disposable = new Set([
  '10minutemail.com',
  'dispostable.com',
  'emailondeck.com',
  'fakeinbox.com',
  'getnada.com',
  'guerrillamail.com',
  'guerrillamail.net',
  'maildrop.cc',
  'mailinator.com',
  'mailnesia.com',
  'mintemail.com',
  'mohmal.com',
  'sharklasers.com',
  'temp-mail.org',
  'tempmail.com',
  'tempmailo.com',
  'throwawaymail.com',
  'trashmail.com',
  'yopmail.com',
])

/** Misspellings of gmail.com, yahoo.com, ymail.com, outlook.com, hotmail.com and icloud.com seen in sign-ups. */
const misspelt = new Set([
  'gmail.co',
  'gmail.con',
  'gmail.cm',
  'gmail.om',
  'gmai.com',
  'gmial.com',
  'gamil.com',
  'gmaill.com',
  'gnail.com',
  'gmal.com',
  'yaho.com',
  'yahooo.com',
  'yahoo.con',
  'yahoo.co',
  'yhoo.com',
  'ymail.con',
  'outlok.com',
  'outlook.con',
  'hotmal.com',
  'hotmail.con',
  'hotmial.com',
  'icloud.con',
  'iclod.com',
])

/** Whether the e-mail's domain is one no borrower's address should be on (already lower-cased by emailSchema). */
export function isWrongEmailDomain(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase()
  return disposable.has(domain) || misspelt.has(domain)
}
