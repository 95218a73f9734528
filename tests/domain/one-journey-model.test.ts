/**
 * Issue 14, "Done when" 1: the journey's step names appear as a list in exactly one source file, the model
 * (domain/journey/client-journey.machine.ts). Every other list (the client's routing table, the flow schema, the
 * 409 matrix, test walks, the diagram) derives from it.
 *
 * Every .ts/.tsx file under the source folders is parsed with the TypeScript compiler; a file fails when it holds
 * a list of 4 or more distinct step names (from the model's `flowSteps`) as:
 * - an array literal (string literals anywhere inside it, not descending into functions);
 * - an object literal (its keys, and its direct string values: a map from something to steps is a list too);
 * - a union of string literal types;
 * - the cases of one switch statement.
 * Generated files (src/route-tree.gen.ts, docs/) are not sources.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { flowSteps } from '../../domain/journey/client-journey.machine'

const root = join(import.meta.dirname, '../..')
const folders = ['domain', 'machines', 'src', 'server', 'scripts', 'tests', 'e2e']
const MODEL = 'domain/journey/client-journey.machine.ts'
const generated = new Set(['src/route-tree.gen.ts'])
const LIMIT = 4
const stepNames = new Set<string>(flowSteps)

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

const textOf = (node: ts.Node): string | null =>
  ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : null

function keyOf(name: ts.PropertyName): string | null {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text
  return null
}

/** Step names among the string literals inside `node`, not looking into nested functions. */
function stepsInside(node: ts.Node, found = new Set<string>()): Set<string> {
  const text = textOf(node)
  if (text !== null && stepNames.has(text)) found.add(text)
  if (ts.isFunctionLike(node)) return found
  node.forEachChild((child) => {
    stepsInside(child, found)
  })
  return found
}

interface StepList {
  file: string
  line: number
  kind: 'array' | 'object' | 'union' | 'switch'
  steps: string[]
}

function stepListsIn(file: string, source: string): StepList[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )
  const lists: StepList[] = []
  const report = (node: ts.Node, kind: StepList['kind'], steps: Set<string>) => {
    if (steps.size < LIMIT) return
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf))
    lists.push({ file, line: line + 1, kind, steps: [...steps] })
  }
  const visit = (node: ts.Node) => {
    if (ts.isArrayLiteralExpression(node)) {
      const steps = stepsInside(node)
      if (steps.size >= LIMIT) {
        report(node, 'array', steps)
        return // its inner lists are the same list
      }
    } else if (ts.isObjectLiteralExpression(node)) {
      const steps = new Set<string>()
      for (const property of node.properties) {
        if (!('name' in property) || !property.name) continue
        const key = keyOf(property.name as ts.PropertyName)
        if (key !== null && stepNames.has(key)) steps.add(key)
        if (ts.isPropertyAssignment(property)) {
          const value = textOf(property.initializer)
          if (value !== null && stepNames.has(value)) steps.add(value)
        }
      }
      report(node, 'object', steps)
    } else if (ts.isUnionTypeNode(node)) {
      const steps = new Set<string>()
      for (const type of node.types)
        if (
          ts.isLiteralTypeNode(type) &&
          ts.isStringLiteral(type.literal) &&
          stepNames.has(type.literal.text)
        )
          steps.add(type.literal.text)
      report(node, 'union', steps)
    } else if (ts.isSwitchStatement(node)) {
      const steps = new Set<string>()
      for (const clause of node.caseBlock.clauses) {
        const value = ts.isCaseClause(clause) ? textOf(clause.expression) : null
        if (value !== null && stepNames.has(value)) steps.add(value)
      }
      report(node, 'switch', steps)
    }
    node.forEachChild(visit)
  }
  visit(sf)
  return lists
}

describe('one journey model', () => {
  it('recognises the forms of a list it looks for (and leaves a short one alone)', () => {
    const [a, b, c, d] = flowSteps
    const q = (s: string | undefined) => `'${s}'`
    const found = stepListsIn(
      'example.ts',
      [
        `const order = [${[a, b, c, d].map(q).join(', ')}]`,
        `const table = [{ step: ${q(a)} }, { step: ${q(b)} }, { step: ${q(c)} }, { step: ${q(d)} }]`,
        `const pages = { ${a}: '/x', ${b}: '/y', ${c}: '/z', ${d}: '/w' }`,
        `type Step = ${[a, b, c, d].map(q).join(' | ')}`,
        `function f(s: string) { switch (s) { ${[a, b, c, d].map((s) => `case ${q(s)}: return 1`).join('; ')} } }`,
        `const few = [${[a, b, c].map(q).join(', ')}]`,
        `const spread = [() => ${q(a)}, () => ${q(b)}, () => ${q(c)}, () => ${q(d)}]`,
      ].join('\n'),
    )
    expect(found.map((l) => `${l.line} ${l.kind}`)).toEqual([
      '1 array',
      '2 array',
      '3 object',
      '4 union',
      '5 switch',
    ])
  })

  it(`the step names appear as a list only in ${MODEL}`, () => {
    const lists = folders
      .flatMap((folder) => sourceFiles(join(root, folder)))
      .map((path) => relative(root, path).split('\\').join('/'))
      .filter((file) => file !== MODEL && !generated.has(file))
      .flatMap((file) => stepListsIn(file, readFileSync(join(root, file), 'utf8')))
    expect(
      lists
        .map((l) => `${l.file}:${l.line} ${l.kind} of ${l.steps.length} steps (${l.steps.join(', ')})`)
        .join('\n'),
    ).toBe('')
  })

  it('the model itself holds the list (so the scan would see one)', () => {
    expect(stepListsIn(MODEL, readFileSync(join(root, MODEL), 'utf8')).length).toBeGreaterThan(0)
  })
})
