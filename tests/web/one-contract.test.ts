/**
 * One client–server contract (issue 15, docs/decisions/0023-one-contract.md), checked from both ends:
 * - the browser writes no API path of its own: no string in src/ or machines/ names a /web, /private or
 *   /public path (comments are not code, and are not read);
 * - every route the server mounts implements a contract exported by domain/contract/, each contract exactly
 *   once, and no contract is left without a route;
 * - the wire types are defined once (a second interface, type or class of the same name anywhere in the tree
 *   is a copy that can drift).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import type { AnyContract } from '../../domain/contract/define'
import { allRoutes } from '../../server/http/routes'

const root = resolve(import.meta.dirname, '../..')

function sourceFiles(dir: string): string[] {
  const found: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path))
    else if (/\.tsx?$/.test(name) && !name.endsWith('.gen.ts')) found.push(path)
  }
  return found
}

const parse = (file: string) =>
  ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )

/** The text of every string and template literal (its literal parts) in a file. */
function literalsOf(file: string): { text: string; line: number }[] {
  const source = parse(file)
  const found: { text: string; line: number }[] = []
  const visit = (node: ts.Node) => {
    const line = () => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      found.push({ text: node.text, line: line() })
    else if (ts.isTemplateExpression(node)) found.push({ text: node.head.text, line: line() })
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** A path of the API: what only domain/contract/ may write. */
const API_PATH = /^\/(web|private|public)\//

describe('the browser writes no API path of its own', () => {
  it('finds the pattern where it is', () => {
    expect(API_PATH.test('/private/client/flow')).toBe(true)
    expect(API_PATH.test('/web/openapi.json')).toBe(true)
    expect(API_PATH.test('/public/arithmetic/offer/stl/first')).toBe(true)
    expect(API_PATH.test('/profile/my-loan')).toBe(false)
    const inContract = literalsOf(join(root, 'domain/contract/pricing.ts')).filter((l) =>
      API_PATH.test(l.text),
    )
    expect(inContract.length).toBeGreaterThan(3)
  })

  it('no string in src/ or machines/ is a /web, /private or /public path', () => {
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'machines'))]
    expect(files.length).toBeGreaterThan(50)
    const offenders = files.flatMap((file) =>
      literalsOf(file)
        .filter((literal) => API_PATH.test(literal.text))
        .map((literal) => `${relative(root, file)}:${literal.line} ${literal.text}`),
    )
    expect(offenders).toEqual([])
  })
})

async function contractsOfDomain(): Promise<Map<AnyContract, string>> {
  const dir = join(root, 'domain/contract')
  const contracts = new Map<AnyContract, string>()
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const module = (await import(join(dir, name))) as Record<string, unknown>
    for (const [exported, value] of Object.entries(module)) {
      const candidate = value as Partial<AnyContract> | null
      if (
        candidate &&
        typeof candidate === 'object' &&
        typeof candidate.path === 'string' &&
        candidate.method
      )
        contracts.set(value as AnyContract, `${name.replace(/\.ts$/, '')}.${exported}`)
    }
  }
  return contracts
}

describe('the server implements the contracts, each once', () => {
  it('every mounted route is a contract of domain/contract/, and every contract is mounted exactly once', async () => {
    const contracts = await contractsOfDomain()
    expect(contracts.size).toBeGreaterThan(50)
    const notFromDomain = allRoutes
      .filter((route) => !contracts.has(route.contract))
      .map((route) => `${route.contract.method.toUpperCase()} ${route.contract.path}`)
    expect(notFromDomain).toEqual([])
    const times = new Map<AnyContract, number>()
    for (const route of allRoutes) times.set(route.contract, (times.get(route.contract) ?? 0) + 1)
    const unmounted = [...contracts].filter(([contract]) => !times.has(contract)).map(([, name]) => name)
    expect(unmounted).toEqual([])
    expect([...times].filter(([, n]) => n > 1).map(([c]) => contracts.get(c))).toEqual([])
    const operations = allRoutes.map((r) => `${r.contract.method} ${r.contract.path}`)
    expect(new Set(operations).size).toBe(operations.length)
  })

  it('every answer has a schema (the OpenAPI document describes it), or is a file', async () => {
    const contracts = await contractsOfDomain()
    const undescribed = [...contracts]
      .filter(([contract]) => contract.answer !== 'binary')
      .filter(([contract]) => !contract.response || 'typed' in contract.response)
      .map(([, name]) => name)
    // An answer typed without a schema (typed<T>()) is a gap in the OpenAPI document: none is left.
    expect(undescribed).toEqual([])
  })
})

/** Where each wire type is defined: the one place, found by its declaration anywhere in the tree. */
const wireTypes: Record<string, string> = {
  Violation: 'domain/contract/wire.ts',
  Envelope: 'domain/contract/wire.ts',
  ApiFailure: 'domain/contract/wire.ts',
  ApiError: 'src/api/client.ts',
  PricedOffer: 'domain/contract/pricing-answers.ts',
  OfferRequest: 'domain/contract/pricing.ts',
  PromoAnswer: 'domain/contract/pricing-answers.ts',
  ClientView: 'domain/contract/identity-answers.ts',
  ClientFacts: 'domain/journey/routing.ts',
  CreateApplicationBody: 'domain/contract/lending.ts',
}

describe('each wire type is defined once', () => {
  const dirs = ['domain', 'machines', 'src', 'server']
  const declarations = new Map<string, string[]>()
  for (const file of dirs.flatMap((dir) => sourceFiles(join(root, dir)))) {
    const visit = (node: ts.Node) => {
      if (
        (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node)) &&
        node.name &&
        node.name.text in wireTypes
      ) {
        const list = declarations.get(node.name.text) ?? []
        list.push(relative(root, file))
        declarations.set(node.name.text, list)
      }
      ts.forEachChild(node, visit)
    }
    visit(parse(file))
  }
  for (const [name, home] of Object.entries(wireTypes))
    it(`${name}: only in ${home}`, () => {
      expect(declarations.get(name)).toEqual([home])
    })
})
