/**
 * The date-window rule of banners and promo menu items (domain/content/windows.ts), with the spec's section 9
 * rows: Manila calendar days, both ends included, a banner hidden inside its hide window.
 */
import { describe, expect, it } from 'vitest'
import {
  type BannerWindow,
  bannerShown,
  isCalendarDay,
  promoShown,
  windowProblems,
  withinWindow,
} from '../../domain/content/windows'

const defaultBanner: BannerWindow = {
  start: '2024-05-07',
  end: null,
  hideStart: '2025-07-11',
  hideEnd: '2025-07-31',
}
const july2025: BannerWindow = { start: '2025-07-11', end: '2025-07-31', hideStart: null, hideEnd: null }
const newClient: BannerWindow = {
  start: '2022-10-01',
  end: '2099-01-30',
  hideStart: '2023-01-09',
  hideEnd: '2023-01-30',
}
const raffle = { start: '2023-11-15', end: '2023-12-31' }

describe('withinWindow', () => {
  it('includes both ends and nothing outside', () => {
    const w = { start: '2024-01-10', end: '2024-01-12' }
    expect(
      ['2024-01-09', '2024-01-10', '2024-01-11', '2024-01-12', '2024-01-13'].map((d) => withinWindow(d, w)),
    ).toEqual([false, true, true, true, false])
  })
  it('never closes an open end', () => {
    expect(withinWindow('2999-12-31', { start: '2024-01-10', end: null })).toBe(true)
  })
})

describe('spec section 9: banners', () => {
  const shown = (day: string) =>
    [defaultBanner, july2025, newClient].flatMap((b, i) =>
      bannerShown(day, b) ? [['default', 'july', 'new'][i]] : [],
    )

  it('the default banner starts on 2024-05-07', () => {
    expect(bannerShown('2024-05-06', defaultBanner)).toBe(false)
    expect(bannerShown('2024-05-07', defaultBanner)).toBe(true)
  })
  it('July 2025 replaces the default banner from 2025-07-11 to 2025-07-31, both included', () => {
    expect(shown('2025-07-10')).toEqual(['default', 'new'])
    expect(shown('2025-07-11')).toEqual(['july', 'new'])
    expect(shown('2025-07-31')).toEqual(['july', 'new'])
    expect(shown('2025-08-01')).toEqual(['default', 'new'])
  })
  it('the new-client banner runs 2022-10-01..2023-01-08 and 2023-01-31..2099-01-30', () => {
    const days = [
      '2022-09-30',
      '2022-10-01',
      '2023-01-08',
      '2023-01-09',
      '2023-01-30',
      '2023-01-31',
      '2099-01-30',
      '2099-01-31',
    ]
    expect(days.map((d) => bannerShown(d, newClient))).toEqual([
      false,
      true,
      true,
      false,
      false,
      true,
      true,
      false,
    ])
  })
  it('a hide window with one date only hides nothing', () => {
    expect(bannerShown('2025-07-15', { ...defaultBanner, hideEnd: null })).toBe(true)
  })
})

describe('spec section 9: the promo menu item', () => {
  it('runs 2023-11-15 to 2023-12-31', () => {
    expect(
      ['2023-11-14', '2023-11-15', '2023-12-31', '2024-01-01'].map((d) => promoShown(d, raffle)),
    ).toEqual([false, true, true, false])
  })
})

describe('windowProblems', () => {
  it('accepts a sound window', () => {
    expect(windowProblems({ startDate: '2025-01-01', endDate: '2025-01-01' })).toEqual([])
    expect(
      windowProblems({
        startDate: '2025-01-01',
        endDate: null,
        hideStartDate: '2025-02-01',
        hideEndDate: '2025-02-01',
      }),
    ).toEqual([])
  })
  it('refuses an end before the start, half a hide window, a hide window ending before it starts', () => {
    expect(
      windowProblems({ startDate: '2025-01-02', endDate: '2025-01-01' }).map((p) => p.propertyPath),
    ).toEqual(['endDate'])
    expect(
      windowProblems({ startDate: '2025-01-01', endDate: null, hideStartDate: '2025-02-01' }).map(
        (p) => p.propertyPath,
      ),
    ).toEqual(['hideEndDate'])
    expect(
      windowProblems({
        startDate: '2025-01-01',
        endDate: null,
        hideStartDate: '2025-02-02',
        hideEndDate: '2025-02-01',
      }).map((p) => p.propertyPath),
    ).toEqual(['hideEndDate'])
  })
})

describe('isCalendarDay', () => {
  it('takes real days only', () => {
    expect(
      ['2024-02-29', '2025-02-29', '2025-13-01', '2025-1-01', '20250101', ''].map(isCalendarDay),
    ).toEqual([true, false, false, false, false, false])
  })
})
