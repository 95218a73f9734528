/**
 * docs/spec-coverage.md beyond the routes and calls (issue 22 item 7): the entities' fields (spec section 3), the
 * status codes and flow steps (sections 4 and 2), the rules in prose (sections 4, 5, 6, 8, 9) and the validation
 * message selectors (section 8), each with where the code defines it and a test that names it.
 *
 * What the spec lists (fields, status tables, flow steps, selectors) is read from the spec and looked up in the code
 * here. What the spec says in sentences is mapped by hand in scripts/spec-coverage-rules.ts; this module checks that
 * mapping: every sentence of those sections is quoted by an entry, every quote is still the spec's, and every file an
 * entry names exists and holds the string recorded with it (so a renamed test or constant fails the check).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { flowSteps, stepMeta } from '../domain/journey/client-journey.machine'
import { clientStatus } from '../domain/journey/routing'
import { loanStatusCode } from '../domain/loan/loan-lifecycle.machine'
import { applicationStatus } from '../domain/offer-decision'
import {
  type Evidence,
  entityFields,
  entityHomes,
  fieldAliases,
  fieldNotes,
  fieldTests,
  flowStepNotBuilt,
  notFieldWords,
  type RuleEntry,
  rules,
  statusAliases,
  statusNotBuilt,
  statusTests,
} from './spec-coverage-rules'

// ---------------------------------------------------------------------------------------------------------------
// The code and the tests, read once

export interface SourceFile {
  file: string
  text: string
}

function filesUnder(root: string, dir: string, extensions: RegExp): string[] {
  const full = join(root, dir)
  if (!existsSync(full)) return []
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(root, path, extensions)
    return extensions.test(entry.name) ? [path] : []
  })
}

/** The files that make the product: code, locale texts, the page shell and the static files' manifest. */
const SOURCE_DIRS = ['domain', 'machines', 'src', 'server', 'public']
/** This check's own files name every item without implementing or testing it. */
const SELF = new Set([
  'scripts/spec-coverage.ts',
  'scripts/spec-coverage-items.ts',
  'scripts/spec-coverage-rules.ts',
  'tests/docs/spec-coverage.test.ts',
])

export interface Sources {
  code: SourceFile[]
  tests: SourceFile[]
}

export function readSources(root: string): Sources {
  const read = (file: string) => ({ file, text: readFileSync(join(root, file), 'utf8') })
  const code = [
    ...SOURCE_DIRS.flatMap((dir) => filesUnder(root, dir, /\.(ts|tsx|json|webmanifest)$/)),
    ...(existsSync(join(root, 'index.html')) ? ['index.html'] : []),
  ]
    .filter((file) => !file.endsWith('route-tree.gen.ts'))
    .map(read)
  const tests = [...filesUnder(root, 'tests', /\.(ts|tsx)$/), ...filesUnder(root, 'e2e', /\.(ts|tsx)$/)]
    .filter((file) => !SELF.has(file))
    .map(read)
  return { code, tests }
}

const isTestFile = (file: string) => /\.(test|spec)\.tsx?$/.test(file)

/**
 * A list of files shown by its first few, with every file that qualified (`all`). The document may name any of
 * them: a new test that also names an item, sorting before the ones shown, does not make the table stale (it did,
 * and a red CI kept four sessions' work off main). Every file named must still qualify, and a list never empties.
 */
export type Shown = string[] & { all?: readonly string[] }

export function firstFew(files: readonly string[], max: number): Shown {
  return Object.assign(files.slice(0, max), { all: [...files] })
}

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A generated part as text, and as a pattern that also accepts the document's own choice among a list's
 * candidates (see Shown): the check compares with the pattern, a rewrite keeps a line the pattern accepts.
 */
export class Rendered {
  text = ''
  source = ''
  lit(text: string): this {
    this.text += text
    this.source += escapeForPattern(text)
    return this
  }
  list(files: Shown | readonly string[], format: (file: string) => string): this {
    const shown = files.map(format).join(', ')
    this.text += shown
    const all = (files as Shown).all
    if (all && files.length > 0) {
      const one = `(?:${all.map((file) => escapeForPattern(format(file))).join('|')})`
      this.source += `${one}(?:, ${one})*`
    } else this.source += escapeForPattern(shown)
    return this
  }
  add(other: Rendered): this {
    this.text += other.text
    this.source += other.source
    return this
  }
  get pattern(): RegExp {
    return new RegExp(`^${this.source}$`)
  }
}

/** Lines joined by newlines, as one Rendered. */
export function joinLines(lines: readonly (Rendered | string)[]): Rendered {
  const out = new Rendered()
  lines.forEach((line, i) => {
    if (i > 0) out.lit('\n')
    if (typeof line === 'string') out.lit(line)
    else out.add(line)
  })
  return out
}

/** The test files (helpers only when no test file matches) that match, at most `max` shown, in a stable order. */
function testsMatching(tests: readonly SourceFile[], matches: (text: string) => boolean, max = 2): Shown {
  const found = tests.filter((t) => matches(t.text)).map((t) => t.file)
  const files = found.some(isTestFile) ? found.filter(isTestFile) : found
  return firstFew(
    files.sort(
      (a, b) => Number(b.startsWith('tests/')) - Number(a.startsWith('tests/')) || a.localeCompare(b),
    ),
    max,
  )
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// ---------------------------------------------------------------------------------------------------------------
// The spec's sections and sentences

/** Section `n` of the spec, from its heading to the next section's. */
export function specSection(spec: string, n: number): string {
  const from = spec.indexOf(`\n## ${n}. `)
  const to = spec.indexOf(`\n## ${n + 1}. `, from + 1)
  return from < 0 ? '' : spec.slice(from + 1, to < 0 ? undefined : to)
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim()

/**
 * The sentences of a part of the spec that says things in prose: each bullet and paragraph split at its sentence
 * ends, each table row's first cell (the other tables, status codes and routing, are read as data). A line that
 * only introduces a list ("Cookies:") is not a sentence.
 */
export function sentencesOf(part: string, tableRows: 'first cell' | 'skip'): string[] {
  const sentences: string[] = []
  for (const raw of part.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    if (line.startsWith('|')) {
      if (tableRows === 'skip' || /^\|[\s|:-]+\|$/.test(line)) continue
      sentences.push(squash(line.split('|')[1] ?? ''))
      continue
    }
    const text = line.replace(/^- /, '')
    for (const sentence of text.split(/(?<=[.)])\s+(?=[A-Z'])/)) {
      const clean = squash(sentence)
      if (clean && !clean.endsWith(':')) sentences.push(clean)
    }
  }
  // Table headers ("Situation") are not sentences.
  return sentences.filter((s) => s !== 'Situation')
}

// ---------------------------------------------------------------------------------------------------------------
// Rows: what every table of the document shows

export interface Row {
  /** The spec item, as the table shows it. */
  item: string
  /** Where the code defines or does it (file: detail), or why there is nothing to build. */
  impl: string[]
  tests: string[]
  /** Not built yet (said in the row); the check expects it in the known list instead of failing. */
  notBuilt?: string
  /** Said instead of "not built yet" for an item built but not tested. */
  label?: string
  /** The spec states nothing to build here. */
  nothing?: string
  /** What is wrong with the row, when something is (no definition, no test, a recorded string missing). */
  problem?: string
}

const code = (text: string) => `\`${text.replaceAll('|', '\\|').replaceAll('`', "'")}\``
const cell = (text: string) => text.replaceAll('|', '\\|')

export function renderRows(header: readonly string[], rows: readonly Row[]): (Rendered | string)[] {
  const lines = rows.map((r) => {
    const line = new Rendered().lit(`| ${cell(r.item)} | `)
    if (r.nothing) line.lit(`nothing to build: ${cell(r.nothing)}`)
    else if (r.impl.length) line.list(r.impl, code)
    else line.lit(r.notBuilt ? `**${r.label ?? 'not built yet'}**: ${cell(r.notBuilt)}` : '**missing**')
    if (r.notBuilt && r.impl.length) line.lit(` (**${r.label ?? 'not built yet'}**: ${cell(r.notBuilt)})`)
    line.lit(' | ')
    if (r.nothing) line.lit('-')
    else if (r.tests.length) line.list(r.tests, code)
    else line.lit(r.notBuilt && r.impl.length === 0 ? '-' : '**none**')
    return line.lit(' |')
  })
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...lines]
}

// ---------------------------------------------------------------------------------------------------------------
// Section 3: the entities' fields

export interface EntityField {
  entity: string
  /** As the spec writes it: `availableLoanAmount{amount}`, `info.mobilePhone.number`. */
  field: string
  /** The names the code gives it, for an entity read by hand (scripts/spec-coverage-rules.ts `entityFields`). */
  keys?: readonly string[]
  /** A hand-read field whose words are no longer in the spec. */
  missing?: boolean
}

/** Identifier-like words of a spec fragment, with their braces (`term{value,unit}`). */
const FIELD_TOKEN = /[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*(?:\{[\w,]+\})?/g

/** The fields of each `**Entity**:` of section 3, in the spec's order; English words are not fields. */
export function specFields(spec: string): EntityField[] {
  const section = specSection(spec, 3)
  const fields: EntityField[] = []
  // "**Client**: ...", "**Geo**: ...", "**Flow route**: step and status." An entity runs to the next one.
  const parts = section.split(/\*\*([^*]+)\*\*:?/)
  for (let i = 1; i < parts.length; i += 2) {
    const entity = parts[i]!.trim()
    const byHand = entityFields[entity]
    if (byHand) {
      for (const [words, ...keys] of byHand)
        fields.push({ entity, field: words, keys, missing: !squash(parts[i + 1] ?? '').includes(words) })
      continue
    }
    // Lists whose fields the spec does not show ("**Referral**, **Documents** (type, name), ...").
    const text = parts[i + 1] ?? ''
    for (const m of text.matchAll(FIELD_TOKEN)) {
      const field = m[0]
      if (notFieldWords.has(field) || /^\d/.test(field)) continue
      if (!fields.some((f) => f.entity === entity && f.field === field)) fields.push({ entity, field })
    }
  }
  return fields
}

/** The names a field is looked up by: each segment of a dotted path, the head of a braced one and its members. */
function fieldKeys(field: string): string[] {
  const [head, members] = field.split('{')
  return [...head!.split('.'), ...(members ? members.replace('}', '').split(',') : [])]
}

/** A key of a schema, type or object (`name:`, `name?:`, `'name'`, `.name`), or a path segment of a call (`/name`). */
const keyPattern = (key: string) =>
  new RegExp(
    `(?<![\\w$])${escapeRegExp(key)}\\??\\s*:|['"\`]${escapeRegExp(key)}['"\`]|[./]${escapeRegExp(key)}(?![\\w$-])`,
  )

export function fieldRows(fields: readonly EntityField[], sources: Sources): Row[] {
  const byFile = new Map(sources.code.map((s) => [s.file, s.text]))
  const searchOrder = (entity: string) => [
    ...(entityHomes[entity] ?? []),
    ...sources.code.filter((s) => s.file.startsWith('domain/contract/')).map((s) => s.file),
    // Code, not texts: a locale's label for a value is not a schema that carries it.
    ...sources.code
      .filter((s) => !s.file.startsWith('domain/contract/') && /\.tsx?$/.test(s.file))
      .map((s) => s.file),
  ]
  return fields.map(({ entity, field, keys: byHand, missing }) => {
    const alias = fieldAliases[`${entity}.${field}`]
    const keys = byHand ?? (alias ? [alias] : fieldKeys(field))
    const patterns = keys.map(keyPattern)
    const carrier = searchOrder(entity).find((file) => {
      const text = byFile.get(file)
      return text !== undefined && patterns.every((p) => p.test(text))
    })
    // A test names the field by its most telling name (`mobilePhone` of `info.mobilePhone.number`).
    // A hand-read field by the code's name for it (`SSS`).
    const telling = byHand ? keys[0]! : [...keys].sort((a, b) => b.length - a.length)[0]!
    const named = new RegExp(`(?<![\\w$-])${escapeRegExp(telling)}(?![\\w$-])`)
    const recorded = fieldTests[`${entity}.${field}`]
    const tests = recorded ? [recorded[0]] : testsMatching(sources.tests, (text) => named.test(text))
    const row: Row = {
      item: `${entity}: ${field}${alias ? ` (as ${alias})` : ''}${
        fieldNotes[`${entity}.${field}`] ? ` (${fieldNotes[`${entity}.${field}`]})` : ''
      }`,
      impl: carrier ? [carrier] : [],
      tests,
    }
    if (missing) row.problem = 'not the spec’s words (scripts/spec-coverage-rules.ts entityFields)'
    else if (recorded && !fileHas(sources, recorded))
      row.problem = `${recorded[0]} lacks ${JSON.stringify(recorded[1])}`
    else if (!carrier) row.problem = 'no schema or type carries it'
    else if (tests.length === 0) row.problem = 'no test names it'
    return row
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Section 4: the status codes; section 2: the flow steps

export interface StatusCode {
  table: 'Client status' | 'Application status' | 'Loan status'
  name: string
  code: number
}

export function specStatuses(spec: string): StatusCode[] {
  const section = specSection(spec, 4)
  const statuses: StatusCode[] = []
  let table: StatusCode['table'] | null = null
  for (const line of section.split('\n')) {
    const header = /^\| (Client status|Application status|Loan status) \| Code \|/.exec(line)
    if (header) {
      table = header[1] as StatusCode['table']
      continue
    }
    const row = /^\| ([a-z ]+) \| (\d+) \|/.exec(line)
    if (row && table) statuses.push({ table, name: row[1]!.trim(), code: Number(row[2]) })
    else if (!line.startsWith('|')) table = null
  }
  return statuses
}

const definitions: Record<
  StatusCode['table'],
  { file: string; name: string; codes: Record<string, number> }
> = {
  'Client status': { file: 'domain/journey/routing.ts', name: 'clientStatus', codes: clientStatus },
  'Application status': {
    file: 'domain/offer-decision.ts',
    name: 'applicationStatus',
    codes: applicationStatus,
  },
  'Loan status': {
    file: 'domain/loan/loan-lifecycle.machine.ts',
    name: 'loanStatusCode',
    codes: loanStatusCode,
  },
}

const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '')

export function statusRows(statuses: readonly StatusCode[], sources: Sources): Row[] {
  return statuses.map((status) => {
    const definition = definitions[status.table]
    const key = Object.keys(definition.codes).find((k) => letters(k) === letters(status.name))
    const item = `${status.table.toLowerCase()} ${status.name} (${status.code})`
    const row: Row = { item, impl: [], tests: [] }
    if (!key || definition.codes[key] !== status.code) {
      row.problem = key ? `defined as ${definition.codes[key]}` : 'not defined'
      return row
    }
    const uses = [definition.name, ...(statusAliases[definition.name] ?? [])].map((name) => `${name}.${key}`)
    const users = sources.code
      .filter((s) => uses.some((use) => s.text.includes(use)))
      .map((s) => s.file)
      .filter((file) => file !== definition.file)
    const defined = `${definition.file}: ${definition.name}.${key}`
    row.impl = Object.assign([defined, ...users.slice(0, 2)], { all: [defined, ...users] })
    const recorded = statusTests[item]
    row.tests = recorded
      ? [recorded[0]]
      : testsMatching(sources.tests, (text) => uses.some((use) => text.includes(use)))
    const known = statusNotBuilt[item]
    if (known) row.notBuilt = known
    if (recorded && !fileHas(sources, recorded))
      row.problem = `${recorded[0]} lacks ${JSON.stringify(recorded[1])}`
    else if (known) row.problem = 'not built yet'
    else if (row.tests.length === 0) row.problem = 'no test names it'
    return row
  })
}

/** The flow steps of section 2's routing table (`offer_increase / offer_decrease` are two). */
export function specFlowSteps(spec: string): string[] {
  const section = specSection(spec, 2)
  const from = section.indexOf('| Flow step |')
  const steps: string[] = []
  for (const line of section.slice(from).split('\n').slice(2)) {
    if (!line.startsWith('|')) break
    for (const step of line.split('|')[1]!.split('/')) steps.push(step.trim())
  }
  return steps
}

function describeDestination(step: string): string {
  const destination = stepMeta(step as (typeof flowSteps)[number]).destination
  if ('page' in destination) return destination.page
  if ('external' in destination) return `external ${destination.external}`
  return `${destination.when} ? ${destination.yes} : ${destination.no}`
}

export function flowStepRows(steps: readonly string[], sources: Sources): Row[] {
  return steps.map((step) => {
    const known = (flowSteps as readonly string[]).includes(step)
    const quoted = new RegExp(`['"\`]${escapeRegExp(step)}['"\`]`)
    const tests = testsMatching(sources.tests, (text) => quoted.test(text))
    const row: Row = {
      item: step,
      impl: known
        ? [`domain/journey/client-journey.machine.ts: ${step} -> ${describeDestination(step)}`]
        : [],
      tests,
    }
    const notBuilt = flowStepNotBuilt[step]
    if (notBuilt) row.notBuilt = notBuilt
    if (!known) row.problem = 'not a step of the journey'
    else if (notBuilt) row.problem = 'not built yet'
    else if (tests.length === 0) row.problem = 'no test names it'
    return row
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Section 8: the validation message selectors

export function specSelectors(spec: string): string[] {
  const line = /Validation message selectors: ([^.]+)\./.exec(specSection(spec, 8))?.[1] ?? ''
  return line
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

export function selectorRows(selectors: readonly string[], sources: Sources): Row[] {
  return selectors.map((selector) => {
    const quoted = new RegExp(`['"\`]${escapeRegExp(selector)}['"\`]`)
    const texts = sources.code.filter((s) => s.file.endsWith('.json') && s.text.includes(`"${selector}"`))
    const users = sources.code.filter((s) => !s.file.endsWith('.json') && quoted.test(s.text))
    const tests = testsMatching(sources.tests, (text) => text.includes(selector))
    const row: Row = {
      item: selector,
      impl: Object.assign(
        [...users.slice(0, 2).map((s) => s.file), ...texts.slice(0, 1).map((s) => `${s.file} (text)`)],
        { all: [...users.map((s) => s.file), ...texts.map((s) => `${s.file} (text)`)] },
      ),
      tests,
    }
    if (users.length === 0) row.problem = 'no code gives it'
    else if (texts.length === 0) row.problem = 'no locale text'
    else if (tests.length === 0) row.problem = 'no test names it'
    return row
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Section 5: the server rules the spec names without their conditions

/** The names of "Rule names without local logic: ..." ("promo rules" is no name: it is an entry of the rules). */
export function specRuleNames(spec: string): string[] {
  const line = /Rule names without local logic: ([^.]+)\./.exec(specSection(spec, 5))?.[1] ?? ''
  return line
    .split(',')
    .map((s) => s.trim())
    .filter((name) => /^\w+$/.test(name))
}

export function ruleNameRows(names: readonly string[], sources: Sources): Row[] {
  return names.map((name) => {
    // The code gives the name as a code (`'bankAccountInvalid'`) or as the key of its message (`incorrectPhone:`).
    const given = keyPattern(name)
    const word = new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`)
    const users = sources.code.filter((s) => /\.tsx?$/.test(s.file) && given.test(s.text))
    const tests = testsMatching(sources.tests, (text) => word.test(text))
    const row: Row = {
      item: name,
      impl: firstFew(
        users.map((s) => s.file),
        2,
      ),
      tests,
    }
    if (users.length === 0) row.problem = 'no code gives it'
    else if (tests.length === 0) row.problem = 'no test names it'
    return row
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Sections 4, 5, 6, 8 and 9 in prose: the hand-made map, checked

function fileHas(sources: Sources, [file, has]: Evidence): boolean {
  const text =
    sources.code.find((s) => s.file === file)?.text ??
    sources.tests.find((s) => s.file === file)?.text ??
    (file && existsSync(join(ROOT_DIR, file)) ? readFileSync(join(ROOT_DIR, file), 'utf8') : undefined)
  return text?.includes(has) ?? false
}

let ROOT_DIR = '.'

/** Whether a `notBuilt` entry's own evidence says it is still not built (true when it records none). */
export function stillPending(
  sources: Sources,
  entry: Pick<RuleEntry, 'pendingWhile' | 'pendingUntil'>,
): boolean {
  if (entry.pendingWhile && !fileHas(sources, entry.pendingWhile)) return false
  if (entry.pendingUntil) {
    const [folder, has] = entry.pendingUntil
    const found = [...sources.code, ...sources.tests].some(
      (s) => s.file.startsWith(folder) && s.text.includes(has),
    )
    if (found) return false
  }
  return true
}

export function ruleRows(section: number, part: string | null, sources: Sources): Row[] {
  const normalized = part === null ? null : squash(part)
  return rules[section as keyof typeof rules].map((entry: RuleEntry) => {
    const row: Row = {
      item: entry.spec,
      impl: (entry.impl ?? []).map(([file, has]) => `${file}: ${has}`),
      tests: (entry.tests ?? []).map(([file]) => file),
    }
    if (entry.nothing) row.nothing = entry.nothing
    const pending = entry.notBuilt ?? entry.untested
    if (pending) row.notBuilt = pending
    if (entry.untested && !entry.notBuilt) row.label = 'no test yet'
    const broken = [...(entry.impl ?? []), ...(entry.tests ?? [])].filter((e) => !fileHas(sources, e))
    if (normalized !== null && !normalized.includes(squash(entry.spec))) row.problem = 'not the spec’s words'
    else if (broken.length)
      row.problem = broken.map(([file, has]) => `${file} lacks ${JSON.stringify(has)}`).join('; ')
    else if (entry.nothing) return row
    else if (pending && !stillPending(sources, entry))
      row.problem = `${entry.notBuilt ? 'built' : 'tested'} now? what showed it is gone: update its entry in scripts/spec-coverage-rules.ts`
    else if (entry.notBuilt) row.problem = 'not built yet'
    else if (entry.untested) row.problem = 'not tested yet'
    else if (!entry.impl?.length) row.problem = 'no implementation recorded'
    else if (!entry.tests?.length) row.problem = 'no test recorded'
    return row
  })
}

/** The sentences of a section no entry quotes. */
export function unquoted(section: number, part: string): string[] {
  const quotes = rules[section as keyof typeof rules].map((e) => squash(e.spec))
  return sentencesOf(part, section === 8 ? 'first cell' : 'skip').filter(
    (sentence) => !quotes.some((quote) => sentence.includes(quote) || quote.includes(sentence)),
  )
}

/** The prose of section 4 without its status tables; sections 5, 6, 8 and 9 whole. */
export function prosePart(spec: string, section: number): string {
  const text = specSection(spec, section)
  // Section 2: the route lists are the routes table, the routing table the flow steps table.
  if (section === 2) return text.replace(/^\/[^\n]*?\.(\s|$)/gm, '').replace(/^\|.*$/gm, '')
  if (section === 8) return text.replace(/^Validation message selectors:.*$/m, '')
  return text
}

// ---------------------------------------------------------------------------------------------------------------
// Everything, as tables and problems

export interface ItemParts {
  parts: Record<string, string>
  /** Each part's pattern: what the document may hold instead of the text (a list's other candidates). */
  patterns: Record<string, RegExp>
  /** Every row with something wrong, by name: `fields: Client: uuid: no test names it`. */
  problems: string[]
  /** The declared reason of each `...: not built yet` problem. */
  notes: Map<string, string>
  /** The tables made only from the spec (not made without it). */
  tables: Record<string, true>
  counts: Record<string, number>
}

const start = (name: string) => `<!-- ${name}:start (generated by scripts/spec-coverage.ts) -->`
const end = (name: string) => `<!-- ${name}:end -->`
const wrap = (name: string, lines: readonly (Rendered | string)[]) =>
  joinLines([start(name), '', ...lines, '', end(name)])

export const PROSE_SECTIONS = [2, 4, 5, 6, 8, 9] as const
const SPEC_TABLES = ['fields', 'statuses', 'flow-steps', 'server-rules', 'selectors']

export function itemParts(root: string, spec: string | null): ItemParts {
  ROOT_DIR = root
  const sources = readSources(root)
  const problems: string[] = []
  const notes = new Map<string, string>()
  const parts: Record<string, string> = {}
  const patterns: Record<string, RegExp> = {}
  const counts: Record<string, number> = {}
  const add = (name: string, header: readonly string[], rows: readonly Row[]) => {
    for (const r of rows) {
      if (!r.problem) continue
      const problem = `${name}: ${r.item}: ${r.problem}`
      problems.push(problem)
      if (r.notBuilt) notes.set(problem, r.notBuilt)
    }
    const rendered = wrap(name, renderRows(header, rows))
    parts[name] = rendered.text
    patterns[name] = rendered.pattern
    counts[name] = rows.length
  }
  if (spec) {
    add(
      'fields',
      ['Spec field (section 3)', 'Carried by (schema or type)', 'Tests that name it'],
      fieldRows(specFields(spec), sources),
    )
    add(
      'statuses',
      ['Spec status (section 4)', 'Defined in, and used by', 'Tests'],
      statusRows(specStatuses(spec), sources),
    )
    add(
      'flow-steps',
      ['Flow step (section 2 routing)', 'Journey step and destination', 'Tests that name it'],
      flowStepRows(specFlowSteps(spec), sources),
    )
    add(
      'server-rules',
      ['Server rule (section 5)', 'Given by', 'Tests that name it'],
      ruleNameRows(specRuleNames(spec), sources),
    )
    add(
      'selectors',
      ['Message selector (section 8)', 'Given by, and its text', 'Tests that name it'],
      selectorRows(specSelectors(spec), sources),
    )
  }
  for (const section of PROSE_SECTIONS) {
    const part = spec ? prosePart(spec, section) : null
    add(
      `rules-${section}`,
      [`Spec (section ${section})`, 'Implemented in', 'Tests'],
      ruleRows(section, part, sources),
    )
    if (part !== null)
      for (const sentence of unquoted(section, part))
        problems.push(`rules-${section}: "${sentence}": no entry in scripts/spec-coverage-rules.ts`)
  }
  const tables = Object.fromEntries(SPEC_TABLES.map((name) => [name, true as const]))
  return { parts, patterns, problems, notes, tables, counts }
}

export const relativeTo = (root: string, file: string) => relative(root, file)
