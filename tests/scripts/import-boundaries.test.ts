/**
 * The layering (domain <- machines <- src; domain <- server; features apart) is checked by the linter in
 * `npm test` (biome.json `overrides`, docs/decisions/0022). This test plants forbidden imports in a scratch copy
 * of the layout, with the project's biome.json, and shows the lint fails on each one and passes the allowed ones.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const biome = join(root, 'node_modules/.bin/biome')

const planted: Record<string, { code: string; rule: 'noRestrictedImports' | 'noRestrictedGlobals' | null }> =
  {
    'domain/app.ts': { code: "import { a } from '../src/app/services'", rule: 'noRestrictedImports' },
    'domain/journey/server.ts': {
      code: "import { a } from '../../server/db/client'",
      rule: 'noRestrictedImports',
    },
    'domain/node.ts': { code: "import { readFileSync as a } from 'node:fs'", rule: 'noRestrictedImports' },
    'domain/react.ts': { code: "import { useState as a } from 'react'", rule: 'noRestrictedImports' },
    'machines/react.ts': { code: "import { useState as a } from 'react'", rule: 'noRestrictedImports' },
    'machines/http.ts': { code: "import { ofetch as a } from 'ofetch'", rule: 'noRestrictedImports' },
    'machines/app.ts': { code: "import { a } from '../src/app/services'", rule: 'noRestrictedImports' },
    'machines/fetch.ts': { code: "const a = () => fetch('/web/x')", rule: 'noRestrictedGlobals' },
    'src/app/server.ts': { code: "import { a } from '../../server/db/client'", rule: 'noRestrictedImports' },
    'src/app/drizzle.ts': { code: "import { eq as a } from 'drizzle-orm'", rule: 'noRestrictedImports' },
    'src/features/auth/server.ts': {
      code: "import { a } from '../../../server/env'",
      rule: 'noRestrictedImports',
    },
    'src/features/auth/other-feature.ts': {
      code: "import { a } from '../calculator/submit'",
      rule: 'noRestrictedImports',
    },
    'server/app.ts': { code: "import { a } from '../src/app/services'", rule: 'noRestrictedImports' },
    'server/machines.ts': {
      code: "import { a } from '../machines/auth.machine'",
      rule: 'noRestrictedImports',
    },
    'server/react.ts': { code: "import { useState as a } from 'react'", rule: 'noRestrictedImports' },
    'server/services/identity/http.ts': {
      code: "import { a } from '../../http/errors'",
      rule: 'noRestrictedImports',
    },
    'server/providers/http.ts': { code: "import { a } from '../http/context'", rule: 'noRestrictedImports' },
    'server/services/react.ts': {
      code: "import { useState as a } from 'react'",
      rule: 'noRestrictedImports',
    },
    // Allowed: the layers below, a feature's own files, shared UI.
    'machines/allowed.ts': {
      code: "import { a } from '../domain/money'\nimport { setup } from 'xstate'",
      rule: null,
    },
    'src/features/auth/allowed.ts': {
      code: "import { a } from './device'\nimport { b } from '../../ui/forms/code-request'\nimport { c } from '../../../domain/money'\nimport { d } from '../../../machines/auth.machine'",
      rule: null,
    },
    'server/services/allowed.ts': {
      code: "import { a } from '../../domain/errors'\nimport { b } from '../deps'\nimport { c } from '../db/client'",
      rule: null,
    },
    'server/allowed.ts': {
      code: "import { a } from '../domain/money'\nimport { Hono } from 'hono'",
      rule: null,
    },
  }

describe('import boundaries are enforced by the linter', () => {
  let dir = ''
  let findings = new Map<string, string[]>()

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hiram-boundaries-'))
    copyFileSync(join(root, 'biome.json'), join(dir, 'biome.json'))
    for (const [file, { code }] of Object.entries(planted)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true })
      writeFileSync(join(dir, file), `${code}\nexport const used = [a]\n`)
    }
    const run = spawnSync(biome, ['lint', '--max-diagnostics=200', '.'], { cwd: dir, encoding: 'utf8' })
    findings = new Map()
    for (const match of `${run.stdout}${run.stderr}`.matchAll(/^(\S+\.ts):\d+:\d+ lint\/\w+\/(\w+)/gm)) {
      const [, file, rule] = match as unknown as [string, string, string]
      findings.set(file, [...(findings.get(file) ?? []), rule])
    }
  }, 60_000)

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it.each(Object.entries(planted).filter(([, p]) => p.rule))('%s fails the lint', (file, { rule }) => {
    expect(findings.get(file) ?? []).toContain(rule)
  })

  it.each(Object.entries(planted).filter(([, p]) => !p.rule))('%s passes', (file) => {
    const boundary = (findings.get(file) ?? []).filter((r) => r.startsWith('noRestricted'))
    expect(boundary).toEqual([])
  })
})
