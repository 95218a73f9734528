/**
 * Promo codes shipped with the product. Besides the live first-loan promo, three sandbox codes let QA reach
 * every answer of the promo check from the browser (documented in the README):
 *   HIRAM10  valid for everyone: 10% off interest
 *   WELCOME  valid for new clients and guests only: 25% off interest and 50% off the service fee
 *   OLDPROMO expired on 2025-12-31
 *   SOON27   starts 2027-01-01
 */
import type { promoCode } from '../schema'

export const seedPromos: (typeof promoCode.$inferInsert)[] = [
  {
    code: 'HIRAM10',
    validFrom: new Date('2026-01-01T00:00:00+08:00'),
    validTo: new Date('2028-01-01T00:00:00+08:00'),
    clientKinds: ['guest', 'new', 'repeat'],
    maxUses: null,
    usesPerClient: 1,
    interestDiscountBps: 1_000,
    serviceFeeDiscountBps: 0,
    description: '10% off the interest of one loan.',
  },
  {
    code: 'WELCOME',
    validFrom: new Date('2026-01-01T00:00:00+08:00'),
    validTo: new Date('2028-01-01T00:00:00+08:00'),
    clientKinds: ['guest', 'new'],
    maxUses: null,
    usesPerClient: 1,
    interestDiscountBps: 2_500,
    serviceFeeDiscountBps: 5_000,
    description: 'First loan: 25% off interest and half the service fee.',
  },
  {
    code: 'OLDPROMO',
    validFrom: new Date('2025-01-01T00:00:00+08:00'),
    validTo: new Date('2026-01-01T00:00:00+08:00'),
    clientKinds: ['guest', 'new', 'repeat'],
    maxUses: null,
    usesPerClient: 1,
    interestDiscountBps: 1_000,
    serviceFeeDiscountBps: 0,
    description: 'Ended 2025-12-31 (sandbox: expired).',
  },
  {
    code: 'SOON27',
    validFrom: new Date('2027-01-01T00:00:00+08:00'),
    validTo: new Date('2027-02-01T00:00:00+08:00'),
    clientKinds: ['guest', 'new', 'repeat'],
    maxUses: null,
    usesPerClient: 1,
    interestDiscountBps: 1_000,
    serviceFeeDiscountBps: 0,
    description: 'January 2027 (sandbox: not started).',
  },
]
