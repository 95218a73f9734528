/**
 * Live statecharts for analysts (issue 20, item 3; docs/decisions/0038-live-statecharts.md): for each lifecycle the
 * server persists (the client journey, the loan lifecycle), how many clients or loans are in each state now, and
 * over a Manila date range how many moved along each transition and entered and left each state (a funnel from
 * the recorded history, `state_transition`); and who is in one state now, a page at a time.
 */
import * as v from 'valibot'
import { calendarDaySchema, safeString } from '../safe-text'
import { defineContract } from './define'
import { pagingQuery } from './reference'

/** The persisted lifecycles, by their statechart's id. */
export const statechartMachines = ['clientJourney', 'loanLifecycle'] as const
export type StatechartMachine = (typeof statechartMachines)[number]

/** The longest date range one funnel covers, in days (inclusive), so one read stays bounded. */
export const STATECHART_MAX_DAYS = 366
/** The range when none is given: the last 30 Manila days, today included. */
export const STATECHART_DEFAULT_DAYS = 30

export const statechartStateSchema = v.object({
  /** The state's path in the chart ('work_info', 'active.on_terms.overdue', 'active'). */
  state: v.string(),
  /** The enclosing state's path; null at the top. */
  parent: v.nullable(v.string()),
  /** A leaf: what a subject's stored state names. A parent's numbers add up its leaves'. */
  leaf: v.boolean(),
  /** Clients (journey) or loans (lifecycle) in it now. */
  now: v.number(),
  /** Transitions into it from outside it within the range (for the initial state, subjects created too). */
  entered: v.number(),
  /** Transitions out of it within the range. */
  left: v.number(),
})
export type StatechartState = v.InferOutput<typeof statechartStateSchema>

export const statechartTransitionSchema = v.object({
  from: v.string(),
  to: v.string(),
  event: v.string(),
  /** Recorded within the range. */
  count: v.number(),
  /** Whether the current model has this transition (false: recorded under an older model version). */
  inModel: v.boolean(),
})
export type StatechartTransition = v.InferOutput<typeof statechartTransitionSchema>

export const statechartSchema = v.object({
  machine: v.picklist(statechartMachines),
  /** What it counts: clients (the journey) or loans. */
  subject: v.picklist(['client', 'loan']),
  /** The initial state (its `entered` counts the subjects created within the range). */
  initial: v.string(),
  /** Subjects in all: the sum of the leaves' `now`. */
  total: v.number(),
  /** Subjects created within the range. */
  created: v.number(),
  states: v.array(statechartStateSchema),
  transitions: v.array(statechartTransitionSchema),
})
export type Statechart = v.InferOutput<typeof statechartSchema>

export const statechartsSchema = v.object({
  /** The range the funnel covers (Manila dates, inclusive): the one asked for, or the default. */
  from: v.string(),
  to: v.string(),
  machines: v.array(statechartSchema),
})
export type Statecharts = v.InferOutput<typeof statechartsSchema>

export const getStatecharts = defineContract({
  method: 'get',
  path: '/private/back-office/statecharts',
  summary:
    'The server lifecycles (client journey, loan lifecycle) with the clients or loans in each state now, and the transitions, entries and exits recorded in a Manila date range (at most 366 days; default the last 30)',
  tags: ['back-office'],
  access: 'user',
  permission: 'statecharts.read',
  query: v.object({
    /** Manila calendar dates, inclusive. */
    from: v.optional(calendarDaySchema()),
    to: v.optional(calendarDaySchema()),
  }),
  response: statechartsSchema,
})

/** One client or loan in a state, without names or other personal values. */
export const stateMemberSchema = v.object({
  /** The client (journey) or the loan. */
  id: v.number(),
  clientId: v.number(),
  /** The loan number (L00000042) or the journey step. */
  summary: v.string(),
  /** The leaf it is in (for a parent state, which of its leaves). */
  state: v.string(),
  /** When it entered its current state (its last recorded transition, or its creation). */
  since: v.string(),
})
export type StateMember = v.InferOutput<typeof stateMemberSchema>

const members = defineContract({
  method: 'get',
  path: '/private/back-office/statecharts/:machine/states/:state',
  summary:
    'The clients (journey) or loans (loan lifecycle) in one state now, longest there first (x-* pagination headers)',
  tags: ['back-office'],
  access: 'user',
  permission: 'statecharts.read',
  paginated: true,
  params: v.object({
    machine: v.picklist(statechartMachines, 'clientJourney or loanLifecycle.'),
    state: v.pipe(
      safeString(),
      v.maxLength(80, 'Must be at most 80 characters.'),
      v.regex(/^[a-z_]+(\.[a-z_]+)*$/, 'A state path (letters, _ and .).'),
    ),
  }),
  query: v.object({ ...pagingQuery(20, 100) }),
  response: v.array(stateMemberSchema),
})
export const listStateMembers = members as typeof members & { paginated: true }
