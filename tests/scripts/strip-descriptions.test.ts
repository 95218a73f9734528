import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { stripDescriptions } from '../../scripts/vite-strip-descriptions'

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
