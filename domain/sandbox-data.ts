/**
 * The sandbox providers' documented test data, as the back office's sandbox router shows it to QA
 * (/admin/router). The providers themselves are server/providers/scoring.ts and payout.ts;
 * tests/domain/sandbox-data.test.ts runs them against every row, so this table cannot drift from what they do.
 */

export type SandboxScoringOutcome =
  | 'approve'
  | 'reject'
  | 'manual'
  | 'decrease'
  | 'special_offer'
  | 'increase'
  | 'provider_down'
  | 'provider_refuses'
  | 'pending'

/** Decision outcomes by the client's first name (any case). */
export const sandboxScoringByFirstName: readonly {
  firstName: string
  outcome: SandboxScoringOutcome
  status: string
}[] = [
  { firstName: 'Reject', outcome: 'reject', status: '6 rejected' },
  { firstName: 'Manual', outcome: 'manual', status: '14 manual verification (decided at /admin)' },
  { firstName: 'Decrease', outcome: 'decrease', status: '17 yhat decrease: half the amount, on the grid' },
  {
    firstName: 'Special',
    outcome: 'special_offer',
    status: '13 special offer: half the amount, on the grid',
  },
  { firstName: 'Increase', outcome: 'increase', status: '18 yhat increase: up to the available amount' },
  {
    firstName: 'Scorefail',
    outcome: 'provider_down',
    status: 'retried; 401 decision error after 3 failures',
  },
  {
    firstName: 'Scoreerror',
    outcome: 'provider_refuses',
    status: '401 decision error at once (a refusal no retry can fix)',
  },
  {
    firstName: 'Pending',
    outcome: 'pending',
    status: '1 new, still evaluating: asked again every minute; 401 after a day',
  },
  { firstName: 'Juan (any other)', outcome: 'approve', status: '2 signing' },
]

export type SandboxPayoutOutcome = 'succeeded' | 'failed' | 'provider_down' | 'cash_pickup_ready'

/** Payout outcomes by the payout account (bank account, e-wallet or card number). */
export const sandboxPayoutByAccount: readonly {
  account: string
  /** An example the test sends to the provider. */
  example: { type: string; accountNumber: string | null }
  outcome: SandboxPayoutOutcome
}[] = [
  {
    account: 'cash pickup (Cebuana, M Lhuillier)',
    example: { type: 'cash_pickup', accountNumber: null },
    outcome: 'cash_pickup_ready',
  },
  {
    account: 'number ending in 0000',
    example: { type: 'bank_transfer', accountNumber: '001234560000' },
    outcome: 'failed',
  },
  {
    account: 'number ending in 9999',
    example: { type: 'bank_transfer', accountNumber: '001234569999' },
    outcome: 'provider_down',
  },
  {
    account: 'any other number',
    example: { type: 'bank_transfer', accountNumber: '001234567890' },
    outcome: 'succeeded',
  },
]
