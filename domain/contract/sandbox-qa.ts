/**
 * The sandbox panel's calls (issue 20 item 1; docs/decisions/0039-sandbox-panel.md): a person holding the QA
 * cookie (`qa-disable-flow`) on a sandbox deployment lists the scenarios and runs one for a fresh client; the
 * answer logs the browser in as that client (the session token comes back in the Authorization header, like a
 * login) and names the page the client's journey is on. Absent (404) on a production server, like the sandbox
 * clock; refused (403 `qaCookieRequired`) without the cookie, unless the instance's sandbox mode is on
 * (domain/contract/sandbox-mode.ts). A logged-in client in sandbox mode (the QA cookie, the instance's switch or
 * their own) runs a scenario on themself instead, over the client routes below (403 `sandboxModeRequired` without
 * any of the three). Back-office users and scripts use the back-office routes of domain/contract/sandbox-scenarios.ts.
 */
import * as v from 'valibot'
import { safeString } from '../safe-text'
import { scenarioRunSchema } from '../sandbox/scenarios'
import { defineContract } from './define'
import { pagingQuery } from './reference'
import { scenarioOutcomeSchema, scenarioParams, scenarioSummarySchema } from './sandbox-scenarios'

export const qaScenarioOutcomeSchema = v.object({
  ...scenarioOutcomeSchema.entries,
  /** The app page the client's journey is on now: where the panel takes the browser. */
  destination: v.string(),
})
export type QaScenarioOutcome = v.InferOutput<typeof qaScenarioOutcomeSchema>

export const listQaScenarios = defineContract({
  method: 'get',
  path: '/public/sandbox/scenarios',
  summary: 'Sandbox panel (QA cookie): the scenarios, with the state each puts a client in',
  tags: ['sandbox'],
  access: 'public',
  // A fixed catalogue, paged like every list (tests/api/bounded-growth.test.ts): one page holds it whole.
  paginated: true,
  query: v.object(pagingQuery(100, 100)),
  response: v.array(scenarioSummarySchema),
})

/** What the panel sends to run a scenario, for a fresh client or for the client logged in. */
export const qaScenarioRunBody = v.object({
  // The same days as the back-office run; the panel never names a client (the client route runs on the caller).
  days: scenarioRunSchema.entries.days,
  /** The browser's device id, so a new session is tied to it (and its login needs no second code). */
  deviceId: v.optional(v.pipe(safeString(), v.maxLength(128, 'At most 128 characters.'))),
})
export type QaScenarioRunBody = v.InferOutput<typeof qaScenarioRunBody>

export const runQaScenario = defineContract({
  method: 'post',
  path: '/public/sandbox/scenarios/:name',
  summary:
    'Sandbox panel (QA cookie): run one scenario for a fresh client and log this browser in as that client (token in the Authorization header)',
  tags: ['sandbox'],
  access: 'public',
  params: scenarioParams,
  body: qaScenarioRunBody,
  response: qaScenarioOutcomeSchema,
})

export const listClientScenarios = defineContract({
  method: 'get',
  path: '/private/client/sandbox/scenarios',
  summary: 'Sandbox panel (a client in sandbox mode): the scenarios the logged-in client can put themself in',
  tags: ['sandbox'],
  access: 'client',
  paginated: true,
  query: v.object(pagingQuery(100, 100)),
  response: v.array(scenarioSummarySchema),
})

export const runClientScenario = defineContract({
  method: 'post',
  path: '/private/client/sandbox/scenarios/:name',
  summary:
    "Sandbox panel (a client in sandbox mode: the QA cookie, the instance's or their own switch): run one scenario on the logged-in client; 409 when it cannot be reached from where the client stands",
  tags: ['sandbox'],
  access: 'client',
  params: scenarioParams,
  // The panel's body, as for a fresh client; the device id is not used (the session stays the same).
  body: qaScenarioRunBody,
  response: qaScenarioOutcomeSchema,
})
