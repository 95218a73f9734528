/**
 * Statechart descriptions are documentation: the diagrams in docs/statecharts/ and the model-based test names
 * read them, the running app never does. A production build drops them from every `*.machine.ts` module, so the
 * explanations an analyst needs cost the borrower's phone nothing (about 1 KB gzipped on the home route, whose
 * JavaScript has a 170 KB budget). Only `description` properties whose value is a plain string are removed; the
 * TypeScript parser finds them, so a string that merely contains the word is untouched. Development builds and
 * tests keep them.
 */
import ts from 'typescript'
import type { Plugin } from 'vite'

function isPlainString(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true
  if (ts.isParenthesizedExpression(node)) return isPlainString(node.expression)
  return (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
    isPlainString(node.left) &&
    isPlainString(node.right)
  )
}

/** The source with every `description: '<string>'` property (and its trailing comma) cut out. */
export function stripDescriptions(code: string, fileName = 'x.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const cuts: [number, number][] = []
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      node.name.text === 'description' &&
      isPlainString(node.initializer)
    ) {
      let end = node.getEnd()
      const rest = /^\s*,/.exec(code.slice(end))
      if (rest) end += rest[0].length
      cuts.push([node.getStart(source), end])
      return
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  let out = code
  for (const [start, end] of cuts.reverse()) out = out.slice(0, start) + out.slice(end)
  return out
}

export function stripMachineDescriptionsPlugin(): Plugin {
  return {
    name: 'hiram-strip-machine-descriptions',
    apply: 'build',
    transform(code, id) {
      if (!/\.machine\.ts$/.test(id.split('?')[0] ?? '')) return null
      const stripped = stripDescriptions(code, id)
      return stripped === code ? null : { code: stripped, map: null }
    },
  }
}
