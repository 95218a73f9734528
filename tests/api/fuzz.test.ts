/**
 * Fuzz over every operation of /web/openapi.json, read from the app itself so a new route is covered without
 * anyone writing a case. Each operation is called as a guest, a client and a back-office user with malformed
 * bodies, path parameters and queries: values generated from the operation's own schema (fast-check, seeded)
 * with one property at a time replaced by junk (wrong types, huge lengths, NUL and other control characters,
 * lone surrogates, huge, negative and fractional numbers, exponents, deep nesting), plus generic junk bodies
 * (wrong content type, invalid JSON, empty body). Any 5xx, hang or error body that leaks internals or echoes a
 * submitted value fails the test. 4xx of every kind (400, 401, 403, 404, 409, 413, 415, 429) are fine.
 */
import { appendFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../support/app'
import { call, newAddress, type TestApp, verifiedClient } from './identity-helpers'
import { adminToken } from './lending-helpers'

const SEED = 20_261_125
/** A request that takes longer than this is a hang. */
const REQUEST_TIMEOUT_MS = 5_000
/** Junk values tried per property, picked by the seeded generator from the pool for the property's type. */
const MUTATIONS_PER_PROPERTY = 7

type Json = Record<string, unknown> & {
  type?: string | string[]
  properties?: Record<string, Json>
  required?: string[]
  additionalProperties?: Json | boolean
  items?: Json
  anyOf?: Json[]
  oneOf?: Json[]
  allOf?: Json[]
  enum?: unknown[]
  const?: unknown
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
}

interface Parameter {
  name: string
  in: 'path' | 'query'
  required: boolean
  schema: Json
}

interface Operation {
  method: string
  path: string
  parameters: Parameter[]
  body?: Json
  secured: boolean
}

type Role = 'guest' | 'client' | 'back-office'

interface Case {
  what: string
  path: string
  query?: string
  /** A JS value sent as JSON, or raw bytes/text with their own content type. */
  body?: { json: unknown } | { raw: string | Uint8Array; type?: string }
  /** Submitted strings that must not come back in an error body. */
  secrets: string[]
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic choices

function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function pick<T>(random: () => number, pool: readonly T[], count: number): T[] {
  const copy = [...pool]
  const chosen: T[] = []
  while (chosen.length < count && copy.length)
    chosen.push(copy.splice(Math.floor(random() * copy.length), 1)[0]!)
  return chosen
}

// ---------------------------------------------------------------------------------------------------------------
// Valid-looking values from the operation's JSON schema

function arbitraryOf(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 6) return fc.constant(null)
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.enum?.length) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, depth + 1)))
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0], depth + 1)
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'string':
      return stringArbitrary(schema)
    case 'integer': {
      // Bounded above the minimum, which can be large (an epoch-millisecond time).
      const min = schema.minimum ?? 0
      return fc.integer({ min, max: Math.min(schema.maximum ?? min + 1_000, min + 1_000_000_000) })
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(arbitraryOf(schema.items, depth + 1), { minLength: 1, maxLength: 2 })
    case 'object': {
      const properties = Object.entries(schema.properties ?? {})
      if (
        !properties.length &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === 'object'
      )
        return fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }),
          arbitraryOf(schema.additionalProperties, depth + 1),
          { minKeys: 1, maxKeys: 2 },
        )
      // Every property present, so each one gets its turn at being broken.
      return fc.record(Object.fromEntries(properties.map(([name, s]) => [name, arbitraryOf(s, depth + 1)])))
    }
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer())
  }
}

function stringArbitrary(schema: Json): fc.Arbitrary<string> {
  const maxLength = Math.min(schema.maxLength ?? 24, 64)
  const minLength = Math.min(schema.minLength ?? 1, maxLength)
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length <= (schema.maxLength ?? 1e6))
    } catch {
      // A pattern fast-check cannot generate from: fall through to a plain string.
    }
  }
  if (schema.format === 'email') return fc.emailAddress().filter((s) => s.length <= maxLength + 200)
  if (schema.format === 'uuid') return fc.uuid()
  if (schema.format === 'date') return fc.constant('2026-11-25')
  return fc.string({ minLength, maxLength, unit: 'grapheme-ascii' })
}

const sample = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T =>
  fc.sample(arbitrary, { seed, numRuns: 1 })[0]!

// ---------------------------------------------------------------------------------------------------------------
// Junk

/** A raw JSON token spliced into the serialized body in place of its placeholder (1e400 is not JSON.stringify-able). */
const RAW = (token: string) => `\u0000raw:${token}\u0000`
const rawToken = /"\\u0000raw:([^"\\]+)\\u0000"/g

const deepObject = (levels: number) => {
  let value: unknown = 'leaf'
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

const longText = 'x'.repeat(100_000)
const junkStrings = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'a\ud800',
  '\udc00z',
  '\ud800\ud800',
  '\u0001\u0007\u001b[31m',
  'x\u0085\u009f',
  '\u007f',
  '\u202e\ufeff',
  'x'.repeat(5_000),
  longText,
  "' OR '1'='1' --",
  '../../../../etc/passwd',
  '%00%ff',
  '2147483648',
  '-1',
  '1e400',
  'NaN',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀',
]
const junkNumbers = [
  2_147_483_648,
  -2_147_483_649,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  -1,
  0,
  1.5,
  -0.000001,
  1e21,
  1e308,
  RAW('1e400'),
  RAW('-1e400'),
  RAW('1E2'),
  RAW('123456789012345678901234567890'),
  RAW('-0'),
]
const junkShapes = [null, true, [], {}, [1, 'a\u0000'], { a: 'a\u0000' }, deepObject(200), [[[[[]]]]]]

function mutationsOf(value: unknown, schema: Json | undefined): unknown[] {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type
  if (typeof value === 'string' || type === 'string') {
    const s = typeof value === 'string' ? value : 'abc'
    return [
      `${s}\u0000`,
      `\u0000${s}`,
      `${s}\ud800`,
      `\udfff${s}`,
      `${s}\u0008\u000b`,
      `${s}\u0085`,
      s.repeat(Math.ceil(10_000 / Math.max(1, s.length))),
      ...junkStrings,
      ...junkNumbers.slice(0, 4),
      ...junkShapes.slice(0, 4),
    ]
  }
  if (typeof value === 'number' || type === 'integer' || type === 'number')
    return [...junkNumbers, '12', 'a\u0000', ...junkShapes.slice(0, 4)]
  if (typeof value === 'boolean') return ['true', 1, 0, 'a\u0000', null, []]
  if (Array.isArray(value))
    return [{}, 'a\u0000', 1, null, Array(1_000).fill(value[0] ?? 'a'), deepObject(300)]
  return ['a\u0000', 2_147_483_648, [], [value], null, deepObject(300), RAW('1e400')]
}

/** Paths (property names from the root) of every property in a generated value, objects included. */
function propertyPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return []
  return Object.entries(value).flatMap(([name, inner]) => [
    [...prefix, name],
    ...propertyPaths(inner, [...prefix, name]),
  ])
}

function schemaAt(schema: Json | undefined, path: string[]): Json | undefined {
  let at = schema
  for (const name of path) {
    if (!at) return undefined
    const alternatives = at.anyOf ?? at.oneOf
    const holder = alternatives?.find((s) => s.properties?.[name]) ?? at
    at =
      holder.properties?.[name] ??
      (typeof holder.additionalProperties === 'object' ? holder.additionalProperties : undefined)
  }
  return at
}

function withValue(root: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string, unknown>
  let at = copy
  for (const name of path.slice(0, -1)) at = at[name] as Record<string, unknown>
  at[path.at(-1)!] = value
  return copy
}

/** String values (of at least 6 characters) in a value: what an error body must not echo back. */
function stringsIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.length >= 6 && !value.startsWith('\u0000raw:')) found.push(value)
  } else if (value && typeof value === 'object')
    for (const inner of Object.values(value)) stringsIn(inner, found)
  return found
}

/** Strings an error may legitimately name (enum and const values of the schema). */
function namedValues(schema: unknown, found = new Set<string>()): Set<string> {
  if (schema && typeof schema === 'object') {
    const s = schema as Json
    if (typeof s.const === 'string') found.add(s.const)
    for (const e of s.enum ?? []) if (typeof e === 'string') found.add(e)
    for (const inner of Object.values(s)) namedValues(inner, found)
  }
  return found
}

const junkPathValues = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%',
  '%FF',
  '%C0%AF',
  '2147483648',
  '9'.repeat(40),
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x1F',
  'x'.repeat(5_000),
  '..%2F..%2Fetc',
  '%C2%85',
  '%01%1B',
  '%F0%9F%98%80',
  '%20',
  'null',
]

/** A path or query value an error must not repeat: long enough to be recognised, and not percent-encoded. */
const echoable = (junk: string) =>
  junk.length >= 6 && !junk.includes('%') && junk !== 'x'.repeat(6) ? [junk] : []

// ---------------------------------------------------------------------------------------------------------------
// Cases of one operation

function casesOf(op: Operation, index: number): Case[] {
  const random = mulberry32(SEED + index)
  const params = op.parameters.filter((p) => p.in === 'path')
  const queries = op.parameters.filter((p) => p.in === 'query')
  const validParam = (p: Parameter, i: number) =>
    encodeURIComponent(String(sample(arbitraryOf(p.schema), SEED + index * 100 + i)))
  const validParams = Object.fromEntries(params.map((p, i) => [p.name, validParam(p, i)]))
  const validQuery = Object.fromEntries(queries.map((p, i) => [p.name, validParam(p, 50 + i)]))
  const pathWith = (values: Record<string, string>) =>
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x')
  const queryWith = (values: Record<string, string>) =>
    Object.entries(values)
      .map(([name, value]) => `${name}=${value}`)
      .join('&')
  const path = pathWith(validParams)
  const query = queryWith(validQuery)
  const body = op.body ? sample(arbitraryOf(op.body), SEED + index) : undefined
  const named = namedValues(op.body)
  const secretsOf = (value: unknown) => stringsIn(value).filter((s) => !named.has(s))
  const cases: Case[] = []
  const add = (c: Omit<Case, 'secrets'> & { secrets?: string[] }) => cases.push({ secrets: [], ...c })

  // The valid-looking call itself, then each path parameter and each query parameter broken in turn.
  add({ what: 'valid-looking', path, query, body: body === undefined ? undefined : { json: body } })
  for (const p of params)
    for (const junk of pick(random, junkPathValues, 8))
      add({
        what: `path ${p.name}=${junk.slice(0, 20)}`,
        path: pathWith({ ...validParams, [p.name]: junk }),
        query,
        secrets: echoable(junk),
      })
  for (const p of queries)
    for (const junk of pick(random, junkPathValues, 6))
      add({
        what: `query ${p.name}=${junk.slice(0, 20)}`,
        path,
        query: queryWith({ ...validQuery, [p.name]: junk }),
        secrets: echoable(junk),
      })
  if (queries.length) {
    add({ what: 'query undecodable', path, query: `${query}&%=%&a=%E0%A4%A` })
    add({ what: 'query repeated', path, query: `${query}&${query}&${queries[0]!.name}=%00` })
  }

  // The body: generic junk, then every property in turn.
  const json = body === undefined ? { a: 1 } : body
  const text = JSON.stringify(json)
  add({ what: 'empty body', path, query, body: { raw: '', type: 'application/json' } })
  add({ what: 'invalid JSON', path, query, body: { raw: '{"a":', type: 'application/json' } })
  add({ what: 'JSON with NUL byte', path, query, body: { raw: '{"a":"\u0000"}', type: 'application/json' } })
  add({
    what: 'invalid UTF-8',
    path,
    query,
    body: { raw: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), type: 'application/json' },
  })
  add({ what: 'text/plain body', path, query, body: { raw: text, type: 'text/plain' } })
  add({
    what: 'form body',
    path,
    query,
    body: { raw: 'a=1&b=%00', type: 'application/x-www-form-urlencoded' },
  })
  add({
    what: 'multipart junk',
    path,
    query,
    body: {
      raw: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n\u0000\r\n--x--',
      type: 'multipart/form-data; boundary=x',
    },
  })
  add({ what: 'no content type', path, query, body: { raw: text } })
  add({
    what: 'deeply nested arrays',
    path,
    query,
    body: { raw: `${'['.repeat(20_000)}${']'.repeat(20_000)}`, type: 'application/json' },
  })
  add({
    what: 'deeply nested objects',
    path,
    query,
    body: { raw: `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, type: 'application/json' },
  })
  for (const top of [
    null,
    [],
    [json],
    'text',
    1e21,
    true,
    { __proto__: null, constructor: { prototype: { polluted: 1 } } },
  ])
    add({ what: `body ${JSON.stringify(top)?.slice(0, 30)}`, path, query, body: { json: top } })
  add({
    what: 'body with proto key',
    path,
    query,
    body: { raw: `{"__proto__":{"polluted":1},${text.slice(1)}`, type: 'application/json' },
  })
  add({
    what: 'body with extra NUL key',
    path,
    query,
    body: { json: { ...(json as object), 'x\u0000': 'a\ud800' } },
  })
  if (op.body) {
    for (const property of propertyPaths(body)) {
      const schema = schemaAt(op.body, property)
      const current = property.reduce<unknown>((at, name) => (at as Record<string, unknown>)?.[name], body)
      for (const junk of pick(random, mutationsOf(current, schema), MUTATIONS_PER_PROPERTY)) {
        const mutated = withValue(body, property, junk)
        add({
          what: `body ${property.join('.')}=${show(junk)}`,
          path,
          query,
          body: { json: mutated },
          secrets: secretsOf(mutated),
        })
      }
      // A record (marketing fields, affiliate data): keys are strings that reach the database too.
      if (
        schema?.additionalProperties &&
        typeof schema.additionalProperties === 'object' &&
        !schema.properties
      )
        for (const key of ['a\u0000b', 'k\ud800', 'x'.repeat(10_000), '__proto__'])
          add({
            what: `body ${property.join('.')} key ${show(key)}`,
            path,
            query,
            body: { json: withValue(body, property, { [key]: 'v' }) },
          })
    }
  }
  return cases
}

function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 20 ? `${value.slice(0, 12)}…(${value.length})` : value)
  return (JSON.stringify(value) ?? String(value)).slice(0, 30)
}

// ---------------------------------------------------------------------------------------------------------------
// Sending

/** What an error body must never hold: stacks, SQL, driver messages, file paths. */
const internals =
  /\bat [\w.<>]+ \(|\n\s+at |Failed query|\bselect\b[\s\S]*\bfrom\b|\binsert into\b|\bupdate \S+ set\b|duplicate key|violates|invalid input syntax|invalid byte sequence|out of range for type|syntax error|PGlite|postgres|node_modules|\/work\/|\/src\/|\.ts:\d+|TypeError|RangeError|ReferenceError|undefined is not|Cannot read prop/i

function encodeBody(c: Case): { body?: BodyInit; type?: string } {
  if (!c.body) return {}
  if ('json' in c.body) {
    const text = JSON.stringify(c.body.json)?.replace(rawToken, (_m, token: string) => token)
    return { body: text, type: 'application/json' }
  }
  return { body: c.body.raw as BodyInit, type: c.body.type }
}

function operationsOf(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: (op.parameters ?? []) as Parameter[],
      body: (op.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content?.[
        'application/json'
      ]?.schema,
      secured: Boolean(op.security),
    })),
  )
}

/**
 * Logging out, or a back-office call that blocks a client, ends a session the next cases need: those operations
 * go last, and a session refused with 401 or 403 is opened again before the next operation.
 */
/** FUZZ_TRACE=<file> appends one line per operation and caller (cases, time, failures) to that file. */
const trace = (line: string) => {
  if (process.env.FUZZ_TRACE) appendFileSync(process.env.FUZZ_TRACE, `${line}\n`)
}

const endsSessions = (op: Operation) => /logout|status$/.test(op.path)

describe('fuzz: every operation of /web/openapi.json', () => {
  let t: TestApp
  let operations: Operation[]

  beforeAll(async () => {
    t = await createTestApp()
    const res = await t.request('/web/openapi.json')
    operations = operationsOf(await res.json())
    operations.sort((a, b) => Number(endsSessions(a)) - Number(endsSessions(b)))
  }, 180_000)
  afterAll(() => t?.close())

  it('answers 400 on the field for the inputs of issue 13 that used to answer 500', async () => {
    const client = await verifiedClient(t)
    const as = { token: client.token }
    const cases: [string, string, unknown, string][] = [
      ['POST', '/public/client/login', { login: 'juan\u0000@example.ph', password: 'secret123' }, 'login'],
      ['POST', '/public/client/login', { login: 'juan\ud800', password: 'secret123' }, 'login'],
      ['PUT', '/private/client/change/email', { email: '\u0000juan@example.ph', code: '123' }, 'email'],
      [
        'POST',
        '/private/client/disbursement-type',
        { type: 'bank_transfer', bankId: 2_147_483_648, accountNumber: '001234567890' },
        'bankId',
      ],
      [
        'POST',
        '/private/client/application',
        { loanAmount: { amount: 500_000 }, term: { value: 14 }, marketing: { 'utm\u0000': 'x' } },
        'marketing',
      ],
    ]
    for (const [method, path, body, field] of cases) {
      const answer = await call(t, method, path, body, as)
      expect(answer.status, `${method} ${path}`).toBe(400)
      expect(answer.body.response.violations?.map((v) => v.propertyPath)).toContain(field)
    }
    const infinite = await t.request('/web/public/client/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"login":"juan@example.ph","password":"secret123","captchaToken":1e400}',
    })
    expect(infinite.status).toBe(400)
    const huge = await call(
      t,
      'GET',
      '/private/client/application/9007199254740993/offer/actual',
      undefined,
      as,
    )
    expect(huge.status).toBe(400)
  })

  it('answers no 5xx, never hangs and leaks nothing, for every operation, as every kind of caller', async () => {
    const started = performance.now()
    const failures: string[] = []
    const statuses = new Map<number, number>()
    let sent = 0
    let serverErrors = 0
    const tokens: Record<Role, string | undefined> = {
      guest: undefined,
      client: (await verifiedClient(t)).token,
      'back-office': await adminToken(t, 'fuzz-admin-device'),
    }
    const reopen = async (role: Role) => {
      try {
        if (role === 'client') tokens.client = (await verifiedClient(t)).token
        if (role === 'back-office') tokens['back-office'] = await adminToken(t, `fuzz-admin-${sent}`)
      } catch (error) {
        // A limit on sign-ups or codes: go on with the old session (its calls answer 401, still no 5xx).
        trace(`could not reopen the ${role} session: ${(error as Error).message}`)
      }
    }
    const send = async (op: Operation, role: Role, c: Case) => {
      const { body, type } = encodeBody(c)
      const headers: Record<string, string> = { 'x-forwarded-for': newAddress() }
      if (type) headers['content-type'] = type
      const token = tokens[role]
      if (token) headers.authorization = `Bearer ${token}`
      const url = c.query ? `${c.path}?${c.query}` : c.path
      const method = op.method
      sent++
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), REQUEST_TIMEOUT_MS)
      })
      const where = `${method} ${op.path} as ${role}, ${c.what}`
      try {
        const res = await Promise.race([
          t.request(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body }),
          timeout,
        ])
        if (res === 'timeout') {
          failures.push(`${where}: no answer within ${REQUEST_TIMEOUT_MS} ms`)
          return undefined
        }
        const text = await res.text()
        // A refreshed token replaces the one it was refreshed from, as the app's client does.
        const renewed = /^Bearer (.+)$/.exec(res.headers.get('authorization') ?? '')?.[1]
        if (renewed && role !== 'guest' && res.ok) tokens[role] = renewed
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        if (res.status >= 500) {
          serverErrors++
          failures.push(`${where}: ${res.status} ${text.slice(0, 200)}`)
        } else if (res.status >= 400) {
          if (internals.test(text))
            failures.push(`${where}: error body leaks internals: ${text.slice(0, 300)}`)
          const echoed = c.secrets.find(
            (s) => text.includes(JSON.stringify(s).slice(1, -1)) || text.includes(s),
          )
          if (echoed) failures.push(`${where}: error body echoes the submitted ${show(echoed)}`)
        }
        return res.status
      } catch (error) {
        failures.push(`${where}: the request threw ${(error as Error).name}`)
        return undefined
      } finally {
        clearTimeout(timer)
      }
    }

    for (const [index, op] of operations.entries()) {
      const cases = casesOf(op, index)
      for (const role of ['guest', 'client', 'back-office'] as const) {
        const opStarted = performance.now()
        const failed = failures.length
        // A caller the operation refuses (401, 403) is refused before its input is read: a quarter of the
        // cases shows that refusal holds for any input, the rest would only repeat it.
        const first = await send(op, role, cases[0]!)
        const refused = first === 401 || first === 403
        for (const [at, c] of cases.entries())
          if (at > 0 && (!refused || at % 4 === 0)) await send(op, role, c)
        trace(
          `${op.method} ${op.path} as ${role}: ${cases.length} cases, ${Math.round(performance.now() - opStarted)} ms, ${failures.length - failed} failures`,
        )
        // A session this operation ended (logout, a blocked client) is opened again for the next one.
        if (role !== 'guest') {
          const check = await call(
            t,
            'GET',
            role === 'client' ? '/private/client' : '/private/back-office/review-queue',
            undefined,
            { token: tokens[role] },
          )
          if (check.status === 401 || check.status === 403) await reopen(role)
        }
      }
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const byStatus = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')
    console.info(
      `fuzz: ${sent} requests over ${operations.length} operations as guest, client and back office in ${seconds} s; ${serverErrors} 5xx, ${failures.length} failures (${byStatus})`,
    )
    for (const failure of failures) trace(`FAIL ${failure}`)
    expect(operations.length).toBeGreaterThan(50)
    expect(serverErrors).toBe(0)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(failures.slice(0, 40)).toEqual([])
  }, 600_000)
})
