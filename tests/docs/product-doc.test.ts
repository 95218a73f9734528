/**
 * Comments cite the product spec by section number ("spec section 4, Sandbox", "spec sections 3, 4 and 7",
 * "(spec 9)"). The spec is not in the repository; docs/product.md is its in-repository version with the same
 * nine numbered sections. This test keeps the two in step: docs/product.md has exactly sections 1..9 with the
 * spec's titles, and every citation in the code names one of them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const scanned = ['domain', 'machines', 'src', 'server', 'scripts', 'tests', 'e2e']

/** The spec's section titles, in order. */
const specSections = [
  'What the product does and for whom',
  'Screens and routes',
  'Entities and their fields',
  'States and transitions',
  'Validation rules',
  'Roles and permissions',
  'The calls the product makes',
  'Error catalogue',
  'Business constants and limits',
]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Between two words of a citation: spaces, or a line break with the next comment line's `*` or `//`. */
const gap = String.raw`(?:[ \t]*\r?\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*|[ \t]+)`
/** A subsection named after a number: "3 Auth state, 4 Authentication", "4 (Calculator) and 5". */
const name = String.raw`(?:${gap}\([^()]*\)|(?:${gap}(?!(?:and|or)\b)[A-Za-z][\w'-]*){1,4}?)`
const separator = `(?:${gap}?,${gap}?(?:and${gap})?|${gap}(?:and|or)${gap})`
const numberList = String.raw`\d+(?:${name}?${separator}\d+)*`
const citationPatterns = [
  // spec section 4 / Spec sections 3, 4 and 7 / specification section 2, also across a comment's line break
  new RegExp(String.raw`\bspec(?:ification)?${gap}sections?${gap}(${numberList})`, 'gi'),
  // (spec 4) / (spec 4, Sandbox) / (spec 2, 5)
  new RegExp(String.raw`\(spec${gap}(${numberList})\b`, 'gi'),
]

/** The section numbers of a matched list, leaving out what a parenthesised subsection name holds. */
function sectionNumbers(list: string): number[] {
  return (list.replace(/\([^()]*\)/g, '').match(/\b\d+\b/g) ?? []).map(Number)
}

/** Every citation in one file's text: where it starts and the section numbers it names. */
function citationsIn(source: string) {
  return citationPatterns.flatMap((pattern) =>
    [...source.matchAll(pattern)].map((match) => ({
      index: match.index,
      text: match[0].replace(/\s+/g, ' '),
      sections: sectionNumbers(match[1] ?? ''),
    })),
  )
}

function citations() {
  return scanned.flatMap((dir) =>
    sourceFiles(join(root, dir)).flatMap((path) => {
      const source = readFileSync(path, 'utf8')
      return citationsIn(source).map(({ index, ...citation }) => ({
        ...citation,
        where: `${relative(root, path)}:${source.slice(0, index).split('\n').length}`,
      }))
    }),
  )
}

const doc = readFileSync(join(root, 'docs/product.md'), 'utf8')
const headings = [...doc.matchAll(/^## (\d+)\. (.+)$/gm)].map((m) => ({
  n: Number(m[1]),
  title: (m[2] ?? '').trim(),
}))

describe('docs/product.md, the spec the comments cite', () => {
  it('has exactly the spec sections 1..9, in order, with the spec titles', () => {
    expect(headings).toEqual(specSections.map((title, i) => ({ n: i + 1, title })))
  })

  it('reads the ways the code cites the spec', () => {
    const sections = (text: string) => citationsIn(text).map((c) => c.sections)
    expect(sections('/** Sandbox (spec section 4, Sandbox) and the cookie (Spec section 9). */')).toEqual([
      [4],
      [9],
    ])
    expect(sections('// spec sections 2, 3, 4 and 5; spec sections 3, 7')).toEqual([
      [2, 3, 4, 5],
      [3, 7],
    ])
    expect(sections(' * the lending configuration (spec\n * section 7). Then')).toEqual([[7]])
    expect(sections('(spec sections 3 Auth state, 4 Authentication, 6 Roles)')).toEqual([[3, 4, 6]])
    expect(sections('spec sections 4 (Calculator, Additional loan) and 5 (Calculator)')).toEqual([[4, 5]])
    expect(sections('spec sections 2 and 5 (docs/decisions/0011)')).toEqual([[2, 5]])
    expect(sections('the offer (spec 4, Calculator), the dates (spec 2, 5)')).toEqual([[4], [2, 5]])
    expect(sections('spec section 9: token refresh every 240000 ms')).toEqual([[9]])
  })

  it('has a section for every "spec section N" citation in the code', () => {
    const all = citations()
    // The patterns still match the way the code cites the spec (178 citations when this was written).
    expect(all.length).toBeGreaterThan(100)
    const sections = new Set(headings.map((h) => h.n))
    const dangling = all
      .filter((c) => c.sections.some((n) => !sections.has(n)))
      .map((c) => `${c.where}: ${c.text}`)
    expect(dangling).toEqual([])
  })
})
