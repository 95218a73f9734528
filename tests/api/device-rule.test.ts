/**
 * The decision engine's shared-device rule (issue 22 item 1, docs/decisions/0042), pure: only an application
 * carrying a blackbox gets it; a blackbox on DEVICE_SHARED_MAX_OTHERS other clients' applications sends the
 * application to a person (manual) with a reason naming the device; a hard rule still rejects first.
 */
import { describe, expect, it } from 'vitest'
import { sandboxFraudSignals } from '../../server/providers/fraud-signals'
import { DEVICE_SHARED_MAX_OTHERS, evaluateRules } from '../../server/services/lending/decision'
import { decisionInputs as inputs } from './lending-helpers'

describe('the shared-device rule', () => {
  it('is absent without a blackbox: the decision mentions the device only when it used it', () => {
    for (const device of [undefined, { blackbox: false, otherClients: 5 }]) {
      const verdict = evaluateRules(inputs({ device }))
      expect(verdict.rules.map((r) => r.rule)).not.toContain('device_blackbox')
      expect(verdict.outcome).toBeNull()
    }
  })

  it('passes below the threshold, and says how many other clients it saw', () => {
    const verdict = evaluateRules(
      inputs({ device: { blackbox: true, otherClients: DEVICE_SHARED_MAX_OTHERS - 1 } }),
    )
    expect(verdict.outcome).toBeNull()
    expect(verdict.rules.at(-1)).toMatchObject({ rule: 'device_blackbox', passed: true })
    expect(verdict.rules.at(-1)!.detail).toContain(`seen on ${DEVICE_SHARED_MAX_OTHERS - 1} other client`)
  })

  it('sends the application to a person from the threshold, with a reason naming the device', () => {
    const verdict = evaluateRules(
      inputs({ device: { blackbox: true, otherClients: DEVICE_SHARED_MAX_OTHERS } }),
    )
    expect(verdict.outcome).toBe('manual')
    expect(verdict.reasons).toEqual([
      expect.stringMatching(/^device_blackbox: the device blackbox was seen on 2 other/),
    ])
  })

  it('a hard rule still rejects first, and names both', () => {
    const verdict = evaluateRules(inputs({ age: 19, device: { blackbox: true, otherClients: 9 } }))
    expect(verdict.outcome).toBe('reject')
    expect(verdict.reasons.map((r) => r.split(':')[0])).toEqual(['age'])
    expect(verdict.rules.find((r) => r.rule === 'device_blackbox')?.passed).toBe(false)
  })
})

describe('the sandbox fraud tools', () => {
  it('are deterministic per subject and day, and change with the device, the client and the day', async () => {
    const now = new Date('2026-11-28T02:00:00Z')
    const a = await sandboxFraudSignals.sessionTokens({ clientId: 7, deviceHash: 'h1', now })
    expect(await sandboxFraudSignals.sessionTokens({ clientId: 7, deviceHash: 'h1', now })).toEqual(a)
    const otherDevice = await sandboxFraudSignals.sessionTokens({ clientId: 7, deviceHash: 'h2', now })
    expect(otherDevice.seonSession).not.toBe(a.seonSession)
    // The session-analytics pseudonym follows the client, not the device or the day.
    expect(otherDevice.hotjarUserId).toBe(a.hotjarUserId)
    const nextDay = await sandboxFraudSignals.sessionTokens({
      clientId: 7,
      deviceHash: 'h1',
      now: new Date('2026-11-29T02:00:00Z'),
    })
    expect(nextDay.juicySessionId).not.toBe(a.juicySessionId)
    const hello = await sandboxFraudSignals.helloSoda({ clientId: null, deviceHash: 'h1', now })
    expect(hello.token).toMatch(/^sbx-hs-/)
    expect(hello.expiresAt.getTime() - now.getTime()).toBe(3_600_000)
  })
})
