/**
 * The sandbox scenarios over the API (issue 20, item 2; domain/sandbox/scenarios.ts): the list, and running one
 * for a fresh client (or an existing sandbox client). Back office, permission 'sandbox'; absent (404) on a
 * production server without a sandbox adapter, like the sandbox clock.
 */
import * as v from 'valibot'
import { journeySteps } from '../journey/client-journey.machine'
import { loanLeaves } from '../loan/loan-lifecycle.machine'
import { safeString } from '../safe-text'
import { scenarioRunSchema } from '../sandbox/scenarios'
import { defineContract } from './define'
import { pagingQuery } from './reference'

const nullableId = v.nullable(v.number())

export const scenarioSummarySchema = v.object({
  name: v.string(),
  title: v.string(),
  description: v.string(),
  journeyStep: v.picklist(journeySteps),
  applicationStatus: v.nullable(v.number()),
  loanState: v.nullable(v.picklist(loanLeaves)),
  loanStatus: v.nullable(v.number()),
  /** Whether `days` (days overdue) means something to it, and what it is without one. */
  takesDays: v.boolean(),
  defaultDays: v.nullable(v.number()),
})
export type ScenarioSummary = v.InferOutput<typeof scenarioSummarySchema>

export const scenarioOutcomeSchema = v.object({
  scenario: v.string(),
  clientId: v.number(),
  /** How QA logs in as the client: the generated password of a fresh client; null for an existing one. */
  login: v.object({ phone: v.string(), email: v.string(), password: v.nullable(v.string()) }),
  journeyStep: v.picklist(journeySteps),
  applicationId: nullableId,
  applicationStatus: v.nullable(v.number()),
  loanId: nullableId,
  loanState: v.nullable(v.picklist(loanLeaves)),
  loanStatus: v.nullable(v.number()),
  what: v.string(),
})
export type ScenarioOutcome = v.InferOutput<typeof scenarioOutcomeSchema>

/** A scenario's name in the path: kebab-case (an unknown one is the handler's 404 `scenarioNotFound`). */
export const scenarioParams = v.object({
  name: v.pipe(safeString(), v.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'A scenario name: kebab-case.')),
})

export const listSandboxScenarios = defineContract({
  method: 'get',
  path: '/private/back-office/sandbox/scenarios',
  summary: 'Sandbox: the scenarios that put a client or a loan in a given state, with the state each claims',
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  // A fixed catalogue, paged like every list (tests/api/bounded-growth.test.ts): one page holds it whole.
  paginated: true,
  query: v.object(pagingQuery(100, 100)),
  response: v.array(scenarioSummarySchema),
})

export const runSandboxScenario = defineContract({
  method: 'post',
  path: '/private/back-office/sandbox/scenarios/:name',
  summary:
    'Sandbox: run one scenario through the real services and the clock, for a fresh client (or `clientId`); answers the client, how to log in and the state reached',
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  params: scenarioParams,
  body: scenarioRunSchema,
  response: scenarioOutcomeSchema,
})
