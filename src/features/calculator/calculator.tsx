/**
 * The loan calculator screen (spec section 2, Loan calculator). The calculator machine decides everything:
 * limits, tabs, debounce, what submit does; this component shows its snapshot, sends it the user's events and
 * provides its two actors with the app's API client. Its decision goes to the app's calculator-submit machine
 * (machines/calculator-submit.machine.ts), whose state the route guards read: the page never navigates.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react'
import { type CalculatorTab, calculatorTabs, LOGIN_SUBMIT_LABEL } from '../../../domain/calculator-rules'
import type { PricedOffer } from '../../../domain/contract/pricing-answers'
import {
  type CalculatorClient,
  calculatorMachine,
  guestClient,
  needsLoginIn,
  OPTIONAL_FEE,
  requestKeyOf,
  tabsOfferedIn,
} from '../../../machines/calculator.machine'
import { isSubmitting } from '../../../machines/calculator-submit.machine'
import { useAppServices } from '../../app/app-context'
import type { WithApplicationServices } from '../../app/application-services'
import { fmt, useMessages } from '../../i18n/messages'
import { calculatorActors } from './calculator-api'
import { CALCULATOR_FORM_ACTION, readCalculatorCookie, writeCalculatorCookie } from './calculator-cookie'
import { forgetPreload, preloadedSnapshot } from './calculator-preload'
import { CalculatorStats } from './calculator-stats'
import { displayMoney, formatDays, spokenMoney } from './format'
import { PromoCodeField } from './promo-code-field'
import { RangeField } from './range-field'

export interface CalculatorProps {
  /** Full shows everything; compact shows a one-line summary and an Edit toggle that opens the sliders. */
  mode?: 'full' | 'compact'
  /** The client's facts; a visitor when absent. A change is forwarded to the machine (CONTEXT.UPDATE). */
  client?: Partial<CalculatorClient>
  /** Home and /profile/no-loan: a returning client with no active loan gets the expandable extra note. */
  extraNote?: boolean
  /** False where the page itself goes on (the apply form); the state still travels in the cookie. */
  submit?: boolean
  /** Told the settled amount, term and fee choice whenever they change (the offer-increase page reads them). */
  onSelection?: (selection: CalculatorSelection) => void
  /**
   * Compact mode on the apply form: the package-fee consent and the promo code stay in view outside the Edit
   * toggle, since the application is made of them (one checkbox, one promo field: the calculator's own).
   */
  optionsShown?: boolean
  /**
   * The package-fee consent to start from instead of the kept state's: an application's own consent where the
   * calculator changes an application (the increase offer).
   */
  initialFee?: boolean
}

export interface CalculatorSelection {
  amount: number
  term: number
  optionalFee: boolean
  /** The promo code the server accepted, or null. */
  promoCode: string | null
  /** The offer shown is priced for exactly this selection (no request pending, no pricing error). */
  priced: boolean
  /** The server refused to price this selection; the calculator says why, and a change of value recovers. */
  refused: boolean
}

export function Calculator({
  mode = 'full',
  client,
  extraNote = false,
  submit = true,
  onSelection,
  optionsShown = false,
  initialFee,
}: CalculatorProps) {
  const services = useAppServices()
  const { api } = services
  const m = useMessages().calculator
  const baseId = useId()
  const formId = `${baseId}-submit`
  // Painted by the server at its default offer (calculator-preload.ts): start there, the same as the HTML being
  // hydrated, and apply the kept state (a cookie the server never sees) as inputs once the page is live.
  const [start] = useState(() => {
    const kept = readCalculatorCookie()
    const cookie = initialFee === undefined ? kept : { ...kept, optionalFee: initialFee }
    const preloaded = preloadedSnapshot(services.queryClient, client)
    return preloaded
      ? { snapshot: preloaded, initial: null, later: cookie }
      : { initial: cookie, later: null }
  })
  const machine = useMemo(() => calculatorMachine.provide({ actors: calculatorActors(api) }), [api])
  const actor = useActorRef(machine, { input: { initial: start.initial, client }, snapshot: start.snapshot })
  const snapshot = useSelector(actor, (s) => s)
  const { context } = snapshot
  useEffect(() => {
    if (start.snapshot) forgetPreload(services.queryClient)
    const kept = start.later
    if (!kept) return
    if (kept.tab) actor.send({ type: 'TAB.SELECT', tab: kept.tab })
    if (kept.amount !== undefined) actor.send({ type: 'AMOUNT.SET', value: kept.amount })
    if (kept.term !== undefined) actor.send({ type: 'TERM.SET', value: kept.term })
    if (kept.optionalFee !== undefined) actor.send({ type: 'OPTIONAL_FEE.SET', enabled: kept.optionalFee })
    if (kept.promoCode !== undefined) actor.send({ type: 'PROMO.SET', code: kept.promoCode ?? '' })
  }, [actor, start, services.queryClient])
  // The server's HTML is usable before the app runs (issue 21): what the visitor moved before hydration is still in
  // the controls, not in the machine. Taken over once, after the kept state, since it is the newer choice.
  useEffect(() => {
    if (!start.snapshot) return
    // Compared with what the server painted, not with the machine (the kept state may have moved it already).
    const now = actor.getSnapshot().context
    const painted = {
      amount: start.snapshot.context.amount.current,
      term: start.snapshot.context.term.current,
      fee: start.snapshot.context.optionalFees[OPTIONAL_FEE],
    }
    const control = (name: string) => document.getElementById(`${baseId}-${name}`) as HTMLInputElement | null
    const amountValue = Number(control('amount')?.value)
    if (Number.isFinite(amountValue) && amountValue !== painted.amount && amountValue !== now.amount.current)
      actor.send({ type: 'AMOUNT.SET', value: amountValue })
    const termValue = Number(control('term')?.value)
    if (Number.isFinite(termValue) && termValue !== painted.term && termValue !== now.term.current)
      actor.send({ type: 'TERM.SET', value: termValue })
    const fee = control('fee')
    if (fee && fee.checked !== painted.fee) actor.send({ type: 'OPTIONAL_FEE.SET', enabled: fee.checked })
  }, [actor, start, baseId])

  // Forward changed client facts; the first value went in as input.
  const clientKey = JSON.stringify(client ?? null)
  const sentClientKey = useRef(clientKey)
  useEffect(() => {
    if (sentClientKey.current === clientKey) return
    sentClientKey.current = clientKey
    actor.send({ type: 'CONTEXT.UPDATE', ...guestClient, ...(JSON.parse(clientKey) ?? {}) })
  }, [actor, clientKey])

  // Keep the state for 24 hours once the configuration has settled it (spec section 9).
  const ready = snapshot.matches('ready') && !context.disabled
  const { tab } = context
  const amount = context.amount.current
  const term = context.term.current
  const optionalFee = context.optionalFees[OPTIONAL_FEE]
  const promoCode = context.promoCode
  useEffect(() => {
    if (ready) writeCalculatorCookie({ amount, term, tab, optionalFee, promoCode })
  }, [ready, amount, term, tab, optionalFee, promoCode])
  const selectionListener = useRef(onSelection)
  selectionListener.current = onSelection
  const priced = context.offerKey === requestKeyOf(context) && context.offer !== null && !context.offerError
  const refused = snapshot.matches({ ready: 'refused' })
  useEffect(() => {
    if (ready) selectionListener.current?.({ amount, term, optionalFee, promoCode, priced, refused })
  }, [ready, amount, term, optionalFee, promoCode, priced, refused])

  // The machine's submit decision goes to the app's submit machine (spec section 4, Submit from the calculator).
  const submitter = (services as WithApplicationServices).application?.submit
  const submitting = useSelector(submitter, (s) => (s ? isSubmitting(s) : false))
  const submitFailed = useSelector(submitter, (s) => s?.matches('failed') ?? false)
  useEffect(() => {
    const subscription = actor.on('calculator.submit', ({ decision }) => {
      writeCalculatorCookie({
        amount: decision.amount,
        term: decision.term,
        tab: actor.getSnapshot().context.tab,
        optionalFee: decision.optionalFee,
        promoCode: decision.promoCode,
      })
      submitter?.send({ type: 'SUBMIT', decision })
    })
    return () => subscription.unsubscribe()
  }, [actor, submitter])
  // A failure this calculator showed is not shown again by the next one.
  useEffect(() => () => submitter?.send({ type: 'DISMISS' }), [submitter])

  const [editing, setEditing] = useState(mode === 'full')
  const [noteOpen, setNoteOpen] = useState(false)

  if (snapshot.matches('loading')) {
    return (
      <section className="calculator calculator--busy" aria-label={m.title} aria-busy="true">
        <div className="calculator__overlay" role="status">
          <span className="calculator__spinner" aria-hidden="true" />
          <span>{m.loading}</span>
        </div>
      </section>
    )
  }
  if (snapshot.matches('error')) {
    return (
      <section
        className="calculator calculator--failed"
        aria-label={m.title}
        data-error={context.error ?? ''}
      >
        <div className="calculator__overlay" role="alert">
          <p className="calculator__overlay-title">{m.configError.title}</p>
          <p>{m.configError.body}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => actor.send({ type: 'RETRY' })}
          >
            {m.configError.retry}
          </button>
        </div>
      </section>
    )
  }
  // Spec section 2: the calculator hides itself when the current amount is 0 (max fell below min).
  if (context.disabled || amount === 0) return null

  const { loggedIn } = context.client
  // A visitor chooses; a client's tab is their history (issue 13), so there is nothing to choose.
  const tabsShown = tabsOfferedIn(context).length > 1
  // A refused request is fixed on the sliders: the compact editor opens for it.
  const editorOpen = editing || refused
  // Busy only while an offer is on its way: a failed or refused request waits for the person, not the server.
  const pending =
    context.offerKey !== requestKeyOf(context) &&
    (snapshot.matches({ ready: 'debouncing' }) || snapshot.matches({ ready: 'fetching' }))
  const offerPromo = pending ? null : ((context.offer as PricedOffer | null)?.promo ?? null)
  const showNote =
    extraNote && loggedIn && context.client.closedLoansCount > 0 && !context.client.hasActiveLoan
  const editorId = `${baseId}-editor`
  const panelId = `${baseId}-panel`
  const tabId = (t: CalculatorTab) => `${baseId}-tab-${t}`
  const amountText = spokenMoney(amount, m.currencyCode)
  const termText = formatDays(term, m)

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = calculatorTabs.indexOf(tab)
    const next =
      event.key === 'ArrowRight'
        ? calculatorTabs[(index + 1) % calculatorTabs.length]
        : event.key === 'ArrowLeft'
          ? calculatorTabs[(index - 1 + calculatorTabs.length) % calculatorTabs.length]
          : event.key === 'Home'
            ? calculatorTabs[0]
            : event.key === 'End'
              ? calculatorTabs[calculatorTabs.length - 1]
              : undefined
    if (!next) return
    event.preventDefault()
    actor.send({ type: 'TAB.SELECT', tab: next })
    document.getElementById(tabId(next))?.focus()
  }

  const options = (
    <>
      <div className="calculator__fee">
        <input
          id={`${baseId}-fee`}
          name="fee"
          value="1"
          form={submit ? formId : undefined}
          type="checkbox"
          checked={optionalFee}
          aria-describedby={`${baseId}-fee-hint`}
          onChange={(event) => actor.send({ type: 'OPTIONAL_FEE.SET', enabled: event.currentTarget.checked })}
        />
        <label htmlFor={`${baseId}-fee`}>{m.optionalFee.label}</label>
        <p id={`${baseId}-fee-hint`} className="field__hint">
          {m.optionalFee.hint}
        </p>
      </div>
      <PromoCodeField
        loggedIn={loggedIn}
        current={promoCode}
        offerStatus={offerPromo && !offerPromo.applied ? offerPromo.status : null}
        onValid={(code) => actor.send({ type: 'PROMO.SET', code })}
        onClear={() => actor.send({ type: 'PROMO.SET', code: '' })}
      />
    </>
  )

  const panel = (
    <>
      {mode === 'compact' ? (
        <div className="calculator__compact">
          <p className="calculator__summary">
            {fmt(m.compactSummary, { amount: displayMoney(amount), term: termText })}
          </p>
          <button
            type="button"
            className="button button--ghost button--sm"
            aria-expanded={editorOpen}
            aria-controls={editorId}
            onClick={() => setEditing(!editorOpen)}
          >
            {editorOpen ? m.done : m.edit}
          </button>
        </div>
      ) : null}
      <div id={editorId} className="calculator__editor" hidden={!editorOpen}>
        <RangeField
          id={`${baseId}-amount`}
          name="amount"
          form={submit ? formId : undefined}
          label={m.amount}
          value={amount}
          min={context.amount.min}
          max={context.amount.max}
          step={context.amount.interval}
          display={displayMoney(amount)}
          valueText={amountText}
          minDisplay={displayMoney(context.amount.min)}
          maxDisplay={displayMoney(context.amount.max)}
          onChange={(value) => actor.send({ type: 'AMOUNT.SET', value })}
        />
        <RangeField
          id={`${baseId}-term`}
          name="term"
          form={submit ? formId : undefined}
          label={m.term}
          value={term}
          min={context.term.min}
          max={context.term.max}
          step={context.term.interval}
          display={termText}
          valueText={termText}
          minDisplay={formatDays(context.term.min, m)}
          maxDisplay={formatDays(context.term.max, m)}
          onChange={(value) => actor.send({ type: 'TERM.SET', value })}
        />
        {optionsShown ? null : options}
      </div>
      {optionsShown ? options : null}
      <CalculatorStats
        amount={amount}
        term={term}
        offer={context.offer}
        loggedIn={loggedIn}
        pending={pending}
      />
      {context.offerError ? (
        <div className="calculator__offer-error" role="alert">
          <p>{m.offerError.body}</p>
          <button
            type="button"
            className="button button--secondary button--sm"
            onClick={() => actor.send({ type: 'OFFER.RETRY' })}
          >
            {m.offerError.retry}
          </button>
        </div>
      ) : null}
      {refused ? (
        <div className="calculator__offer-error" role="alert" data-refused="true">
          <p className="calculator__offer-error-title">{m.refusal.title}</p>
          {context.refusal?.length ? (
            <ul>
              {context.refusal.map((reason) => (
                <li key={`${reason.propertyPath}:${reason.message}`} data-field={reason.propertyPath}>
                  {reason.message}
                </li>
              ))}
            </ul>
          ) : null}
          <p>{m.refusal.hint}</p>
        </div>
      ) : null}
      {showNote ? (
        <div className="calculator__note">
          <p>{m.extraNote.summary}</p>
          <p id={`${baseId}-note`} hidden={!noteOpen}>
            {m.extraNote.details}
          </p>
          <button
            type="button"
            className="calculator__note-toggle"
            aria-expanded={noteOpen}
            aria-controls={`${baseId}-note`}
            onClick={() => setNoteOpen((open) => !open)}
          >
            {noteOpen ? m.extraNote.hide : m.extraNote.more}
          </button>
        </div>
      ) : null}
      {submit ? (
        // A real form (issue 21): on the server's page, before the app runs, Apply now still takes the visitor to
        // registration with the figures the sliders hold (the app keeps them: calculator-cookie.ts,
        // takeCalculatorQuery). Once the app runs, the machine decides where a submit goes.
        <form
          id={formId}
          className="calculator__actions"
          action={CALCULATOR_FORM_ACTION}
          method="get"
          onSubmit={(event) => {
            event.preventDefault()
            actor.send({ type: 'SUBMIT' })
          }}
        >
          <button
            type="submit"
            className="button button--accent button--lg button--block"
            disabled={submitting}
          >
            {submitting ? m.submitting : needsLoginIn(context) ? LOGIN_SUBMIT_LABEL : m.submit}
          </button>
          {submitFailed ? (
            <p className="field__error" role="alert">
              {m.createFailed}
            </p>
          ) : null}
        </form>
      ) : null}
    </>
  )

  return (
    <section className={`calculator calculator--${mode}`} aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`} className={mode === 'compact' ? 'visually-hidden' : 'calculator__title'}>
        {m.title}
      </h2>
      {tabsShown ? (
        <div className="calculator__tabs" role="tablist" aria-label={m.tabsLabel}>
          {calculatorTabs.map((t) => (
            <button
              key={t}
              id={tabId(t)}
              type="button"
              role="tab"
              className="calculator__tab"
              aria-selected={tab === t}
              aria-controls={panelId}
              tabIndex={tab === t ? 0 : -1}
              onClick={() => actor.send({ type: 'TAB.SELECT', tab: t })}
              onKeyDown={onTabKey}
            >
              {m.tabs[t]}
            </button>
          ))}
        </div>
      ) : null}
      {/* The same element with or without tabs: the client's facts arriving must not remount the controls. */}
      <div
        id={panelId}
        className="calculator__panel"
        {...(tabsShown ? { role: 'tabpanel', 'aria-labelledby': tabId(tab) } : {})}
      >
        {panel}
      </div>
    </section>
  )
}
