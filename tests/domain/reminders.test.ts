/**
 * Payment reminders, pure (issue 18, item 2; domain/loan/reminders.ts): the kinds the configuration asks for, the
 * send instant always inside 06:00-22:00 Manila (SEC MC 18 s.2019) for any `now` and configuration (property),
 * and every reminder text free of threats and of any mention of people other than the borrower.
 */
import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  bannedPhrasesIn,
  insideLawfulWindow,
  LAWFUL_FROM_HOUR,
  LAWFUL_UNTIL_HOUR,
  reminderDays,
  reminderFor,
  reminderSendAt,
  reminderStage,
} from '../../domain/loan/reminders'
import { defaultServicingConfig, servicingConfigSchema } from '../../domain/loan/servicing-config'
import texts from '../../server/locales/en/reminders.json' with { type: 'json' }
import { reminderMessage } from '../../server/services/servicing/reminder-texts'

const terms = defaultServicingConfig.reminders
const HOUR_MS = 3_600_000
/** Manila wall-clock hour (fractional) of an instant. */
const manilaHour = (d: Date) => (((d.getTime() / HOUR_MS + 8) % 24) + 24) % 24
const at = (iso: string) => new Date(iso)

describe('reminder days', () => {
  it('names a kind for each configured day: before, on and after the due date', () => {
    expect(reminderDays(terms)).toEqual([
      { kind: 'before_3', dueDays: 3 },
      { kind: 'before_1', dueDays: 1 },
      { kind: 'due_today', dueDays: 0 },
      { kind: 'after_1', dueDays: -1 },
      { kind: 'after_3', dueDays: -3 },
      { kind: 'after_7', dueDays: -7 },
      { kind: 'after_15', dueDays: -15 },
      { kind: 'after_30', dueDays: -30 },
    ])
    expect(reminderFor(terms, 3)).toBe('before_3')
    expect(reminderFor(terms, 2)).toBeNull()
    expect(reminderFor(terms, 0)).toBe('due_today')
    expect(reminderFor(terms, -7)).toBe('after_7')
    expect(reminderFor(terms, -8)).toBeNull()
    expect(reminderStage('before_3')).toBe('before')
    expect(reminderStage('due_today')).toBe('due_today')
    expect(reminderStage('after_30')).toBe('after')
  })

  it('names none when reminders are off, and no due-date one when onDueDate is off', () => {
    expect(reminderDays({ ...terms, enabled: false })).toEqual([])
    expect(reminderFor({ ...terms, onDueDate: false }, 0)).toBeNull()
  })
})

describe('reminderSendAt', () => {
  // 09:00 Manila is 01:00 UTC.
  it('before the send hour: the send hour the same Manila day', () => {
    expect(reminderSendAt(at('2026-11-26T21:30:00Z'), 9).toISOString()).toBe('2026-11-27T01:00:00.000Z')
    expect(reminderSendAt(at('2026-11-26T23:00:00Z'), 9).toISOString()).toBe('2026-11-27T01:00:00.000Z')
  })
  it('between the send hour and 22:00: now', () => {
    expect(reminderSendAt(at('2026-11-27T01:00:00Z'), 9).toISOString()).toBe('2026-11-27T01:00:00.000Z')
    expect(reminderSendAt(at('2026-11-27T13:59:59Z'), 9).toISOString()).toBe('2026-11-27T13:59:59.000Z')
  })
  it('from 22:00: the send hour the next Manila day', () => {
    expect(reminderSendAt(at('2026-11-27T14:00:00Z'), 9).toISOString()).toBe('2026-11-28T01:00:00.000Z')
    expect(reminderSendAt(at('2026-11-27T15:59:59Z'), 9).toISOString()).toBe('2026-11-28T01:00:00.000Z')
  })
  it('the window edges: 05:59:59 and 22:00 are outside, 06:00 and 21:59:59 inside', () => {
    expect(insideLawfulWindow(at('2026-11-26T21:59:59Z'))).toBe(false)
    expect(insideLawfulWindow(at('2026-11-26T22:00:00Z'))).toBe(true)
    expect(insideLawfulWindow(at('2026-11-27T13:59:59Z'))).toBe(true)
    expect(insideLawfulWindow(at('2026-11-27T14:00:00Z'))).toBe(false)
  })

  it('property: for any now and any valid send hour, the instant is >= now, inside 06:00-22:00 Manila, not before the send hour, and at most a day away', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 6, max: 21 }),
        (now, sendHour) => {
          const sendAt = reminderSendAt(now, sendHour)
          const h = manilaHour(sendAt)
          expect(sendAt.getTime()).toBeGreaterThanOrEqual(now.getTime())
          expect(sendAt.getTime() - now.getTime()).toBeLessThanOrEqual(24 * HOUR_MS)
          expect(insideLawfulWindow(sendAt)).toBe(true)
          expect(h).toBeGreaterThanOrEqual(LAWFUL_FROM_HOUR)
          expect(h).toBeLessThan(LAWFUL_UNTIL_HOUR)
          expect(h).toBeGreaterThanOrEqual(sendHour)
          // Already lawful and past the send hour: no wait at all.
          if (manilaHour(now) >= sendHour && manilaHour(now) < LAWFUL_UNTIL_HOUR) expect(sendAt).toEqual(now)
        },
      ),
      { numRuns: 5_000 },
    )
  })

  it('property: any configuration the validator accepts schedules inside the window (even an unvalidated hour is clamped)', () => {
    const config = fc.record({
      enabled: fc.boolean(),
      daysBeforeDue: fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 10 }),
      onDueDate: fc.boolean(),
      daysAfterDue: fc.uniqueArray(fc.integer({ min: 1, max: 90 }), { maxLength: 10 }),
      sendHour: fc.integer({ min: -5, max: 30 }),
    })
    fc.assert(
      fc.property(
        config,
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('2200-01-01') }),
        (c, now) => {
          const valid = v.safeParse(servicingConfigSchema.entries.reminders, c).success
          if (valid) expect(c.sendHour).toBeGreaterThanOrEqual(6)
          const sendAt = reminderSendAt(now, c.sendHour)
          expect(insideLawfulWindow(sendAt)).toBe(true)
          expect(sendAt.getTime()).toBeGreaterThanOrEqual(now.getTime())
          // Each configured day names one kind, and no two kinds share a day.
          const days = reminderDays(c)
          expect(new Set(days.map((d) => d.dueDays)).size).toBe(days.length)
        },
      ),
      { numRuns: 2_000 },
    )
  })
})

describe('reminder texts', () => {
  it('the banned-phrase check catches threats, shaming and third parties', () => {
    expect(bannedPhrasesIn('Pay now or we take legal action')).toEqual(['legal action'])
    expect(bannedPhrasesIn('We will tell your FAMILY and your employer')).toEqual(['family', 'employer'])
    expect(bannedPhrasesIn('Police will visit')).toEqual(['police'])
    expect(bannedPhrasesIn('Your payment reference is 1234')).toEqual([])
    expect(bannedPhrasesIn('a friendly reminder')).toEqual([])
  })

  it('every template and every rendered message passes it, and says the amount, date, reference and where to pay', () => {
    for (const stage of Object.values(texts))
      for (const template of Object.values(stage)) expect(bannedPhrasesIn(template)).toEqual([])
    for (const kind of reminderDays(terms).map((d) => d.kind))
      for (const channel of ['sms', 'email'] as const) {
        const m = reminderMessage(channel, {
          kind,
          clientId: 42,
          loanNumber: 'L00000042',
          amount: 1_234_567,
          dueDate: '2026-12-05',
        })
        const all = `${m.subject ?? ''}\n${m.body}`
        expect(bannedPhrasesIn(all), `${kind} ${channel}`).toEqual([])
        expect(all).toContain('PHP 12,345.67')
        expect(all).toContain('Dec 05, 2026')
        expect(all).toContain('L00000042')
        expect(all).toContain('hiram.ph/profile/repayment')
        expect(all).not.toMatch(/\{\w+\}/)
        if (channel === 'email') expect(m.subject).toBeTruthy()
      }
  })
})
