/**
 * Personal values shown where a person must read them (a developer's sandbox console, a support log line): enough
 * to tell two numbers or addresses apart, not enough to contact anyone. Logs otherwise carry ids, never values.
 */

export const MASK = '•••'

/** `09171234567` -> `0917•••4567`: the network prefix and the last four digits. Short or odd input: all masked. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  if (digits.length < 10) return MASK
  return `${digits.slice(0, 4)}${MASK}${digits.slice(-4)}`
}

/** `juan.dela.cruz@example.com` -> `j•••@example.com`: the first character and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 1 || at === email.length - 1) return MASK
  return `${email[0]}${MASK}${email.slice(at)}`
}

/** A message recipient, whichever it is: an e-mail address or a mobile number. */
export function maskRecipient(recipient: string): string {
  return recipient.includes('@') ? maskEmail(recipient) : maskPhone(recipient)
}
