/**
 * Issue 5: "No page decides the journey by calling navigate itself." The journey pages (registration,
 * application, my loan) and the journey feature may link (`<Link>`), but never navigate imperatively: after a
 * completing call they send FLOW.REFRESH to the journey actor and the route guards move the client.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const journeyFiles = [
  'src/routes/registration',
  'src/routes/application',
  'src/routes/profile/my-loan.tsx',
  'src/features/journey',
  'src/features/registration',
]

function filesUnder(relative: string): string[] {
  const absolute = path.join(root, relative)
  if (!statSync(absolute, { throwIfNoEntry: false })) return []
  if (statSync(absolute).isFile()) return [relative]
  return readdirSync(absolute).flatMap((name) => filesUnder(path.join(relative, name)))
}

const imperative = [/\buseNavigate\b/, /<Navigate\b/, /\bnavigate\s*\(/, /\.history\.(push|replace)\s*\(/]

describe('journey pages do not navigate by themselves', () => {
  const files = journeyFiles.flatMap(filesUnder).filter((f) => /\.(ts|tsx)$/.test(f))

  it('finds the journey pages', () => {
    expect(files.length).toBeGreaterThan(10)
  })

  it.each(files)('%s', (file) => {
    const source = readFileSync(path.join(root, file), 'utf8')
    const found = imperative.filter((pattern) => pattern.test(source)).map(String)
    expect(found, `${file} navigates imperatively`).toEqual([])
  })
})
