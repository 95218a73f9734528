import { describe, expect, it } from 'vitest'
import { flowSteps, stepMeta } from '../../domain/journey/client-journey.machine'
import { journeyPages, resolveDestination } from '../../domain/journey/destinations'
import {
  REGISTRATION_START_PERCENT,
  registrationPagesInOrder,
  registrationProgress,
} from '../../domain/journey/progress'

describe('the registration progress bar (spec section 2, Layout)', () => {
  it('is 30 % when registration starts and 0 outside the registration pages', () => {
    expect(REGISTRATION_START_PERCENT).toBe(30)
    expect(registrationProgress('/registration')).toBe(30)
    expect(registrationProgress('/registration/')).toBe(30)
    for (const path of ['/', '/faq', '/application/apply', '/profile/my-loan', '/registrationx'])
      expect(registrationProgress(path), path).toBe(0)
  })

  it('rises with every registration step, in the journey model’s order, and never reaches 100 on a registration page', () => {
    expect(registrationPagesInOrder).toEqual([
      '/registration',
      '/registration/details',
      '/registration/employment',
      '/registration/reference',
      '/registration/address',
      '/registration/documents',
      '/registration/document-verification',
      '/registration/bank-data',
      '/registration/payment',
      '/registration/summary',
    ])
    const percents = registrationPagesInOrder.map(registrationProgress)
    expect(percents).toEqual([30, 37, 44, 51, 58, 65, 72, 79, 86, 93])
    for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThan(percents[i - 1]!)
  })

  it('follows the model: every registration page a step routes to has its own percent', () => {
    const routed = flowSteps
      .map((step) => stepMeta(step).destination)
      .flatMap((destination) =>
        destination && !('external' in destination)
          ? [
              resolveDestination(destination, {
                client: { firstName: null, closedLoansCount: 0 },
                application: null,
              }),
            ]
          : [],
      )
      .filter((path) => path.startsWith(`${journeyPages.registration}/`))
    expect(routed.length).toBeGreaterThan(5)
    for (const path of routed)
      expect(registrationProgress(path), path).toBeGreaterThan(REGISTRATION_START_PERCENT)
  })

  it('a registration page outside the model’s steps shows the start', () => {
    expect(registrationProgress('/registration/something-else')).toBe(REGISTRATION_START_PERCENT)
  })
})
