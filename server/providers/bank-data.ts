/**
 * Bank data (Kontomatik-style): the client signs in to their bank through the provider, which imports the
 * account list and recent transactions for scoring. Credentials pass through to the provider and are never
 * stored or logged.
 *
 * The sandbox provider, the default, lists three sandbox banks and answers by the credentials typed
 * (README, "Demo accounts and sandbox data"):
 * - login `sandbox`, password `sandbox`: the import succeeds;
 * - login `unavailable` (any password): ServiceTemporarilyUnavailable;
 * - anything else: InvalidCredentials (a failed login, counted).
 */
export interface BankDataBank {
  code: string
  name: string
}

export type BankDataFailure = 'InvalidCredentials' | 'ServiceTemporarilyUnavailable'

export interface BankDataSummary {
  accounts: number
  /** Sum of credits over the last 90 days, in centavos. */
  inflow90d: number
}

export type BankDataResult = { ok: true; summary: BankDataSummary } | { ok: false; error: BankDataFailure }

export interface BankDataProvider {
  readonly name: string
  banks(): Promise<BankDataBank[]>
  importData(input: { bank: string; login: string; password: string }): Promise<BankDataResult>
}

export const SANDBOX_BANK_LOGIN = 'sandbox'
export const SANDBOX_BANK_PASSWORD = 'sandbox'
export const SANDBOX_BANK_UNAVAILABLE_LOGIN = 'unavailable'

const sandboxBanks: BankDataBank[] = [
  { code: 'sandbox-bdo', name: 'BDO Unibank (sandbox)' },
  { code: 'sandbox-bpi', name: 'BPI (sandbox)' },
  { code: 'sandbox-unionbank', name: 'UnionBank (sandbox)' },
]

export const sandboxBankData: BankDataProvider = {
  name: 'sandbox',
  async banks() {
    return sandboxBanks
  },
  async importData({ login, password }) {
    if (login === SANDBOX_BANK_UNAVAILABLE_LOGIN) return { ok: false, error: 'ServiceTemporarilyUnavailable' }
    if (login === SANDBOX_BANK_LOGIN && password === SANDBOX_BANK_PASSWORD)
      return { ok: true, summary: { accounts: 2, inflow90d: 7_500_000 } }
    return { ok: false, error: 'InvalidCredentials' }
  },
}
