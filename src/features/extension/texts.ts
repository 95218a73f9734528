/**
 * What the extension page says about a refused call or a restarted flow, and how it reads the id in the address.
 * Our own texts for the codes we know (a wrong SMS code, an unsent one); otherwise the API's message of a refused
 * call (409: a cap, the window, the count, an expired invoice), which says exactly why.
 */
import type { FlowNotice, FlowProblem } from '../../../machines/extension-flow.machine'
import type { useMessages } from '../../i18n/messages'
import type { FieldErrorView } from '../../ui/forms/fields'

export type ExtensionTexts = ReturnType<typeof useMessages>['application']['extension']

/** The SMS code was wrong, unsent or malformed: said on the code field rather than above the form. */
export const codeProblems = new Set(['codeIncorrect', 'codeNotSent', 'validationError'])

export function problemText(problem: FlowProblem | null, t: ExtensionTexts): FieldErrorView | null {
  if (!problem) return null
  const known = (t.errors as Record<string, string | undefined>)[problem.code]
  return { key: problem.code, text: known ?? problem.message ?? t.errors.error }
}

export function noticeText(notice: FlowNotice | null, t: ExtensionTexts): string | null {
  if (!notice) return null
  return (t.notices as Record<string, string | undefined>)[notice.code] ?? notice.message ?? null
}

/**
 * The optional id of /profile/rollover/{id}: null without one; an id that cannot be a rollover's reads as 0,
 * which no rollover has, so the page says it is not offered and shows the best choice.
 */
export function requestedIdOf(param: string | undefined): number | null {
  if (param === undefined || param === '') return null
  return /^[1-9]\d{0,14}$/.test(param) ? Number(param) : 0
}
