// @vitest-environment happy-dom
import { cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { guestClient } from '../../../machines/calculator.machine'
import {
  calculatorClientOf,
  useCalculatorClient,
} from '../../../src/features/calculator/use-calculator-client'
import { Harness, scriptedApi } from './harness'

afterEach(cleanup)

const clientAnswer = {
  id: 7,
  firstName: 'Maria',
  availableLoanAmount: { amount: 1_500_000 },
  closedLoansCount: 3,
  hasActiveLoan: false,
  hasActualApplication: false,
  hasActiveRefinancing: true,
  soldDebt: false,
}

describe('useCalculatorClient', () => {
  it('maps GET /private/client to the calculator client', () => {
    expect(calculatorClientOf(clientAnswer)).toEqual({
      ...guestClient,
      loggedIn: true,
      availableAmount: 1_500_000,
      closedLoansCount: 3,
      hasActiveLoan: false,
      hasActiveRefinancing: true,
    })
    expect(calculatorClientOf({}).availableAmount).toBeNull()
  })

  it('is the guest, without a call, when not logged in', () => {
    const { api, get } = scriptedApi({ client: clientAnswer })
    const wrapper = ({ children }: { children: ReactNode }) => <Harness api={api}>{children}</Harness>
    const { result } = renderHook(() => useCalculatorClient(false), { wrapper })
    expect(result.current).toBe(guestClient)
    expect(get).not.toHaveBeenCalled()
  })

  it('loads the current client when logged in', async () => {
    const { api, get } = scriptedApi({ client: clientAnswer })
    const wrapper = ({ children }: { children: ReactNode }) => <Harness api={api}>{children}</Harness>
    const { result } = renderHook(() => useCalculatorClient(true), { wrapper })
    await waitFor(() => expect(result.current.loggedIn).toBe(true))
    expect(result.current.availableAmount).toBe(1_500_000)
    expect(result.current.closedLoansCount).toBe(3)
    expect(get).toHaveBeenCalledWith('/private/client', { signal: expect.any(AbortSignal) })
  })
})
