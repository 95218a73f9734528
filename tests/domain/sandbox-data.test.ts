/** The sandbox data the back office documents (/admin/router) is what the sandbox providers do. */
import { describe, expect, it } from 'vitest'
import { sandboxPayoutByAccount, sandboxScoringByFirstName } from '../../domain/sandbox-data'
import { PayoutUnavailableError, sandboxPayout } from '../../server/providers/payout'
import {
  ScoringPendingError,
  ScoringRefusedError,
  ScoringUnavailableError,
  sandboxScoring,
} from '../../server/providers/scoring'

describe('sandbox data', () => {
  it.each(sandboxScoringByFirstName)('first name $firstName: $outcome', async ({ firstName, outcome }) => {
    const request = {
      applicationId: 1,
      clientId: 1,
      firstName: firstName.split(' ')[0]!,
      amount: 5_000_00,
      term: 30,
      availableAmount: 10_000_00,
      minAmount: 1_000_00,
      interval: 100_00,
      monthlyIncome: 28_000_00,
      closedLoans: 0,
    }
    const thrown = {
      provider_down: ScoringUnavailableError,
      provider_refuses: ScoringRefusedError,
      pending: ScoringPendingError,
    }
    const answer = sandboxScoring.score(request)
    if (outcome in thrown) await expect(answer).rejects.toBeInstanceOf(thrown[outcome as keyof typeof thrown])
    else expect((await answer).outcome).toBe(outcome)
    // Any case.
    const upper = sandboxScoring.score({ ...request, firstName: request.firstName.toUpperCase() })
    if (outcome in thrown) await expect(upper).rejects.toBeInstanceOf(thrown[outcome as keyof typeof thrown])
    else expect((await upper).outcome).toBe(outcome)
  })

  it.each(sandboxPayoutByAccount)('payout to $account: $outcome', async ({ example, outcome }) => {
    const answer = sandboxPayout.send({
      disbursementId: 7,
      ...example,
      institution: null,
      provider: example.type === 'cash_pickup' ? 'cebuana' : null,
      amount: 5_000_00,
    })
    if (outcome === 'provider_down') await expect(answer).rejects.toBeInstanceOf(PayoutUnavailableError)
    else expect((await answer).status).toBe(outcome)
  })
})
