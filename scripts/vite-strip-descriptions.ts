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
  return applyEdits(code, [...cuts.map(([start, end]): Edit => [start, end, '']), ...pureValueEdits(source)])
}

type Edit = [start: number, end: number, text: string]

function applyEdits(code: string, edits: Edit[]): string {
  let out = code
  // From the end backwards; where two edits share a position, the later one in the text goes first.
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]))
    out = out.slice(0, start) + text + out.slice(end)
  return out
}

/**
 * Each module-level `const` of a domain module becomes a pure call: `const x = (() => (init))()` annotated
 * `@__PURE__`.
 * domain/ is pure by rule (ADR 0022), but a bundler cannot know that `safeString()` or
 * `v.object({ ...other.entries })` has no side effect, so it keeps every schema of every domain module the
 * browser imports, used or not. An unused pure call is dropped whole; a used one runs exactly as before.
 */
function pureValueEdits(source: ts.SourceFile): Edit[] {
  const edits: Edit[] = []
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer
      if (!init || ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isLiteralExpression(init))
        continue
      edits.push([init.getStart(source), init.getStart(source), '/* @__PURE__ */ (() => ('])
      edits.push([init.getEnd(), init.getEnd(), '))()'])
    }
  }
  return edits
}

/** A domain module with its module-level values marked pure (see pureValueEdits). */
export function markDomainValuesPure(code: string, fileName = 'x.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  return applyEdits(code, pureValueEdits(source))
}

/**
 * The browser build of domain/: contracts keep only what the caller reads, and every domain module's values are
 * marked pure so the schemas no page uses stay out of the bundle (docs/decisions/0023-one-contract.md).
 */
export function stripContractDocsPlugin(): Plugin {
  return {
    name: 'hiram-strip-contract-docs',
    apply: 'build',
    transform(code, id) {
      const path = id.split('?')[0] ?? ''
      if (!/[\\/]domain[\\/].+\.ts$/.test(path) || path.includes('node_modules')) return null
      if (/\.machine\.ts$/.test(path)) return null
      const isContract = /[\\/]domain[\\/]contract[\\/][^\\/]+\.ts$/.test(path)
      const out = isContract ? stripContractDocs(code, id) : markDomainValuesPure(code, id)
      return out === code ? null : { code: out, map: null }
    },
  }
}
