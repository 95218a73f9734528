/**
 * A test server that looks like a production deployment: every adapter of server/providers/from-env.ts (ADAPTERS)
 * renamed from its sandbox provider, so `sandboxedAdapters` is empty and the sandbox-only routes must be absent.
 * Answers the function that puts the sandbox providers back. A new adapter is covered here or the check below fails,
 * instead of a test silently keeping one sandbox adapter and the deployment counting as a sandbox.
 */
import { expect } from 'vitest'
import type { AppDeps } from '../../server/deps'
import { fraudSignalsOf, type ProviderSet, sandboxedAdapters } from '../../server/providers/from-env'

export function useRealProviders(d: AppDeps): () => void {
  const saved: ProviderSet = {
    captcha: d.captcha,
    messaging: d.messaging,
    identityVerification: d.identityVerification,
    bankData: d.bankData,
    scoring: d.scoring,
    payout: d.payout,
    paymentGateway: d.paymentGateway,
    fraudSignals: d.fraudSignals,
  }
  const real = <T extends { name: string }>(p: T) => ({ ...p, name: 'real' })
  Object.assign(d, {
    captcha: real(d.captcha),
    messaging: { ...real(d.messaging), channels: undefined },
    identityVerification: real(d.identityVerification),
    bankData: real(d.bankData),
    scoring: real(d.scoring),
    payout: real(d.payout),
    paymentGateway: real(d.paymentGateway),
    fraudSignals: real(fraudSignalsOf(d)),
  })
  expect(sandboxedAdapters(d), 'an adapter left on its sandbox provider').toEqual([])
  return () => Object.assign(d, saved)
}
