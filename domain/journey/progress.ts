/**
 * The registration progress bar (spec section 2, Layout; section 9): "flow percent over the total steps", set to
 * 30 percent when registration starts and reset to 0 when leaving the registration pages.
 *
 * The steps are the journey model's own (client-journey.machine.ts): the registration pages its steps lead to, in
 * the model's order, after the sign-up page itself. Sign-up is 30 %; the remaining 70 % is shared equally by the
 * positions, so the last registration page (the summary, where the client signs) shows the bar nearly full and
 * leaving registration clears it. A step added to the model moves the percentages with it; nothing here lists
 * pages by hand. Pure: the progress bar (src/ui/shell/progress-bar.tsx) asks it for the page on screen.
 */
import { flowSteps, stepMeta } from './client-journey.machine'
import { type JourneyPageKey, journeyPages, pagesOf } from './destinations'

/** Spec section 9: "Progress set to 30 percent when registration starts". */
export const REGISTRATION_START_PERCENT = 30

const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path)
const isRegistrationPath = (path: string) =>
  path === journeyPages.registration || path.startsWith(`${journeyPages.registration}/`)

/** The registration pages in the order the journey meets them, sign-up first. */
export const registrationPagesInOrder: readonly string[] = (() => {
  const pages: string[] = [journeyPages.registration]
  for (const step of flowSteps) {
    const destination = stepMeta(step).destination
    if (!destination) continue
    for (const key of pagesOf(destination) as JourneyPageKey[]) {
      const path = journeyPages[key]
      if (isRegistrationPath(path) && !pages.includes(path)) pages.push(path)
    }
  }
  return pages
})()

/**
 * The percent the bar shows on `pathname`: 0 outside registration, 30 on sign-up and on a registration page the
 * model does not route to (the sandbox's), and 30 plus an equal share of the remaining 70 per position after it.
 */
export function registrationProgress(pathname: string): number {
  const path = trim(pathname)
  if (!isRegistrationPath(path)) return 0
  const position = registrationPagesInOrder.indexOf(path)
  if (position <= 0) return REGISTRATION_START_PERCENT
  const share = (100 - REGISTRATION_START_PERCENT) / registrationPagesInOrder.length
  return Math.round(REGISTRATION_START_PERCENT + share * position)
}
