/**
 * The application screens' client against the issue 6 server, in-process: the answers parse with the screens'
 * schemas (src/features/application/application-api.ts), and the REAL offer-decision machine, with the actors
 * the screens provide, answers each sandbox counter-offer through the real API (approve decrease, special
 * offer, approve increase with a choice, refuse an increase, refuse a decrease by cancelling).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { LoanFigures } from '../../domain/offer-decision'
import { addDays, manilaDate } from '../../domain/pricing/manila-date'
import { offerDecisionMachine } from '../../machines/offer-decision.machine'
import type { ApiClient } from '../../src/api/client'
import {
  decisionApplicationOf,
  getActiveLoan,
  getActualApplication,
  getActualOffer,
  getActualStatus,
  offerDecisionActors,
  renderDocuments,
} from '../../src/features/application/application-api'
import { createTestApp } from '../support/app'
import { withCall } from '../support/fake-api'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { apply, applyBody, expectStatus, flowOf, readyClient, runJobs, sign } from './lending-helpers'

/** The app's API client surface over the in-process server: data out, failures as errors with the code. */
function apiFor(t: TestApp, c: SignedUp): ApiClient {
  const request = async (method: string, path: string, body?: unknown) => {
    const answer = await call<unknown>(t, method, path, body, { token: c.token })
    if (answer.status >= 400) {
      const code = (answer.body as { response?: { code?: string } }).response?.code ?? 'error'
      throw Object.assign(new Error(`${method} ${path}: ${answer.status}`), { code, status: answer.status })
    }
    return answer.body.data
  }
  return withCall({
    get: (path: string) => request('GET', path),
    put: (path: string, body?: unknown) => request('PUT', path, body),
    post: (path: string, body?: unknown) => request('POST', path, body),
  })
}

async function answerOffer(
  t: TestApp,
  c: SignedUp,
  event: { type: 'APPROVE'; choice?: LoanFigures } | { type: 'REFUSE' },
) {
  const api = apiFor(t, c)
  const application = decisionApplicationOf(await getActualApplication(api))
  const actor = createActor(offerDecisionMachine.provide({ actors: offerDecisionActors(api) }), {
    input: { application },
  }).start()
  actor.send(event)
  const end = await waitFor(
    actor,
    (s) => s.status === 'done' || s.matches('failed') || s.matches('reloadFailed'),
    {
      timeout: 20_000,
    },
  )
  actor.stop()
  return { before: application, end }
}

describe('application screens against the lending API', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
  })
  afterAll(() => t.close())

  it('yhat decrease: the offer parses, approving signs for the offered amount', async () => {
    const c = await readyClient(t, 'Decrease')
    await expectStatus(apply(t, c, applyBody(8_000_00, 20)), 201)
    await runJobs(t)
    const api = apiFor(t, c)
    expect(await getActualStatus(api)).toMatchObject({ status: 17 })
    const application = await getActualApplication(api)
    expect(decisionApplicationOf(application)).toMatchObject({
      status: 17,
      desired: { amount: 8_000_00, term: 20 },
      offered: { amount: 4_000_00, term: 20 },
    })
    const offer = await getActualOffer(api, application.id)
    expect(offer.total.amount).toBeGreaterThan(0)
    const { end } = await answerOffer(t, c, { type: 'APPROVE' })
    expect(end.status).toBe('done')
    expect(end.context.application).toMatchObject({ status: 2, offered: { amount: 4_000_00 } })
    expect(await flowOf(t, c)).toEqual({ step: 'otp_agreement', status: 'active' })
  })

  it('yhat decrease refused: the application is cancelled and the client has no loan', async () => {
    const c = await readyClient(t, 'Decrease')
    await expectStatus(apply(t, c, applyBody(8_000_00, 20)), 201)
    await runJobs(t)
    const { end } = await answerOffer(t, c, { type: 'REFUSE' })
    expect(end.status).toBe('done')
    expect(end.context.application.status).toBe(5)
    expect(await flowOf(t, c)).toEqual({ step: 'no_loan_page', status: 'active' })
  })

  it('special offer: approving calls the special-offer approval', async () => {
    const c = await readyClient(t, 'Special')
    await expectStatus(apply(t, c, applyBody(6_000_00, 10)), 201)
    await runJobs(t)
    const { before, end } = await answerOffer(t, c, { type: 'APPROVE' })
    expect(before.status).toBe(13)
    expect(end.status).toBe('done')
    expect(end.context.application).toMatchObject({ status: 2 })
  })

  it('yhat increase: approving sends the chosen figures; refusing keeps the original ones', async () => {
    const up = await readyClient(t, 'Increase')
    const keep = await readyClient(t, 'INCREASE')
    await expectStatus(apply(t, up, applyBody(3_000_00, 15)), 201)
    await expectStatus(apply(t, keep, applyBody(3_000_00, 15)), 201)
    await runJobs(t)
    const chosen = await answerOffer(t, up, { type: 'APPROVE', choice: { amount: 7_000_00, term: 12 } })
    expect(chosen.before).toMatchObject({ status: 18, principal: 3_000_00, offered: { amount: 10_000_00 } })
    expect(chosen.end.status).toBe('done')
    expect(chosen.end.context.application).toMatchObject({ status: 2 })
    expect((await getActualApplication(apiFor(t, up))).principalAmount?.amount).toBe(7_000_00)
    const refused = await answerOffer(t, keep, { type: 'REFUSE' })
    expect(refused.end.status).toBe('done')
    const kept = await getActualApplication(apiFor(t, keep))
    expect(kept).toMatchObject({ status: 2, principalAmount: { amount: 3_000_00 }, term: { value: 15 } })
  })

  it('approved and signed: the documents render and the active loan parses for my loan', async () => {
    const c = await readyClient(t, 'Juan')
    await expectStatus(apply(t, c, applyBody(5_000_00, 14)), 201)
    await runJobs(t)
    const api = apiFor(t, c)
    const application = await getActualApplication(api)
    expect(application.status).toBe(2)
    const rendered = await renderDocuments(api)
    expect(rendered.documents.map((d) => d.type).sort()).toEqual(['disclosure_statement', 'loan_agreement'])
    expect((await sign(t, c, application.id)).status).toBe(200)
    await runJobs(t)
    const loan = await getActiveLoan(api)
    expect(loan).not.toBeNull()
    expect(loan?.principal.amount).toBe(5_000_00)
    expect(loan?.amountDue.amount).toBeGreaterThan(5_000_00)
    // The loan starts on the Manila day of the payout (the jobs run two minutes ahead, so near Manila midnight
    // that is already tomorrow) and is due 14 days later; dueDays counts from today by the app's own clock.
    expect(loan?.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(loan?.dueDate).toBe(addDays(loan?.createdAtDate ?? '', 14))
    expect(loan?.repaymentInvoice.dueDays).toBe(
      (Date.parse(loan!.dueDate) - Date.parse(manilaDate(t.deps.now()))) / 86_400_000,
    )
    expect([14, 15]).toContain(loan?.repaymentInvoice.dueDays)
  })
})
