/**
 * What some machines say about their states beyond the statechart, for the analyst reading the diagram. A
 * machine without an entry here renders exactly as it always did.
 *
 * - clientJourney (the server's journey, domain/journey/client-journey.machine.ts): each state's page
 *   (`describeDestination` of its `meta.destination`) and its flow status, its phase (`meta.phase`, drawn as a
 *   box around the phase's steps, `journeyPhases`), a title that tells it from the browser's flow polling, and a
 *   table of the steps the routing knows but the server never enters.
 * - loanLifecycle (domain/loan/loan-lifecycle.machine.ts): each state's spec status code and label (the plans of
 *   an open loan, `on_terms` and `scheduled`, and an active plan's standings, `current` and `overdue`, answer
 *   their top-level state's code), the leaves the server stores with the events each accepts and the loan columns
 *   they live in, the events with who sends them and through which calls, and the spec's statuses no transition
 *   reaches yet.
 */
import {
  type JourneyPhase,
  type JourneyStepMeta,
  journeyPhases,
  unenteredSteps,
} from '../../domain/journey/client-journey.machine'
import { describeDestination } from '../../domain/journey/destinations'
import {
  LOAN_MODEL_VERSION,
  type LoanStateMeta,
  loanEventDefinitions,
  loanEventsAcceptedAt,
  loanLeaves,
  loanStatusOf,
  unenteredLoanStates,
} from '../../domain/loan/loan-lifecycle.machine'
import type { Chart } from './render'

const describeStep = (meta: JourneyStepMeta) =>
  `${describeDestination(meta.destination)} (${meta.status === 'completed' ? 'waiting: status completed' : 'active'})`

function isStepMeta(meta: unknown): meta is JourneyStepMeta {
  return typeof meta === 'object' && meta !== null && 'status' in meta && 'destination' in meta
}

function clientJourney(chart: Chart, metaOf: (id: string) => unknown): Chart {
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  const unentered = Object.entries(unenteredSteps).map(
    ([step, meta]) => `| \`${step}\` | ${cell(describeStep(meta))} |`,
  )
  const title = 'Client journey (server)'
  const phaseOf = (id: string): JourneyPhase | undefined => {
    const meta = metaOf(id)
    return isStepMeta(meta) ? meta.phase : undefined
  }
  const groups = (Object.entries(journeyPhases) as [JourneyPhase, { description: string }][]).map(
    ([key, { description }]) => ({
      key,
      description,
      stateIds: chart.states.filter((s) => s.parentId !== null && phaseOf(s.id) === key).map((s) => s.id),
    }),
  )
  return {
    ...chart,
    title,
    groups,
    states: chart.states.map((s) => {
      // The root's label carries the title into the SVG, where the page's heading is not.
      if (s.parentId === null) return { ...s, note: title }
      const meta = metaOf(s.id)
      return isStepMeta(meta) ? { ...s, note: describeStep(meta) } : s
    }),
    sections: [
      [
        '## Steps the server never enters',
        '',
        "The spec's routing table names these steps; the browser routes them, but no transition of this machine " +
          'reaches them (domain/journey/client-journey.machine.ts, `unenteredSteps`).',
        '',
        '| Step | Shows |',
        '| --- | --- |',
        ...unentered,
      ].join('\n'),
    ],
  }
}

function isLoanMeta(meta: unknown): meta is LoanStateMeta {
  return typeof meta === 'object' && meta !== null && 'status' in meta && 'label' in meta
}

function loanLifecycle(chart: Chart, metaOf: (id: string) => unknown): Chart {
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  const title = 'Loan lifecycle (server)'
  const events = Object.entries(loanEventDefinitions).map(
    ([event, d]) =>
      `| \`${event}\` | ${cell(d.label)} | ${d.sentBy.join(', ')} | ${d.calls.length ? cell(d.calls.join('; ')) : '(a job)'} |`,
  )
  const leaves = loanLeaves.map((leaf) => {
    const accepted = loanEventsAcceptedAt(leaf)
    return `| \`${leaf}\` | ${loanStatusOf(leaf)} | ${accepted.length ? accepted.map((e) => `\`${e}\``).join(', ') : '(none: final)'} |`
  })
  const unentered = Object.entries(unenteredLoanStates).map(
    ([state, meta]) => `| \`${state}\` | ${meta.status} | ${cell(meta.label)} |`,
  )
  return {
    ...chart,
    title,
    states: chart.states.map((s) => {
      if (s.parentId === null) return { ...s, note: title }
      const meta = metaOf(s.id)
      return isLoanMeta(meta) ? { ...s, note: `status ${meta.status}: ${meta.label}` } : s
    }),
    sections: [
      [
        '## What the server stores',
        '',
        `Each loan is in one of these leaves (model version ${LOAN_MODEL_VERSION}; \`advanceLoan\` refuses every ` +
          'event not listed, and a call that sends one answers 409). The loan row splits the leaf: `state` holds ' +
          'the top-level state (its spec code in `status`), `plan` the plan (`on_terms` or `scheduled`; kept on a ' +
          'paid loan, so a reversal reopens it on that plan), `standing` the standing (`current` or `overdue`; ' +
          '`current` outside `active`).',
        '',
        'The daily servicing run sends `OVERDUE` and `CAUGHT_UP` and keeps its own dates on the row: ' +
          '`overdue_since` (the first day of the current overdue spell, null while current), `serviced_through` ' +
          '(the last day it booked for the loan) and `penalty_through` (the last day a late-payment penalty was ' +
          'charged for).',
        '',
        '| Leaf | Status | Accepts |',
        '| --- | --- | --- |',
        ...leaves,
      ].join('\n'),
      ['## Events', '', '| Event | What | Sent by | Calls |', '| --- | --- | --- | --- |', ...events].join(
        '\n',
      ),
      [
        '## Statuses no transition reaches yet',
        '',
        'Spec section 4 names them; no issue has made a state of them yet.',
        '',
        '| State | Status | Meaning |',
        '| --- | --- | --- |',
        ...unentered,
      ].join('\n'),
    ],
  }
}

export const annotators: Record<string, (chart: Chart, metaOf: (id: string) => unknown) => Chart> = {
  clientJourney,
  loanLifecycle,
}
