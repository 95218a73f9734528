import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  markDomainValuesPure,
  stripContractDocs,
  stripDescriptions,
} from '../../scripts/vite-strip-descriptions'

describe('the production build drops statechart descriptions', () => {
  it('removes description properties with string values, and their commas', () => {
    const code = [
      'const m = createMachine({',
      "  description: 'top',",
      '  states: {',
      "    a: { description: `one`, on: { GO: 'b' } },",
      "    b: { description: 'two ' + 'parts', meta: { page: 'x' } },",
      '  },',
      '})',
    ].join('\n')
    const out = stripDescriptions(code)
    expect(out).not.toContain('description')
    expect(out).toContain("on: { GO: 'b' }")
    expect(out).toContain("meta: { page: 'x' }")
  })

  it('keeps anything that is not a plain string, and the word inside other strings', () => {
    const code = "const x = { description: describe(), label: 'a description: here' }"
    expect(stripDescriptions(code)).toBe(code)
  })

  it('leaves a real machine module valid and without descriptions', async () => {
    const path = 'machines/flow-sync.machine.ts'
    const source = readFileSync(path, 'utf8')
    expect(source).toContain('description:')
    const out = stripDescriptions(source, path)
    expect(out).not.toMatch(/\bdescription:\s*['`"]/)
    const ts = await import('typescript')
    const parsed = ts.createSourceFile(path, out, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
    expect((parsed as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([])
  })
})

describe('the production build drops what only the server reads from the contracts', () => {
  it('keeps only what the caller reads (method, path, bodyType, answer, paginated) in defineContract calls', () => {
    const code = [
      'const summary = 1',
      'export const a = defineContract({',
      "  method: 'get',",
      "  path: '/public/x/:id',",
      "  summary: 'A thing',",
      "  tags: ['x'],",
      '  params: v.object({ id: v.string() }),',
      "  bodyType: 'multipart',",
      '  response: answerSchema,',
      '})',
      "const other = { summary: 'kept', response: 1 }",
    ].join('\n')
    const out = stripContractDocs(code)
    expect(out).not.toContain("'A thing'")
    expect(out).not.toContain('answerSchema')
    expect(out).not.toContain("tags: ['x']")
    expect(out).toContain("path: '/public/x/:id'")
    expect(out).not.toContain('params:')
    expect(out).toContain("bodyType: 'multipart'")
    expect(out).toContain("{ summary: 'kept', response: 1 }")
  })

  it('leaves a real contract module valid TypeScript with its paths', async () => {
    const source = readFileSync('domain/contract/pricing.ts', 'utf8')
    const out = stripContractDocs(source)
    expect(out).not.toContain('summary:')
    expect(out).toContain("path: '/public/arithmetic/offer/stl/:sequence_type/:amount/:term'")
    const ts = (await import('typescript')).default
    const diagnostics = ts.transpileModule(out, { reportDiagnostics: true }).diagnostics ?? []
    expect(diagnostics).toEqual([])
  })
})

describe('the production build marks the values of domain modules pure', () => {
  it('wraps module-level const values in a pure call, leaving functions, literals and inner code alone', () => {
    const code = [
      'export const schema = v.object({ ...other.entries })',
      'export const limit = 5',
      'export const check = (x: number) => x > 1',
      'function f() {',
      '  const inner = g()',
      '  return inner',
      '}',
      'let counter = start()',
    ].join('\n')
    const out = markDomainValuesPure(code)
    expect(out).toContain('export const schema = /* @__PURE__ */ (() => (v.object({ ...other.entries })))()')
    expect(out).toContain('export const limit = 5')
    expect(out).toContain('export const check = (x: number) => x > 1')
    expect(out).toContain('  const inner = g()')
    expect(out).toContain('let counter = start()')
  })
})
