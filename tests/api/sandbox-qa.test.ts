/**
 * Issue 20 item 1, the server half of the sandbox panel (domain/contract/sandbox-qa.ts): a browser holding the QA
 * cookie runs a scenario and is logged in as the fresh client, on the page the client's journey is on. Without
 * the cookie the panel's calls are refused; the back-office steps the scenario takes are recorded under the
 * "Sandbox QA" system user, which has no role and can never log in. PGlite, and PostgreSQL with DATABASE_URL.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActiveLoan } from '../../domain/contract/lending-answers'
import type { QaScenarioOutcome } from '../../domain/contract/sandbox-qa'
import type { ScenarioSummary } from '../../domain/contract/sandbox-scenarios'
import { SANDBOX_COOKIE } from '../../domain/journey/routing'
import { backOfficeUser } from '../../server/db/schema-identity'
import { SANDBOX_QA_EMAIL } from '../../server/http/routes/sandbox-qa'
import { createTestApp } from '../support/app'
import { call, type TestApp, tokenOf } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'

const qa = { headers: { cookie: `${SANDBOX_COOKIE}=1` } }

describe('the sandbox panel over the API (QA cookie)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
  })
  afterAll(() => t.close())

  const run = (name: string, body: Record<string, unknown> = {}) =>
    call<QaScenarioOutcome>(t, 'POST', `/public/sandbox/scenarios/${name}`, body, qa)

  it('refuses a browser without the QA cookie, and an unknown scenario', async () => {
    const list = await call(t, 'GET', '/public/sandbox/scenarios')
    expect(list.status).toBe(403)
    expect(list.body.response.code).toBe('qaCookieRequired')
    const running = await call(t, 'POST', '/public/sandbox/scenarios/loan-active', {})
    expect(running.status).toBe(403)
    const unknown = await run('no-such-scenario')
    expect(unknown.status).toBe(404)
    expect(unknown.body.response.code).toBe('scenarioNotFound')
    const badDays = await run('loan-overdue-10', { days: 0 })
    expect(badDays.status).toBe(400)
  })

  it('lists the scenarios the back office lists', async () => {
    const list = await call<ScenarioSummary[]>(t, 'GET', '/public/sandbox/scenarios', undefined, qa)
    expect(list.status).toBe(200)
    expect(list.body.data.map((s) => s.name)).toEqual(
      expect.arrayContaining(['loan-overdue-10', 'loan-sold-debt', 'loan-paid-repeat']),
    )
  })

  it('overdue by 10 days: the browser is the client, on My loan, with the loan 10 days overdue', async () => {
    const answer = await run('loan-overdue-10', { days: 10 })
    expect(answer.status, JSON.stringify(answer.body.response)).toBe(201)
    expect(answer.body.data.destination).toBe('/profile/my-loan')
    expect(answer.body.data.loanState).toBe('active.on_terms.overdue')
    const token = tokenOf(answer)
    const loan = await call<ActiveLoan>(t, 'GET', '/private/client/loan/active', undefined, { token })
    expect(loan.status).toBe(200)
    expect(loan.body.data.repaymentInvoice.dueDays).toBe(-10)
    // The scenario's payments and other back-office steps are the system user's, never a person's.
    const [system] = await t.database.db
      .select()
      .from(backOfficeUser)
      .where(eq(backOfficeUser.email, SANDBOX_QA_EMAIL))
    expect(system).toMatchObject({ active: false, roles: [], passwordHash: null })
  })

  it('a sold debt lands on /profile/debt-sold and a repeat client on /profile/no-loan', async () => {
    const sold = await run('loan-sold-debt')
    expect(sold.status, JSON.stringify(sold.body.response)).toBe(201)
    expect(sold.body.data.destination).toBe('/profile/debt-sold')
    const repeat = await run('loan-paid-repeat')
    expect(repeat.status, JSON.stringify(repeat.body.response)).toBe(201)
    expect(repeat.body.data.destination).toBe('/profile/no-loan')
    const client = await call<{ closedLoansCount: number }>(t, 'GET', '/private/client', undefined, {
      token: tokenOf(repeat),
    })
    expect(client.body.data.closedLoansCount).toBe(1)
  })
})
