/**
 * The loan calculator (spec sections 2, 3, 4 and 5): amount and term sliders, the new/repeat client tabs, the
 * optional fee, a promo code, and the offer the server prices for them.
 *
 * - loading: the calculator configuration (`loadConfig` actor). Failure -> error ('[API] failed to load
 *   configs') until RETRY.
 * - ready: the offer for the current inputs. An input change that changes the offer request goes to
 *   debouncing (OFFER_DEBOUNCE, 300 ms), then fetching (`fetchOffer` actor), then loaded or failed. Leaving
 *   fetching stops the stale request, so a late answer never overwrites newer inputs. A calculator the client
 *   cannot use (max below min) sits in disabled and fetches nothing.
 *
 * Every amount and term goes through domain/calculator-rules.ts; the reducers below only compose those rules,
 * and the guards ask the same reducers what an event would do, so a guard and its action cannot disagree.
 * Fetching and timing live only in the invoked actors and the named delay: the app provides the actors
 * (`calculatorMachine.provide({ actors })`), and the model-based tests turn both into plain events with
 * `toModelMachine` (tests/support/model-coverage.ts) without a test-only variant here.
 */

import { assign, emit, fromPromise, setup } from 'xstate'
import type { CalculatorConfig } from '../domain/calculator-config'
import {
  type AmountState,
  amountForTab,
  amountLimitsFor,
  type CalculatorLoanType,
  type CalculatorTab,
  calculatorTabs,
  clampAmount,
  clampTerm,
  type IncreaseOfferFacts,
  initialAmountFor,
  initialTermFor,
  isTabSelected,
  needsLogin,
  normalizePromoCode,
  offeredTab,
  offeredTabs,
  type SubmitTarget,
  submitTarget,
  type TermState,
  tabForAmount,
  termLimitsFor,
} from '../domain/calculator-rules'
import type { OfferRequest } from '../domain/contract/pricing'
import { additionalLoanRefusals } from '../domain/loan/additional-loan'
import type { ClientKind, Offer } from '../domain/offer'

export const OFFER_DEBOUNCE_MS = 300
export const CONFIG_LOAD_ERROR = '[API] failed to load configs'

/** The optional fee of spec section 9; accepted by default. */
export const OPTIONAL_FEE = 'borrowers_advantage_package_fee'

/** What the app knows about the session and the client; CONTEXT.UPDATE replaces it whole. */
export interface CalculatorClient {
  loggedIn: boolean
  /** Centavos; null for a visitor. */
  availableAmount: number | null
  hasActiveLoan: boolean
  closedLoansCount: number
  /** A pending offer increase on the actual application. */
  increaseOffer: IncreaseOfferFacts | null
  /** The limit is set to first: the tabs are hidden and the amount stops at the first-loan limit. */
  limitFirst: boolean
  hasActiveRefinancing: boolean
  /**
   * The active loan's facts the additional-loan rule needs (domain/loan/additional-loan.ts, from GET
   * /private/client `additionalLoan`); null without an active loan.
   */
  activeLoan: {
    dueDays: number
    overdue: boolean
    hasPaymentSchedule: boolean
    onHold?: boolean
    /** How many loans are open (1 when not told). */
    openLoans?: number
    /** A loan of the client's was sold or written off. */
    defaulted?: boolean
  } | null
}

export const guestClient: CalculatorClient = {
  loggedIn: false,
  availableAmount: null,
  hasActiveLoan: false,
  closedLoansCount: 0,
  increaseOffer: null,
  limitFirst: false,
  hasActiveRefinancing: false,
  activeLoan: null,
}

/** The part of the calculator the UI keeps in its 24-hour cookie. Untrusted: re-validated after config loads. */
export interface RestoredCalculatorState {
  amount: number
  term: number
  tab: CalculatorTab
  optionalFee: boolean
  promoCode: string | null
}

export interface CalculatorInput {
  initial?: Partial<RestoredCalculatorState> | null
  type?: CalculatorLoanType
  client?: Partial<CalculatorClient>
}

export interface SubmitDecision {
  target: SubmitTarget
  amount: number
  term: number
  optionalFee: boolean
  promoCode: string | null
}

export interface CalculatorContext {
  config: CalculatorConfig | null
  client: CalculatorClient
  type: CalculatorLoanType
  amount: AmountState
  term: TermState
  tab: CalculatorTab
  optionalFees: { [OPTIONAL_FEE]: boolean }
  promoCode: string | null
  /** Max fell below min: nothing to offer, the amount is 0 and the UI hides the calculator. */
  disabled: boolean
  /** The last offer the server priced, kept on screen while the next one is on its way. */
  offer: Offer | null
  /** The request key (`requestKeyOf`) that produced `offer`. */
  offerKey: string | null
  offerError: boolean
  /** Why the server refused to price the current request (state ready.refused); null otherwise. */
  refusal: RefusalReason[] | null
  error: string | null
  /** What the last SUBMIT decided; cleared by any input change so it is never replayed stale. */
  decision: SubmitDecision | null
  /** The cookie state waiting for the configuration. */
  restored: Partial<RestoredCalculatorState> | null
}

export type CalculatorEvent =
  | { type: 'AMOUNT.SET'; value: number }
  | { type: 'TERM.SET'; value: number }
  | { type: 'TAB.SELECT'; tab: CalculatorTab }
  | { type: 'OPTIONAL_FEE.TOGGLE' }
  | { type: 'OPTIONAL_FEE.SET'; enabled: boolean }
  | { type: 'PROMO.SET'; code: string }
  | ({ type: 'CONTEXT.UPDATE' } & Pick<
      CalculatorClient,
      'loggedIn' | 'availableAmount' | 'hasActiveLoan' | 'closedLoansCount'
    > &
      Partial<Omit<CalculatorClient, 'loggedIn' | 'availableAmount' | 'hasActiveLoan' | 'closedLoansCount'>>)
  | { type: 'RETRY' }
  | { type: 'OFFER.RETRY' }
  | { type: 'SUBMIT' }

export type CalculatorEmitted = { type: 'calculator.submit'; decision: SubmitDecision }

/** One reason the server gave for refusing to price a request: the field and a sentence saying why and how. */
export interface RefusalReason {
  propertyPath: string
  message: string
}

/**
 * What the `fetchOffer` actor throws when the server refuses the request itself (a 400 with violations), as
 * opposed to failing to answer: trying the same request again cannot help, changing it can.
 */
export class OfferRefusedError extends Error {
  constructor(readonly reasons: RefusalReason[]) {
    super(reasons.map((r) => r.message).join(' '))
    this.name = 'OfferRefusedError'
  }
}

const emptyAmount: AmountState = { min: 0, max: 0, first: 0, current: 0, interval: 1 }
const emptyTerm: TermState = { min: 0, max: 0, current: 0, interval: 1 }

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

/** Keeps only the well-typed fields of a cookie state; ranges are checked once the config is known. */
export function sanitizeRestored(raw: unknown): Partial<RestoredCalculatorState> | null {
  if (typeof raw !== 'object' || raw === null) return null
  const r = raw as Record<string, unknown>
  const out: Partial<RestoredCalculatorState> = {}
  if (isFiniteNumber(r.amount)) out.amount = r.amount
  if (isFiniteNumber(r.term)) out.term = r.term
  if (typeof r.tab === 'string' && (calculatorTabs as readonly string[]).includes(r.tab)) {
    out.tab = r.tab as CalculatorTab
  }
  if (typeof r.optionalFee === 'boolean') out.optionalFee = r.optionalFee
  if (typeof r.promoCode === 'string' || r.promoCode === null) out.promoCode = normalizePromoCode(r.promoCode)
  return Object.keys(out).length > 0 ? out : null
}

export function initialCalculatorContext(input: CalculatorInput | undefined): CalculatorContext {
  const restored = sanitizeRestored(input?.initial)
  return {
    config: null,
    client: { ...guestClient, ...input?.client },
    type: input?.type ?? 'stl',
    amount: emptyAmount,
    term: emptyTerm,
    tab: 'new',
    optionalFees: { [OPTIONAL_FEE]: restored?.optionalFee ?? true },
    promoCode: restored?.promoCode ?? null,
    disabled: false,
    offer: null,
    offerKey: null,
    offerError: false,
    refusal: null,
    error: null,
    decision: null,
    restored,
  }
}

function clientKindOf(client: CalculatorClient): ClientKind {
  if (!client.loggedIn) return 'guest'
  return client.closedLoansCount > 0 ? 'repeat' : 'new'
}

export function offerRequestOf(context: CalculatorContext): OfferRequest {
  return {
    type: context.type,
    kind: clientKindOf(context.client),
    sequenceType: context.tab === 'new' ? 'first' : 'repeated',
    amount: context.amount.current,
    term: context.term.current,
    optionalFee: context.optionalFees[OPTIONAL_FEE],
    promoCode: context.promoCode,
  }
}

/** Two requests with the same key get the same offer; the key is what `offerKey` records. */
export function requestKeyOf(context: CalculatorContext): string {
  const r = offerRequestOf(context)
  return [r.type, r.kind, r.sequenceType, r.amount, r.term, r.optionalFee ? 1 : 0, r.promoCode ?? ''].join(
    '/',
  )
}

/** The tabs this person may choose between: both for a visitor, the one their history gives a client. */
export function tabsOfferedIn(context: Pick<CalculatorContext, 'client'>): readonly CalculatorTab[] {
  return offeredTabs(context.client)
}

export function tabSelectedIn(context: CalculatorContext): boolean {
  return isTabSelected({ tab: context.tab, tabsHidden: tabsOfferedIn(context).length < 2 })
}

/** Spec section 2: the submit button reads 'log in' when this holds. */
export function needsLoginIn(context: CalculatorContext): boolean {
  return needsLogin({ loggedIn: context.client.loggedIn, tabSelected: tabSelectedIn(context) })
}

export function additionalLoanAvailableIn(context: CalculatorContext): boolean {
  const { client } = context
  if (!client.loggedIn || !client.activeLoan) return false
  const { openLoans = 1, defaulted = false, onHold = false, ...loan } = client.activeLoan
  // The rule itself (domain/loan/additional-loan.ts), the one the server asks: here without its sentences.
  return (
    additionalLoanRefusals({
      maxAmount: context.amount.max,
      openLoans,
      loan: { ...loan, onHold },
      hasActiveRefinancing: client.hasActiveRefinancing,
      defaulted,
    }).length === 0
  )
}

export function submitDecisionOf(context: CalculatorContext): SubmitDecision {
  return {
    target: submitTarget({
      additionalLoanAvailable: additionalLoanAvailableIn(context),
      loggedIn: context.client.loggedIn,
      tabSelected: tabSelectedIn(context),
    }),
    amount: context.amount.current,
    term: context.term.current,
    optionalFee: context.optionalFees[OPTIONAL_FEE],
    promoCode: context.promoCode,
  }
}

/**
 * The one place amount, term and tab are settled against the rules. `amount` is where the slider was asked to
 * go; the tab rule then follows the clamped amount, and the term is clamped for the resulting tab.
 */
function settle(
  context: CalculatorContext,
  config: CalculatorConfig,
  wanted: { client: CalculatorClient; tab: CalculatorTab; amount: number; term: number },
): CalculatorContext {
  const { client } = wanted
  const tabs = offeredTabs(client)
  const wantedTab = offeredTab(tabs, wanted.tab)
  const limits = amountLimitsFor({
    config,
    tab: wantedTab,
    tabs,
    loggedIn: client.loggedIn,
    availableAmount: client.availableAmount,
    hasActiveLoan: client.hasActiveLoan,
    increaseOffer: client.increaseOffer,
    limitFirst: client.limitFirst,
  })
  const current = clampAmount(wanted.amount, limits)
  // One tab offered: the amount's limits are that tab's, so the amount cannot move it elsewhere.
  const tab =
    tabs.length < 2
      ? wantedTab
      : tabForAmount({ amount: current, first: limits.first, tab: wantedTab, type: context.type })
  const termLimits = termLimitsFor(config, tab)
  return {
    ...context,
    config,
    client,
    tab,
    amount: { min: limits.min, max: limits.max, first: limits.first, current, interval: limits.interval },
    term: { ...termLimits, current: clampTerm(wanted.term, termLimits) },
    disabled: limits.disabled,
  }
}

function sameIncreaseOffer(a: IncreaseOfferFacts | null, b: IncreaseOfferFacts | null): boolean {
  if (a === null || b === null) return a === b
  return a.amount === b.amount && a.term === b.term && a.principal === b.principal
}

/** Spec section 4: a pending increase offer presets the available amount and the application's term. */
function increasePreset(client: CalculatorClient): { amount: number; term: number } | null {
  if (!client.increaseOffer) return null
  return { amount: client.availableAmount ?? client.increaseOffer.amount, term: client.increaseOffer.term }
}

/** A known client's tab is a fact of their history, not a choice (`offeredTabs`); a visitor keeps theirs. */
function tabOfClient(client: CalculatorClient, fallback: CalculatorTab): CalculatorTab {
  return offeredTab(offeredTabs(client), fallback)
}

/**
 * The configuration arrived: start from the cookie state when there is one, else the configured initial
 * state; a pending increase offer wins over both. Whatever the source, the rules clamp it.
 */
export function withConfig(context: CalculatorContext, config: CalculatorConfig): CalculatorContext {
  const restored = context.restored ?? {}
  const tab = tabOfClient(context.client, restored.tab ?? 'new')
  const preset = increasePreset(context.client)
  const settled = settle(context, config, {
    client: context.client,
    tab,
    amount: preset?.amount ?? restored.amount ?? initialAmountFor(config, tab),
    term: preset?.term ?? restored.term ?? initialTermFor(config, tab),
  })
  return { ...settled, restored: null, error: null }
}

function clientFromUpdate(event: Extract<CalculatorEvent, { type: 'CONTEXT.UPDATE' }>): CalculatorClient {
  return {
    loggedIn: event.loggedIn,
    availableAmount: event.availableAmount,
    hasActiveLoan: event.hasActiveLoan,
    closedLoansCount: event.closedLoansCount,
    increaseOffer: event.increaseOffer ?? null,
    limitFirst: event.limitFirst ?? false,
    hasActiveRefinancing: event.hasActiveRefinancing ?? false,
    activeLoan: event.activeLoan ?? null,
  }
}

/**
 * The context after an input event, once the configuration is known. Events that are not inputs leave it
 * as it is. Pure, so the guards can ask "what would this event do" before the action does it.
 */
export function applyInput(context: CalculatorContext, event: CalculatorEvent): CalculatorContext {
  const config = context.config
  if (!config) return context
  const { client, tab, amount, term } = context
  const next = ((): CalculatorContext => {
    switch (event.type) {
      case 'AMOUNT.SET':
        return settle(context, config, { client, tab, amount: event.value, term: term.current })
      case 'TERM.SET':
        return settle(context, config, { client, tab, amount: amount.current, term: event.value })
      case 'TAB.SELECT': {
        // A tab this person is not offered would price a loan the server refuses them.
        if (!offeredTabs(client).includes(event.tab)) return context
        const capped = amountForTab({ tab: event.tab, amount: amount.current, first: amount.first })
        return settle(context, config, { client, tab: event.tab, amount: capped, term: term.current })
      }
      case 'OPTIONAL_FEE.TOGGLE':
        return { ...context, optionalFees: { [OPTIONAL_FEE]: !context.optionalFees[OPTIONAL_FEE] } }
      case 'OPTIONAL_FEE.SET':
        return { ...context, optionalFees: { [OPTIONAL_FEE]: event.enabled } }
      case 'PROMO.SET':
        return { ...context, promoCode: normalizePromoCode(event.code) }
      case 'CONTEXT.UPDATE': {
        const nextClient = clientFromUpdate(event)
        const nextTab = tabOfClient(nextClient, tab)
        const preset = sameIncreaseOffer(client.increaseOffer, nextClient.increaseOffer)
          ? null
          : increasePreset(nextClient)
        // A disabled calculator holds 0; when it comes back, start where that tab starts.
        const from = context.disabled ? initialAmountFor(config, nextTab) : amount.current
        const switched =
          nextTab !== tab ? amountForTab({ tab: nextTab, amount: from, first: amount.first }) : from
        return settle(context, config, {
          client: nextClient,
          tab: nextTab,
          amount: preset?.amount ?? switched,
          term: preset?.term ?? term.current,
        })
      }
      default:
        return context
    }
  })()
  if (next === context) return context
  const cleared = next.disabled ? { offer: null, offerKey: null, offerError: false, refusal: null } : {}
  // A refusal is about one request; another request has not been refused (yet).
  const refusal = requestKeyOf(next) === requestKeyOf(context) ? next.refusal : null
  return { ...next, refusal, ...cleared, decision: null }
}

/** Whether an input event asks for a different offer than the one requested now. */
function changesRequest(context: CalculatorContext, next: CalculatorContext): boolean {
  return !next.disabled && (context.disabled || requestKeyOf(next) !== requestKeyOf(context))
}

export const calculatorSetup = setup({
  types: {
    context: {} as CalculatorContext,
    events: {} as CalculatorEvent,
    input: {} as CalculatorInput | undefined,
    emitted: {} as CalculatorEmitted,
  },
  actors: {
    // The app provides both: machines never fetch (docs/product.md, The shape of the product).
    loadConfig: fromPromise<CalculatorConfig, void>(async () => {
      throw new Error('calculator: provide the loadConfig actor')
    }),
    fetchOffer: fromPromise<Offer, OfferRequest>(async () => {
      throw new Error('calculator: provide the fetchOffer actor')
    }),
  },
  delays: {
    OFFER_DEBOUNCE: OFFER_DEBOUNCE_MS,
  },
  guards: {
    configDisables: ({ context }, params: { config: CalculatorConfig }) =>
      withConfig(context, params.config).disabled,
    inputDisables: ({ context, event }) => applyInput(context, event).disabled,
    inputChangesRequest: ({ context, event }) => changesRequest(context, applyInput(context, event)),
    isEnabled: ({ context }) => !context.disabled,
    isRefusal: (_, params: { error: unknown }) => params.error instanceof OfferRefusedError,
  },
  actions: {
    applyConfig: assign(({ context }, params: { config: CalculatorConfig }) =>
      withConfig(context, params.config),
    ),
    recordConfigError: assign({ error: CONFIG_LOAD_ERROR }),
    clearError: assign({ error: null }),
    storeClient: assign({
      client: ({ context, event }) =>
        event.type === 'CONTEXT.UPDATE' ? clientFromUpdate(event) : context.client,
    }),
    applyInput: assign(({ context, event }) => applyInput(context, event)),
    storeOffer: assign(({ context }, params: { offer: Offer }) => ({
      offer: params.offer,
      // Any input change leaves fetching, so the answer always belongs to the current request.
      offerKey: requestKeyOf(context),
      offerError: false,
      refusal: null,
    })),
    markOfferError: assign({ offer: null, offerKey: null, offerError: true, refusal: null }),
    markRefused: assign((_, params: { error: unknown }) => ({
      offer: null,
      offerKey: null,
      offerError: false,
      refusal: params.error instanceof OfferRefusedError ? params.error.reasons : [],
    })),
    decideSubmit: assign({ decision: ({ context }) => submitDecisionOf(context) }),
    emitDecision: emit(({ context }) => ({
      type: 'calculator.submit' as const,
      decision: context.decision ?? submitDecisionOf(context),
    })),
  },
})

const onInput = [
  { guard: 'inputDisables', target: '.disabled', actions: 'applyInput' },
  { guard: 'inputChangesRequest', target: '.debouncing', actions: 'applyInput' },
  { actions: 'applyInput' },
] as const
// A toggle always changes the request, so it has no "nothing changed" branch.
const onToggle = [onInput[0], { target: '.debouncing', actions: 'applyInput' }] as const

export const calculatorMachine = calculatorSetup.createMachine({
  id: 'calculator',
  context: ({ input }) => initialCalculatorContext(input),
  initial: 'loading',
  // Before the configuration is known the client is only remembered; ready settles it against the rules.
  on: { 'CONTEXT.UPDATE': { actions: 'storeClient' } },
  states: {
    loading: {
      invoke: {
        id: 'loadConfig',
        src: 'loadConfig',
        onDone: [
          {
            guard: { type: 'configDisables', params: ({ event }) => ({ config: event.output }) },
            target: 'ready.disabled',
            actions: { type: 'applyConfig', params: ({ event }) => ({ config: event.output }) },
          },
          {
            target: 'ready',
            actions: { type: 'applyConfig', params: ({ event }) => ({ config: event.output }) },
          },
        ],
        onError: { target: 'error', actions: 'recordConfigError' },
      },
    },
    error: {
      on: { RETRY: { target: 'loading', actions: 'clearError' } },
    },
    ready: {
      initial: 'debouncing',
      on: {
        'AMOUNT.SET': onInput,
        'TERM.SET': onInput,
        'TAB.SELECT': onInput,
        'OPTIONAL_FEE.TOGGLE': onToggle,
        'OPTIONAL_FEE.SET': onInput,
        'PROMO.SET': onInput,
        'CONTEXT.UPDATE': onInput,
        SUBMIT: { guard: 'isEnabled', actions: ['decideSubmit', 'emitDecision'] },
      },
      states: {
        disabled: {},
        debouncing: {
          after: { OFFER_DEBOUNCE: 'fetching' },
        },
        fetching: {
          invoke: {
            id: 'fetchOffer',
            src: 'fetchOffer',
            input: ({ context }) => offerRequestOf(context),
            onDone: {
              target: 'loaded',
              actions: { type: 'storeOffer', params: ({ event }) => ({ offer: event.output }) },
            },
            onError: [
              {
                guard: { type: 'isRefusal', params: ({ event }) => ({ error: event.error }) },
                target: 'refused',
                actions: { type: 'markRefused', params: ({ event }) => ({ error: event.error }) },
              },
              { target: 'failed', actions: 'markOfferError' },
            ],
          },
        },
        loaded: {},
        failed: {
          on: { 'OFFER.RETRY': 'fetching' },
        },
        // The server refused this request: asking again cannot help, so there is no retry; the next input
        // change (the reasons say which) leaves through the input events above, which price the new request.
        refused: {},
      },
    },
  },
})
