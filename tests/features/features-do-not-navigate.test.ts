/**
 * Issue 14 item 3: no file of src/features/ moves the user by itself. Routes come from machines: a page sends
 * events to an actor, the route guards (`beforeLoad`) read its snapshot and throw `redirect()`, and
 * src/app/machine-routing.ts re-runs them when a machine's answer changes. Pages may link (`<Link>`); they may
 * not navigate imperatively, redirect, or touch `window.location` / `history`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')

function filesUnder(relative: string): string[] {
  const absolute = path.join(root, relative)
  if (!statSync(absolute, { throwIfNoEntry: false })) return []
  if (statSync(absolute).isFile()) return [relative]
  return readdirSync(absolute).flatMap((name) => filesUnder(path.join(relative, name)))
}

/** Comments may talk about navigation; only code counts. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
}

const imperative: [string, RegExp][] = [
  ['useNavigate', /\buseNavigate\b/],
  ['<Navigate>', /<Navigate\b/],
  ['navigate(', /\bnavigate\s*\(/],
  ['router.navigate', /\brouter\s*\.\s*navigate\b/],
  ['redirect( from @tanstack/react-router', /\bredirect\s*\(/],
  ['importing redirect', /import\s*\{[^}]*\bredirect\b[^}]*\}\s*from\s*['"]@tanstack\/react-router['"]/],
  ['window.location assignment', /\b(window\.|document\.)?location\s*=(?!=)/],
  ['location.href assignment', /\blocation\s*\.\s*href\s*=(?!=)/],
  ['location.assign(', /\blocation\s*\.\s*assign\s*\(/],
  ['location.replace(', /\blocation\s*\.\s*replace\s*\(/],
  ['history.push/replace', /\bhistory\s*\.\s*(push|replace|pushState|replaceState)\s*\(/],
]

function navigationsIn(source: string): string[] {
  const code = withoutComments(source)
  return imperative.filter(([, pattern]) => pattern.test(code)).map(([name]) => name)
}

describe('src/features does not navigate by itself', () => {
  const files = filesUnder('src/features').filter((f) => /\.(ts|tsx)$/.test(f))

  it('finds every feature file', () => {
    expect(files.length).toBeGreaterThan(40)
  })

  it('catches each kind of imperative navigation', () => {
    const samples = [
      "const navigate = useNavigate(); navigate({ to: '/x' })",
      "return <Navigate to='/x' />",
      "void router.navigate({ to: '/x' })",
      "import { Link, redirect } from '@tanstack/react-router'",
      "throw redirect({ to: '/login' })",
      "window.location = '/x'",
      "window.location.href = 'https://example.ph'",
      "location.assign('/x')",
      "window.location.replace('/x')",
      "window.history.pushState({}, '', '/x')",
      "history.replace('/x')",
    ]
    for (const sample of samples) expect(navigationsIn(sample), sample).not.toEqual([])
    // Reading the location, comparing it, or a string's replace are fine.
    for (const fine of [
      'const here = window.location.pathname',
      "if (location.href === '/x') {}",
      "text.replace('a', 'b')",
      '// navigate( in a comment',
    ])
      expect(navigationsIn(fine), fine).toEqual([])
  })

  it.each(files)('%s', (file) => {
    const found = navigationsIn(readFileSync(path.join(root, file), 'utf8'))
    expect(found, `${file} navigates imperatively`).toEqual([])
  })
})

describe('route files and ui only redirect from their guards', () => {
  // A route's `beforeLoad` throws redirect() from a machine's snapshot: that is the mechanism, not a page.
  const guardsAllowed = new Set(['redirect( from @tanstack/react-router', 'importing redirect'])
  const files = [...filesUnder('src/routes'), ...filesUnder('src/ui')].filter((f) => /\.(ts|tsx)$/.test(f))

  it.each(files)('%s', (file) => {
    const found = navigationsIn(readFileSync(path.join(root, file), 'utf8')).filter(
      (n) => !guardsAllowed.has(n),
    )
    expect(found, `${file} navigates imperatively`).toEqual([])
  })
})
