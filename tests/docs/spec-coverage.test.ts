/**
 * docs/spec-coverage.md (issue 22 item 7): every call of the spec's section 7 is an operation of /web/openapi.json
 * (the running server's own description of what it serves) and some test makes it; every route of section 2 is a page
 * of the app and some test opens it; every field (section 3), status code (4), flow step (2), server rule (5) and
 * message selector (8) is carried or given by the code and named by a test; every sentence of sections 2, 4, 5, 6, 8
 * and 9 is mapped to the file that implements it and the test that covers it, each holding the string recorded
 * (scripts/spec-coverage-rules.ts). What is not built yet is declared there by name: the test fails on anything else
 * missing, and on a declared gap that is gone. Without the spec beside the repository (a clean clone), the calls and
 * routes are read back from the document's own tables and the recorded files and strings are still checked.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  COVERAGE_DOC,
  callsInDocument,
  generatedParts,
  partIsCurrent,
  partOf,
  shapeOf,
  specCalls,
  specRoutes,
  specText,
} from '../../scripts/spec-coverage'
import {
  firstFew,
  prosePart,
  Rendered,
  readSources,
  sentencesOf,
  specFields,
  specFlowSteps,
  specRuleNames,
  specSection,
  specSelectors,
  specStatuses,
  stillPending,
  unquoted,
} from '../../scripts/spec-coverage-items'
import { callsNotBuiltYet, knownGaps, rules } from '../../scripts/spec-coverage-rules'
import { call, verifiedClient } from '../api/identity-helpers'
import { adminToken } from '../api/journey-helpers'
import { createTestApp } from '../support/app'

/** Spec calls not built yet, each named in an open issue (scripts/spec-coverage-rules.ts). */
const NOT_BUILT_YET = callsNotBuiltYet

const doc = readFileSync(COVERAGE_DOC, 'utf8')
const spec = specText()
const calls = spec ? specCalls(spec) : callsInDocument(doc)

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

describe('the spec against what is built', () => {
  it('reads the spec: every call of section 7 and every route of section 2', () => {
    expect(calls.length).toBeGreaterThan(80)
    expect(calls).toContainEqual({ method: 'PUT', path: '/private/client/complete-step-four' })
    expect(calls).toContainEqual({ method: 'PUT', path: '/private/client/disbursement-type/select/{id}' })
    expect(calls).toContainEqual({ method: 'GET', path: '/private/client/veriff/decision/{id}' })
    expect(calls).toContainEqual({ method: 'POST', path: '/private/client/referrals' })
    if (spec) expect(specRoutes(spec)).toContain('/repay/ewallets/{slug}')
  })

  it('every spec call is an operation of /web/openapi.json, but those not built yet', async () => {
    const { res, body } = await t.json<never>('/web/openapi.json')
    expect(res.status).toBe(200)
    const served = new Set(
      Object.entries((body as unknown as { paths: Record<string, Record<string, unknown>> }).paths).flatMap(
        ([path, operations]) =>
          Object.keys(operations).map((method) => `${method.toUpperCase()} ${shapeOf(path)}`),
      ),
    )
    const missing = calls
      .filter((c) => !served.has(`${c.method} ${shapeOf(c.path)}`))
      .map((c) => `${c.method} ${c.path}`)
    expect(missing).toEqual(
      NOT_BUILT_YET.filter((call) => calls.some((c) => `${c.method} ${c.path}` === call)),
    )
  })

  it('every spec call is answered by a route for a caller allowed to make it: never "no such endpoint", never 501', async () => {
    // The caller each part of the API is for: a registered client, a back-office administrator, or anyone.
    const client = await verifiedClient(t)
    const admin = await adminToken(t)
    const tokenFor = (path: string) =>
      path.startsWith('/private/back-office')
        ? admin
        : path.startsWith('/private/')
          ? client.token
          : undefined
    const unanswered: string[] = []
    // Calls that end the session (logout, password change) go last, so every other call still has its caller.
    const ordered = [...calls].sort(
      (a, b) => Number(/logout|password/.test(a.path)) - Number(/logout|password/.test(b.path)),
    )
    for (const c of ordered) {
      // Path parameters: an id that exists for nobody, or a slug: the route answers, the record may not exist.
      const path = c.path.replace(/\{[^}]+\}/g, (name) => (/id/i.test(name) ? '1' : 'x'))
      const answer = await call(t, c.method, path, c.method === 'GET' ? undefined : {}, {
        token: tokenFor(c.path),
      })
      const noRoute = answer.status === 404 && answer.body?.response?.message === 'No such API endpoint.'
      if (noRoute || answer.status === 501 || answer.status >= 500)
        unanswered.push(`${c.method} ${c.path}: ${answer.status} ${answer.body?.response?.message ?? ''}`)
    }
    expect(ordered.length).toBe(calls.length)
    expect(unanswered).toEqual([])
  })

  it('docs/spec-coverage.md is current; every item is built and tested, or declared not yet by name', async () => {
    const { parts, patterns, gaps, unexpected, healed } = await generatedParts(doc)
    // Current: the generated text, or a choice among the same qualifying files (scripts/spec-coverage-items.ts
    // Shown); the message shows the generated part, which `npx tsx scripts/spec-coverage.ts` writes.
    for (const [name, text] of Object.entries(parts))
      if (!partIsCurrent(doc, name, text, patterns[name]))
        expect(partOf(doc, name), `the ${name} table is stale: run npx tsx scripts/spec-coverage.ts`).toBe(
          text,
        )
    expect(unexpected, 'gaps nobody declared (scripts/spec-coverage-rules.ts)').toEqual([])
    expect(healed, 'declared gaps that are gone: take them off the list').toEqual([])
    // Every gap is named in the document's list, and the list holds nothing else (the spec's tables need the spec).
    if (!spec) return
    const list = doc.slice(doc.indexOf('<!-- gaps:start'), doc.indexOf('<!-- gaps:end'))
    expect(list.match(/^- /gm)?.length ?? 0).toBe(gaps.length)
    for (const gap of Object.keys(knownGaps)) expect(gaps).toContain(gap)
  })
})

describe.runIf(spec)('reading the spec', () => {
  const text = spec ?? ''

  it('reads the listed items: fields, status codes, flow steps, server rules and selectors', () => {
    const fields = specFields(text)
    expect(fields.length).toBeGreaterThan(150)
    expect(fields).toContainEqual({ entity: 'Client', field: 'info.mobilePhone.number' })
    expect(fields).toContainEqual({ entity: 'Offer', field: 'discount{interest,serviceFee}' })
    // English words are not fields.
    expect(fields.some((f) => ['and', 'the', 'with', 'Each'].includes(f.field))).toBe(false)
    const statuses = specStatuses(text)
    expect(statuses).toHaveLength(5 + 13 + 9)
    expect(statuses).toContainEqual({ table: 'Application status', name: 'decision error', code: 401 })
    expect(statuses).toContainEqual({ table: 'Loan status', name: 'write off', code: 10 })
    expect(specFlowSteps(text)).toHaveLength(18)
    expect(specFlowSteps(text)).toEqual(expect.arrayContaining(['offer_increase', 'offer_decrease']))
    expect(specRuleNames(text)).toContain('wrongEmailDomain')
    expect(specRuleNames(text)).not.toContain('promo rules')
    expect(specSelectors(text)).toHaveLength(18)
    expect(specSelectors(text)).toContain('error-otp-code-unsent')
  })

  it('splits prose into sentences, and finds one no entry quotes', () => {
    const nine = prosePart(text, 9)
    expect(sentencesOf(nine, 'skip')).toContain('Toast duration 5 seconds.')
    // "Cookies:" only introduces the list below it.
    expect(sentencesOf(nine, 'skip')).not.toContain('Cookies:')
    expect(sentencesOf(specSection(text, 8), 'first cell')).toContain('Unknown routing middleware')
    for (const section of [2, 4, 5, 6, 8, 9]) expect(unquoted(section, prosePart(text, section))).toEqual([])
    const added = `${nine}\n- Sessions end after 30 minutes without a call.\n`
    expect(unquoted(9, added)).toEqual(['Sessions end after 30 minutes without a call.'])
  })

  it('every entry of the hand-made map quotes its section', () => {
    for (const [section, entries] of Object.entries(rules)) {
      const part = prosePart(text, Number(section)).replace(/\s+/g, ' ')
      for (const entry of entries)
        expect(part, `section ${section}`).toContain(entry.spec.replace(/\s+/g, ' '))
    }
  })
})

describe('a table cell that lists files', () => {
  it('shows the first few, and accepts any that qualify in their place, never one that does not, never none', () => {
    const line = new Rendered()
      .lit('| item | ')
      .list(firstFew(['tests/a.test.ts', 'tests/b.test.ts', 'tests/c.test.ts'], 2), (f) => `\`${f}\``)
      .lit(' |')
    expect(line.text).toBe('| item | `tests/a.test.ts`, `tests/b.test.ts` |')
    expect(line.pattern.test(line.text)).toBe(true)
    // A new test sorting first does not make the document's choice stale.
    expect(line.pattern.test('| item | `tests/b.test.ts`, `tests/c.test.ts` |')).toBe(true)
    expect(line.pattern.test('| item | `tests/c.test.ts` |')).toBe(true)
    // A file that no longer qualifies, or no file, does.
    expect(line.pattern.test('| item | `tests/a.test.ts`, `tests/gone.test.ts` |')).toBe(false)
    expect(line.pattern.test('| item |  |')).toBe(false)
    // Everything else is compared as it is written.
    expect(line.pattern.test('| other | `tests/a.test.ts` |')).toBe(false)
  })
})

describe('a declared gap', () => {
  it('is pending while its file holds the string, or until some file under its folder does', () => {
    const sources = readSources(resolve(import.meta.dirname, '../..'))
    const here = 'tests/docs/spec-coverage.test.ts'
    expect(stillPending(sources, {})).toBe(true)
    expect(stillPending(sources, { pendingWhile: ['domain/journey/routing.ts', 'qa-disable-flow'] })).toBe(
      true,
    )
    expect(
      stillPending(sources, { pendingWhile: ['domain/journey/routing.ts', 'no such text anywhere'] }),
    ).toBe(false)
    expect(stillPending(sources, { pendingUntil: ['domain/', 'export const SANDBOX_COOKIE'] })).toBe(false)
    expect(stillPending(sources, { pendingUntil: ['src/', `${here} names this and nothing else`] })).toBe(
      true,
    )
  })
})
