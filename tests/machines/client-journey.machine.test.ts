/**
 * The server's journey statechart, tested from the model itself (no copied table of its transitions):
 * - model-based paths (xstate/graph) reach every state; each path is extended by every event its last state
 *   accepts, so every transition is taken; the paths are replayed on a real actor (coverage recorded by
 *   tests/support/model-coverage.ts) and through `advanceJourney`, what the server runs, which must agree;
 * - the metadata: every step's destination resolves to a page of `journeyPages` or an external site, the waiting
 *   steps are exactly those with status completed, and the unentered steps are neither states nor targets.
 */

import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  advanceJourney,
  clientJourneyMachine,
  flowOf,
  flowSteps,
  initialJourney,
  isEnteredStep,
  type JourneyEvent,
  type JourneyStep,
  journeyEventDefinitions,
  journeyEventTypes,
  journeySteps,
  stepMeta,
  unenteredSteps,
  waitingSteps,
} from '../../domain/journey/client-journey.machine'
import {
  describeDestination,
  isExternalTarget,
  journeyPages,
  pagesOf,
  resolveDestination,
} from '../../domain/journey/destinations'
import { createCoverageRecorder, formatCoverage, listTransitions } from '../support/model-coverage'

const allEvents: JourneyEvent[] = journeyEventTypes.map((type) => ({ type }))
const persisted = (value: JourneyStep) => ({ version: 2 as const, value })

describe('client journey statechart', () => {
  it('model-based paths reach every state and take every transition (replayed on the machine and the server)', () => {
    const model = createTestModel(clientJourneyMachine, { events: allEvents })
    const recorder = createCoverageRecorder(clientJourneyMachine)
    for (const path of model.getShortestPaths()) {
      const events = path.steps
        .map((s) => s.event as JourneyEvent)
        .filter((e) => e.type in journeyEventDefinitions)
      const last = clientJourneyMachine.resolveState({ value: path.state.value, context: {} })
      // Every event the path's last state accepts, one at a time: together they take every transition.
      const accepted = allEvents.filter((event) => last.can(event))
      for (const extra of [null, ...accepted]) {
        const replay = extra ? [...events, extra] : events
        const actor = createActor(clientJourneyMachine, { inspect: recorder.inspect }).start()
        let server = initialJourney
        for (const event of replay) {
          actor.send(event)
          const next = advanceJourney(server, event)
          expect(next, `${server.value} ${event.type}`).not.toBeNull()
          server = next!
          expect(server.value).toBe(actor.getSnapshot().value)
        }
        actor.stop()
      }
    }
    const report = recorder.report()
    console.info(formatCoverage('client-journey', report))
    expect(report.states.missing).toEqual([])
    expect(report.transitions.missing).toEqual([])
    expect(report.states.total).toBe(journeySteps.length)
  })

  it.each(
    journeySteps,
  )('at %s accepts exactly the events it has a transition for, refusing the rest', (step) => {
    const node = clientJourneyMachine.root.states[step]!
    for (const event of allEvents) {
      const next = advanceJourney(persisted(step), event)
      const definitions = node.transitions.get(event.type)
      if (!definitions) {
        expect(next, `${step} ${event.type}`).toBeNull()
        continue
      }
      expect(next?.value, `${step} ${event.type}`).toBe(definitions[0]!.target?.[0]?.key ?? step)
    }
  })

  it('every event has a label and is sent by someone; a client or back-office event names its calls', () => {
    for (const type of journeyEventTypes) {
      const { label, calls, sentBy } = journeyEventDefinitions[type]
      expect(label.trim(), type).not.toBe('')
      expect(sentBy.length, type).toBeGreaterThan(0)
      if (sentBy.some((s) => s !== 'job')) expect(calls.length, type).toBeGreaterThan(0)
      for (const c of calls) expect(c, type).toMatch(/^(GET|POST|PUT|DELETE) \/web\/private\//)
    }
    // Every event is used by some transition.
    const used = new Set(listTransitions(clientJourneyMachine).map((t) => t.event))
    expect(journeyEventTypes.filter((type) => !used.has(type))).toEqual([])
  })
})

describe('the metadata on the states', () => {
  const facts = [
    { client: null, application: null },
    { client: { firstName: 'Juan', closedLoansCount: 2 }, application: null },
    {
      client: { firstName: '', closedLoansCount: 0 },
      application: { id: '7', disbursementType: 'cash_pickup', cashPickupNumber: 'CP0000000001' },
    },
  ]
  const pages = new Set<string>(Object.values(journeyPages))

  it.each(flowSteps)('%s: the destination resolves to a page of journeyPages or an external site', (step) => {
    const { destination } = stepMeta(step)
    for (const page of pagesOf(destination)) expect(journeyPages[page], page).toBeDefined()
    for (const f of facts) {
      const target = resolveDestination(destination, f)
      expect(pages.has(target) || isExternalTarget(target), `${step} -> ${target}`).toBe(true)
    }
    expect(describeDestination(destination)).not.toBe('')
  })

  it('the waiting steps are exactly those whose status is completed, and they show the loading page', () => {
    const completed = journeySteps.filter(
      (step) => clientJourneyMachine.root.states[step]!.meta?.status === 'completed',
    )
    expect(completed.length).toBeGreaterThan(0)
    expect([...waitingSteps].sort()).toEqual(completed.sort())
    for (const step of journeySteps)
      expect(flowOf(persisted(step))).toEqual({ step, status: stepMeta(step).status })
    for (const step of waitingSteps) expect(stepMeta(step).destination).toEqual({ page: 'loading' })
  })

  it('the unentered steps are not states and no transition targets them; flowSteps is both lists', () => {
    const unentered = Object.keys(unenteredSteps)
    expect(unentered.length).toBeGreaterThan(0)
    const states = Object.keys(clientJourneyMachine.root.states)
    const targets = new Set(listTransitions(clientJourneyMachine).flatMap((t) => t.targets))
    for (const step of unentered) {
      expect(states).not.toContain(step)
      expect([...targets].some((id) => id.endsWith(`.${step}`))).toBe(false)
      expect(isEnteredStep(step as never)).toBe(false)
    }
    expect([...flowSteps].sort()).toEqual([...states, ...unentered].sort())
    expect(states).toEqual(journeySteps)
  })
})
