/**
 * The calculator rules of spec sections 4 (Calculator, Additional loan, Submit from the calculator) and 5
 * (Calculator), as pure functions over integer centavos and days. The calculator machine composes them; the
 * server may reuse them to re-check a submitted amount and term.
 *
 * Grid decision: "rounded down to the interval" is read as a grid anchored at 0 (PHP 100 steps land on whole
 * hundreds whatever the min is), and the min always stays selectable even when it is off that grid: an
 * increase offer's principal or an additional-loan min can be any amount, and refusing the floor of the range
 * would make the offer unreachable. The max is not special: an available amount of PHP 7,345.50 with PHP 100
 * steps gives PHP 7,300, which is what rounding down promises. The rule lives in domain/pricing/grid.ts, shared
 * with the server's offer validation; a configured minimum off the grid is refused (ADR 0005, "One grid rule").
 */
import type { CalculatorConfig } from './calculator-config'
import { additionalLoanRefusals } from './loan/additional-loan'
import { clampToGrid as clampGrid } from './pricing/grid'

export const calculatorTabs = ['new', 'repeat'] as const
export type CalculatorTab = (typeof calculatorTabs)[number]

/** The product behind the calculator. The spec's product is stl; the line-of-credit tab rule is kept for it. */
export const calculatorLoanTypes = ['stl', 'line-of-credit'] as const
export type CalculatorLoanType = (typeof calculatorLoanTypes)[number]

/** The spec's Calculator state amount: all centavos. `first` is the first-loan limit. */
export interface AmountState {
  min: number
  max: number
  first: number
  current: number
  interval: number
}

/** The spec's Calculator state term: all days. */
export interface TermState {
  min: number
  max: number
  current: number
  interval: number
}

export interface Range {
  min: number
  max: number
  interval: number
}

export const PROMO_CODE_MIN_LENGTH = 3
export const PROMO_CODE_MAX_LENGTH = 10

/**
 * Clamps `value` into [min, max] on the grid anchored at 0; the result is never below min (see the grid
 * decision above). The rule is the server's too: domain/pricing/grid.ts.
 */
export function clampToGrid(value: number, range: Range): number {
  return clampGrid(value, range)
}

/** Amount in centavos, clamped and rounded down to the interval (spec section 5). */
export function clampAmount(value: number, range: Range): number {
  return clampToGrid(value, range)
}

/** Term in days, clamped between the tab's min and max; the same grid rule keeps a 7-day interval on weeks. */
export function clampTerm(value: number, range: Range): number {
  return clampToGrid(value, range)
}

/** The first-loan limit: the most a new client may borrow, also the amount where the tabs change. */
export function firstLoanLimit(config: CalculatorConfig): number {
  return config.initialStates.new.maxAmount
}

export interface IncreaseOfferFacts {
  /** The increased amount the server offers, centavos. */
  amount: number
  /** The application's term, days. */
  term: number
  /** The application's principal, centavos: the least the client may go back to. */
  principal: number
}

/**
 * The tabs a person may choose between (spec section 2: hidden when the limit is set to first). A known
 * client's tab is a fact of their history, not a choice: a first-time client gets only the new-client tab and
 * its limits, a client with a repaid loan only the repeat-client one, because the server prices a logged-in
 * client by that history whatever the screen says. Only a visitor, who is not known yet, chooses; the limit
 * set to first leaves a visitor the new-client tab (and caps anyone's amount, see `amountLimitsFor`).
 */
export function offeredTabs(client: {
  loggedIn: boolean
  closedLoansCount: number
  limitFirst?: boolean
}): readonly CalculatorTab[] {
  if (client.loggedIn) return client.closedLoansCount > 0 ? ['repeat'] : ['new']
  return client.limitFirst ? ['new'] : calculatorTabs
}

/** The tab to show: `wanted` when it is offered, else the first one offered. */
export function offeredTab(tabs: readonly CalculatorTab[], wanted: CalculatorTab): CalculatorTab {
  return tabs.includes(wanted) ? wanted : (tabs[0] ?? 'new')
}

/** The configured limits of a tab's kind of client (spec section 3, initialStates). */
function stateOf(config: CalculatorConfig, tab: CalculatorTab) {
  return tab === 'new' ? config.initialStates.new : config.initialStates.repeated
}

export interface AmountLimitsInput {
  config: CalculatorConfig
  tab: CalculatorTab
  /** The tabs offered (`offeredTabs`); both unless `limitFirst`. */
  tabs?: readonly CalculatorTab[]
  loggedIn: boolean
  /** The client's available loan amount, centavos; null when unknown (a visitor). */
  availableAmount: number | null
  hasActiveLoan: boolean
  increaseOffer: IncreaseOfferFacts | null
  /** The limit is set to first: tabs are hidden and nothing above the first-loan limit is offered. */
  limitFirst?: boolean
}

export interface AmountLimits extends Range {
  first: number
  disabled: boolean
}

/**
 * Min and max of the amount slider (spec section 5). With both tabs offered the slider spans both kinds'
 * ranges, because moving past the first-loan limit is how the tab changes; with one tab it spans that tab's
 * kind only. Both the global limits (amountLimits) and the kind's own (initialStates) bind, as they do on the
 * server (domain/pricing/ranges.ts), so the slider never reaches an amount the server refuses. A known
 * client's max is also bounded by what they may borrow, and when that leaves no room above the min the
 * calculator is disabled with max 0.
 */
export function amountLimitsFor(input: AmountLimitsInput): AmountLimits {
  const { config, tab, loggedIn, availableAmount, hasActiveLoan, increaseOffer, limitFirst = false } = input
  const tabs = input.tabs ?? (limitFirst ? ['new'] : calculatorTabs)
  const first = firstLoanLimit(config)
  const interval = config.amountLimits.interval
  const min = increaseOffer
    ? increaseOffer.principal
    : hasActiveLoan
      ? config.amountLimits.minAdditionLoan
      : Math.max(config.amountLimits.minMainLoan, stateOf(config, offeredTab(tabs, tab)).minAmount)
  const kindsMax = Math.max(
    ...tabs.map((t) => Math.min(config.amountLimits.amountTo, stateOf(config, t).maxAmount)),
  )
  const configuredMax = limitFirst ? Math.min(first, kindsMax) : kindsMax
  const max = loggedIn && availableAmount !== null ? Math.min(availableAmount, configuredMax) : configuredMax
  if (max < min) return { min, max: 0, first, interval, disabled: true }
  return { min, max, first, interval, disabled: false }
}

/**
 * Term limits for the tab: a first loan (new) or a repeated one. The kind's own maxTerm (initialStates) caps
 * the tab's max, as on the server (domain/pricing/ranges.ts).
 */
export function termLimitsFor(config: CalculatorConfig, tab: CalculatorTab): Range {
  const { termLimits } = config
  const [min, max] =
    tab === 'new'
      ? [termLimits.minTermForNew, termLimits.maxTermForNew]
      : [termLimits.minTermForRepeated, termLimits.maxTermForRepeated]
  const cap = stateOf(config, tab).maxTerm ?? max
  return { min, max: Math.max(min, Math.min(max, cap)), interval: termLimits.interval }
}

/** Where the term slider starts for a tab: the configured initial maxTerm, else the tab's max. */
export function initialTermFor(config: CalculatorConfig, tab: CalculatorTab): number {
  const initial = tab === 'new' ? config.initialStates.new : config.initialStates.repeated
  const limits = termLimitsFor(config, tab)
  return clampTerm(initial.maxTerm ?? limits.max, limits)
}

/** Where the amount slider starts for a tab, before clamping to the client's limits. */
export function initialAmountFor(config: CalculatorConfig, tab: CalculatorTab): number {
  return tab === 'new' ? config.initialStates.new.initialAmount : config.initialStates.repeated.initialAmount
}

/**
 * The tab after the amount moved (spec section 4): above the first-loan limit only a repeat client can
 * borrow; a line of credit also moves back to new at or below it. An stl client who chose repeat stays there.
 */
export function tabForAmount(input: {
  amount: number
  first: number
  tab: CalculatorTab
  type: CalculatorLoanType
}): CalculatorTab {
  if (input.amount > input.first) return 'repeat'
  if (input.type === 'line-of-credit') return 'new'
  return input.tab
}

/** The amount after a tab switch (spec section 4): the new-client tab caps it at the first-loan limit. */
export function amountForTab(input: { tab: CalculatorTab; amount: number; first: number }): number {
  return input.tab === 'new' ? Math.min(input.amount, input.first) : input.amount
}

export interface AdditionalLoanInput {
  /** The calculator's max amount, centavos (0 when disabled). */
  maxAmount: number
  /** Days until the active loan's repayment is due; null without an active loan. */
  dueDays: number | null
  overdue: boolean
  hasActiveRefinancing: boolean
  hasPaymentSchedule: boolean
  /** Issue 18: the loan is on hold. */
  onHold?: boolean
  /** Issue 18: how many loans are open (1 when only `dueDays` is known). */
  openLoans?: number
  /** Issue 18: a loan of the client's was sold or written off. */
  defaulted?: boolean
}

/**
 * Spec section 4, Additional loan: every condition must hold. The rule itself is domain/loan/additional-loan.ts,
 * the one the server asks too; this is its yes or no for the calculator's inputs.
 */
export function isAdditionalLoanAvailable(input: AdditionalLoanInput): boolean {
  if (input.dueDays === null) return false
  return (
    additionalLoanRefusals({
      maxAmount: input.maxAmount,
      openLoans: input.openLoans ?? 1,
      loan: {
        dueDays: input.dueDays,
        overdue: input.overdue,
        onHold: input.onHold ?? false,
        hasPaymentSchedule: input.hasPaymentSchedule,
      },
      hasActiveRefinancing: input.hasActiveRefinancing,
      defaulted: input.defaulted ?? false,
    }).length === 0
  )
}

export type SubmitTarget = 'create-application-then-loading' | 'apply' | 'login' | 'registration'

/**
 * Spec section 4, Submit from the calculator. "A tab selected" is a visitor on the repeat-client tab (see
 * `isTabSelected`): a visitor who says they borrowed before must log in, anyone else registers.
 */
export function submitTarget(input: {
  additionalLoanAvailable: boolean
  loggedIn: boolean
  tabSelected: boolean
}): SubmitTarget {
  if (input.additionalLoanAvailable) return 'create-application-then-loading'
  if (input.loggedIn) return 'apply'
  if (input.tabSelected) return 'login'
  return 'registration'
}

/**
 * Whether the visitor has "a tab selected" in the sense of spec section 4: the repeat-client tab is active and
 * the tabs are shown. The new-client tab is where every visitor starts, so choosing it declares nothing.
 */
export function isTabSelected(input: { tab: CalculatorTab; tabsHidden: boolean }): boolean {
  return !input.tabsHidden && input.tab === 'repeat'
}

/** Spec section 4: a non-authorised user with a tab selected must log in. */
export function needsLogin(input: { loggedIn: boolean; tabSelected: boolean }): boolean {
  return !input.loggedIn && input.tabSelected
}

export const LOGIN_SUBMIT_LABEL = 'log in'

/** Spec section 2: the submit button reads 'log in' when login is needed, otherwise the configured label. */
export function submitLabel(input: {
  loggedIn: boolean
  tabSelected: boolean
  configuredLabel: string
}): string {
  return needsLogin(input) ? LOGIN_SUBMIT_LABEL : input.configuredLabel
}

/**
 * A promo code worth sending to the server (spec sections 5 and 9): trimmed, 3 to 10 characters; anything else
 * is no code. Whether it is valid is the server's call: the offer answers with or without the discount.
 */
export function normalizePromoCode(code: string | null | undefined): string | null {
  const trimmed = (code ?? '').trim()
  if (trimmed.length < PROMO_CODE_MIN_LENGTH || trimmed.length > PROMO_CODE_MAX_LENGTH) return null
  return trimmed
}
