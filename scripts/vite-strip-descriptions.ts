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

/**
 * What a contract carries for the server and the OpenAPI document only. The browser's caller reads a
 * contract's method, path, bodyType, answer and paginated, nothing else (src/api/client.ts `call`); the forms
 * import the body schemas they validate with directly.
 */
const SERVER_ONLY_CONTRACT_FIELDS = new Set([
  'summary',
  'tags',
  'access',
  'singleLink',
  'mfaPending',
  'params',
  'query',
  'body',
  'bodyLimit',
  'response',
])

/**
 * The source with the server-only fields of every `defineContract({ ... })` cut out: the browser builds URLs
 * and bodies from a contract's method and path, and its inputs and answers are typed at compile time, so the
 * documentation and the schemas (and whatever only they import) stay out of the bundle. Only properties of the
 * object literal passed to `defineContract` are touched.
 */
export function stripContractDocs(code: string, fileName = 'x.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const cuts: [number, number][] = []
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'defineContract' &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0])
    ) {
      for (const property of node.arguments[0].properties) {
        if (
          ts.isPropertyAssignment(property) &&
          (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) &&
          SERVER_ONLY_CONTRACT_FIELDS.has(property.name.text)
        ) {
          let end = property.getEnd()
          const rest = /^\s*,/.exec(code.slice(end))
          if (rest) end += rest[0].length
          cuts.push([property.getStart(source), end])
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  // A top-level value of a contract module (a schema, a contract) becomes a pure call: once the fields above
  // are cut, the schemas only they used are unused, and a bundler drops an unused pure call whole, where it
  // would keep a bare `v.object({ ...other.entries })` for fear of a getter.
  const edits: [number, number, string][] = cuts.map(([start, end]) => [start, end, ''])
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer
      if (!init || ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isLiteralExpression(init))
        continue
      edits.push([init.getStart(source), init.getStart(source), '/* @__PURE__ */ (() => ('])
      edits.push([init.getEnd(), init.getEnd(), '))()'])
    }
  }
  let out = code
  // From the end backwards; at one position a cut (the init's end coincides with no cut start) goes first.
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]))
    out = out.slice(0, start) + text + out.slice(end)
  return out
}

export function stripContractDocsPlugin(): Plugin {
  return {
    name: 'hiram-strip-contract-docs',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]domain[\\/]contract[\\/][^\\/]+\.ts$/.test(id.split('?')[0] ?? '')) return null
      const stripped = stripContractDocs(code, id)
      return stripped === code ? null : { code: stripped, map: null }
    },
  }
}
