/**
 * Credit scoring through a provider (a Yhat-style model in production). The decision engine asks the provider
 * only after its own rules passed, outside any transaction, and stores what the provider answered with the
 * decision. The sandbox (the default) answers by documented test data: the client's first name.
 *
 * | First name (any case) | Outcome                                                          |
 * | --------------------- | ---------------------------------------------------------------- |
 * | Reject                | reject                                                           |
 * | Manual                | manual verification (application status 14)                     |
 * | Decrease              | yhat decrease (17): half the amount asked, on the calculator grid |
 * | Special               | special offer (13): half the amount asked, on the calculator grid |
 * | Increase              | yhat increase (18): up to the client's available amount           |
 * | Scorefail             | the provider fails (retried; after 3 failures: decision error)   |
 * | Scoreerror            | the provider refuses the request (final: decision error at once) |
 * | Pending               | the provider is still evaluating (asked again every minute)      |
 * | anything else         | approve                                                          |
 */

export type ScoringOutcome = 'approve' | 'reject' | 'manual' | 'decrease' | 'special_offer' | 'increase'

export interface ScoringRequest {
  applicationId: number
  clientId: number
  firstName: string | null
  /** Centavos. */
  amount: number
  term: number
  /** The highest amount the client may borrow now (centavos). */
  availableAmount: number
  /** The lowest amount a counter-offer may go to, and the grid step (centavos). */
  minAmount: number
  interval: number
  monthlyIncome: number | null
  closedLoans: number
}

export interface ScoringAnswer {
  outcome: ScoringOutcome
  /** For decrease and special offer: the lower amount; for increase: the upper limit. Centavos. */
  offeredAmount?: number
  score: number
  reasons: string[]
  /** The provider's own reference, kept with the decision. */
  reference: string
}

export interface ScoringProvider {
  readonly name: string
  score(request: ScoringRequest): Promise<ScoringAnswer>
}

export class ScoringUnavailableError extends Error {
  constructor(message = 'The scoring provider is unavailable.') {
    super(message)
    this.name = 'ScoringUnavailableError'
  }
}

/**
 * The provider refused the request itself (an HTTP 4xx: a subject it cannot score, data it rejects): the same
 * request cannot succeed later, so the decision job does not retry it and the decision ends in error at once.
 */
export class ScoringRefusedError extends Error {
  constructor(message = 'The scoring provider refused the request.') {
    super(message)
    this.name = 'ScoringRefusedError'
  }
}

/**
 * The provider took the request but has not decided yet (a bureau that answers asynchronously): not a failure.
 * The decision job asks again later, for as long as it waits for a provider (jobs.ts, SCORING_PENDING_MAX_MS).
 */
export class ScoringPendingError extends Error {
  constructor(message = 'The scoring provider is still evaluating the request.') {
    super(message)
    this.name = 'ScoringPendingError'
  }
}

/** Half the amount, down to the grid, never under the minimum. */
export function halfOnGrid(amount: number, minAmount: number, interval: number): number {
  const half = Math.floor(amount / 2)
  const onGrid = minAmount + Math.floor(Math.max(0, half - minAmount) / interval) * interval
  return Math.max(minAmount, onGrid)
}

export const sandboxScoring: ScoringProvider = {
  name: 'sandbox',
  async score(request) {
    const reference = `sandbox-score-${request.applicationId}`
    const name = (request.firstName ?? '').trim().toLowerCase()
    switch (name) {
      case 'scorefail':
        throw new ScoringUnavailableError('Sandbox: the scoring provider is down for first name "Scorefail".')
      case 'scoreerror':
        throw new ScoringRefusedError('Sandbox: the scoring provider refuses first name "Scoreerror".')
      case 'pending':
        throw new ScoringPendingError(
          'Sandbox: the scoring provider is still evaluating first name "Pending".',
        )
      case 'reject':
        return { outcome: 'reject', score: 120, reasons: ['sandbox: first name Reject'], reference }
      case 'manual':
        return { outcome: 'manual', score: 480, reasons: ['sandbox: first name Manual'], reference }
      case 'decrease':
      case 'special': {
        const offeredAmount = halfOnGrid(request.amount, request.minAmount, request.interval)
        if (offeredAmount >= request.amount)
          return { outcome: 'approve', score: 600, reasons: ['sandbox: nothing lower to offer'], reference }
        return {
          outcome: name === 'special' ? 'special_offer' : 'decrease',
          offeredAmount,
          score: 540,
          reasons: [`sandbox: first name ${name === 'special' ? 'Special' : 'Decrease'}`],
          reference,
        }
      }
      case 'increase':
        if (request.availableAmount <= request.amount)
          return { outcome: 'approve', score: 800, reasons: ['sandbox: already at the limit'], reference }
        return {
          outcome: 'increase',
          offeredAmount: request.availableAmount,
          score: 820,
          reasons: ['sandbox: first name Increase'],
          reference,
        }
      default:
        return { outcome: 'approve', score: 700, reasons: ['sandbox: approve by default'], reference }
    }
  },
}
