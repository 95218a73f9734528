/**
 * The order test files start in: the slowest first (tests/support/test-durations.json, refreshed with
 * scripts/test-durations.ts), then vitest's own order. On a fresh clone vitest knows no timings and starts the
 * largest files first, so a 50 s file could start last and run alone while the other worker idles.
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import durations from './test-durations.json'

const seconds = durations as Record<string, number>

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = (file: TestSpecification) => seconds[relative(file.project.config.root, file.moduleId)] ?? 0
    // Array sort is stable: files without a timing keep vitest's order after the known slow ones.
    return (await super.sort(files)).sort((a, b) => known(b) - known(a))
  }
}
