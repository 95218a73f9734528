/**
 * /application/offer-decrease and /application/offer-increase: the client answers the decision engine's
 * counter-offer. The offer-decision machine (machines/offer-decision.machine.ts) decides which call is made
 * with which body; these screens show the figures, send APPROVE / REFUSE, and once the answer is taken and the
 * application reloaded, tell the journey to refetch the flow (the router moves the client on).
 */
import { useQueryClient } from '@tanstack/react-query'
import { useActorRef, useSelector } from '@xstate/react'
import { type ComponentType, useEffect, useId, useMemo, useState } from 'react'
import type { IncreaseOfferFacts } from '../../../domain/calculator-rules'
import type { Application } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import type { Offer } from '../../../domain/offer'
import type { LoanFigures } from '../../../domain/offer-decision'
import { isBusy, offerDecisionMachine } from '../../../machines/offer-decision.machine'
import { useApi, useJourneyRefresh } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { applicationQueryKeys, decisionApplicationOf, offerDecisionActors } from './application-api'
import { formatLongDate } from './format'
import { ErrorNotice, Figures, QueryGate, ScreenFrame } from './parts'
import { useActualApplication, useActualOffer } from './queries'

function useOfferDecision(application: Application) {
  const api = useApi()
  const queryClient = useQueryClient()
  const refreshJourney = useJourneyRefresh()
  const machine = useMemo(
    () =>
      offerDecisionMachine.provide({
        actors: offerDecisionActors(api, (reloaded) =>
          queryClient.setQueryData(applicationQueryKeys.actual, reloaded),
        ),
      }),
    [api, queryClient],
  )
  const [input] = useState(() => ({ application: decisionApplicationOf(application) }))
  const actor = useActorRef(machine, { input })
  const snapshot = useSelector(actor, (s) => s)
  const done = snapshot.status === 'done'
  useEffect(() => {
    if (done) refreshJourney()
  }, [done, refreshJourney])
  return { actor, snapshot }
}

type Decision = ReturnType<typeof useOfferDecision>

function days(n: number, m: { day: string; days: string }) {
  return `${n} ${n === 1 ? m.day : m.days}`
}

/** The answer's state: why an answer was refused, a failed call with Retry / Back, the sending notice. */
function DecisionStatus({ decision, application }: { decision: Decision; application: Application }) {
  const m = useMessages().application
  const { snapshot, actor } = decision
  const { refused, errorCode } = snapshot.context
  if (snapshot.matches('noOffer')) return <p role="status">{m.offer.noOffer}</p>
  if (snapshot.matches('failed') || snapshot.matches('reloadFailed') || snapshot.matches('updateFailed')) {
    return (
      <ErrorNotice errorKey={errorCode ?? 'error'}>
        <p className="callout__title">
          {snapshot.matches('failed')
            ? m.offer.failedTitle
            : snapshot.matches('updateFailed')
              ? m.offer.updateFailedTitle
              : m.offer.reloadFailedTitle}
        </p>
        <p className="button-row">
          <button
            type="button"
            className="button button--primary"
            onClick={() => actor.send({ type: 'RETRY' })}
          >
            {m.retry}
          </button>
          {snapshot.matches('failed') ? (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => actor.send({ type: 'BACK' })}
            >
              {m.back}
            </button>
          ) : null}
        </p>
      </ErrorNotice>
    )
  }
  if (isBusy(snapshot)) {
    return (
      <p role="status" aria-live="polite">
        {m.offer.sending}
      </p>
    )
  }
  if (refused) {
    const decisionFacts = decisionApplicationOf(application)
    return (
      <p className="field__error" role="alert" data-error-key={`offer-${refused}`}>
        {fmt(m.offer.refused[refused], {
          min: formatPhp(decisionFacts.principal),
          max: formatPhp(decisionFacts.offered.amount),
        })}
      </p>
    )
  }
  return null
}

function offerFigures(offer: Offer, m: ReturnType<typeof useMessages>['application']) {
  return [
    { name: 'principal', label: m.offer.principal, value: formatPhp(offer.principal.amount) },
    { name: 'interest', label: m.offer.interest, value: formatPhp(offer.interest.amount) },
    { name: 'processing-fee', label: m.offer.processingFee, value: formatPhp(offer.processingFee.amount) },
    {
      name: 'package-fee',
      label: m.offer.packageFee,
      value: formatPhp(offer.borrowers_advantage_package_fee.amount),
    },
    { name: 'total', label: m.offer.total, value: formatPhp(offer.total.amount) },
    { name: 'term', label: m.offer.term, value: days(offer.term, m) },
    { name: 'due-date', label: m.offer.dueDate, value: formatLongDate(offer.endDate) },
  ]
}

export function OfferDecreaseScreen() {
  const m = useMessages().application
  const application = useActualApplication()
  const offer = useActualOffer(application.data?.id)
  return (
    <ScreenFrame title={m.decrease.title} lead={m.decrease.lead}>
      <QueryGate query={application}>
        {(app) => (
          <QueryGate query={offer}>{(o) => <DecreaseDecision application={app} offer={o} />}</QueryGate>
        )}
      </QueryGate>
    </ScreenFrame>
  )
}

function DecreaseDecision({ application, offer }: { application: Application; offer: Offer }) {
  const m = useMessages().application
  const decision = useOfferDecision(application)
  const { snapshot, actor } = decision
  const facts = decisionApplicationOf(application)
  const answerable = snapshot.matches('deciding')
  return (
    <>
      <Figures
        label={m.offer.requested}
        figures={[
          {
            name: 'requested',
            label: m.offer.requested,
            value: `${formatPhp(facts.desired.amount)} · ${days(facts.desired.term, m)}`,
          },
        ]}
      />
      <h2 className="section__title">{m.offer.offered}</h2>
      <Figures label={m.offer.offered} figures={offerFigures(offer, m)} />
      <FeeConsent decision={decision} />
      <DecisionStatus decision={decision} application={application} />
      <p className="button-row">
        <button
          type="button"
          className="button button--primary"
          disabled={!answerable}
          onClick={() => actor.send({ type: 'APPROVE' })}
        >
          {m.offer.approve}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={!answerable}
          aria-describedby="offer-refuse-hint"
          onClick={() => actor.send({ type: 'REFUSE' })}
        >
          {m.offer.refuse}
        </button>
      </p>
      <p id="offer-refuse-hint" className="field__hint">
        {m.decrease.refuseHint}
      </p>
    </>
  )
}

/**
 * The package fee consent on the lower offer (spec section 4, Application update): the application's own to
 * start with; a change is sent as the application update once the offer is accepted.
 */
function FeeConsent({ decision }: { decision: Decision }) {
  const m = useMessages().application
  const { snapshot, actor } = decision
  const id = useId()
  return (
    <p className="field field--checkbox">
      <input
        id={id}
        type="checkbox"
        checked={snapshot.context.feeConsent}
        disabled={!snapshot.matches('deciding')}
        aria-describedby={`${id}-hint`}
        onChange={(event) => actor.send({ type: 'FEE_CONSENT.SET', enabled: event.target.checked })}
      />{' '}
      <label htmlFor={id}>{m.offer.feeConsent}</label>
      <span id={`${id}-hint`} className="field__hint">
        {m.offer.feeConsentHint}
      </span>
    </p>
  )
}

/** What the increase screen asks of the calculator the route gives it (src/features/calculator). */
export interface IncreaseCalculatorProps {
  increaseOffer: IncreaseOfferFacts
  /** The application's package-fee consent, where the calculator's checkbox starts. */
  feeConsent: boolean
  onSelection: (choice: LoanFigures & { optionalFee: boolean }) => void
}

export function OfferIncreaseScreen({ Calculator }: { Calculator: ComponentType<IncreaseCalculatorProps> }) {
  const m = useMessages().application
  const application = useActualApplication()
  return (
    <ScreenFrame title={m.increase.title}>
      <QueryGate query={application}>
        {(app) => <IncreaseDecision application={app} Calculator={Calculator} />}
      </QueryGate>
    </ScreenFrame>
  )
}

function IncreaseDecision({
  application,
  Calculator,
}: {
  application: Application
  Calculator: ComponentType<IncreaseCalculatorProps>
}) {
  const m = useMessages().application
  const decision = useOfferDecision(application)
  const { snapshot, actor } = decision
  const facts = decisionApplicationOf(application)
  // Spec section 4: preset to the available (offered) amount and the application's term; min is the principal.
  const increaseOffer = useMemo(
    () => ({ amount: facts.offered.amount, term: facts.offered.term, principal: facts.principal }),
    [facts.offered.amount, facts.offered.term, facts.principal],
  )
  const [choice, setChoice] = useState<LoanFigures | null>(null)
  const answerable = snapshot.matches('deciding')
  return (
    <>
      <p className="lead">{fmt(m.increase.lead, { max: formatPhp(facts.offered.amount) })}</p>
      <Calculator
        increaseOffer={increaseOffer}
        feeConsent={facts.feeConsent}
        onSelection={(next) => {
          setChoice({ amount: next.amount, term: next.term })
          // The calculator's package-fee checkbox is the consent the answer carries (application update).
          if (next.optionalFee !== actor.getSnapshot().context.feeConsent)
            actor.send({ type: 'FEE_CONSENT.SET', enabled: next.optionalFee })
        }}
      />
      <DecisionStatus decision={decision} application={application} />
      <p className="button-row">
        <button
          type="button"
          className="button button--primary"
          disabled={!answerable || !choice}
          onClick={() => actor.send(choice ? { type: 'APPROVE', choice } : { type: 'APPROVE' })}
        >
          {choice
            ? fmt(m.increase.approve, { amount: formatPhp(choice.amount), term: days(choice.term, m) })
            : m.offer.approve}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={!answerable}
          aria-describedby="offer-refuse-hint"
          onClick={() => actor.send({ type: 'REFUSE' })}
        >
          {m.offer.refuse}
        </button>
      </p>
      <p id="offer-refuse-hint" className="field__hint">
        {fmt(m.increase.refuseHint, {
          amount: formatPhp(facts.desired.amount),
          term: days(facts.desired.term, m),
        })}
      </p>
    </>
  )
}
