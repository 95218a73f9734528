/**
 * Vitest's configuration: vite.config.ts (its `test` block holds the settings) plus the file order, kept here so
 * `vite build` does not load vitest's node API (tests/support/sequencer.ts).
 */
import { defineConfig, mergeConfig } from 'vitest/config'
import SlowestFirstSequencer from './tests/support/sequencer'
import viteConfig from './vite.config'

export default mergeConfig(
  viteConfig,
  defineConfig({ test: { sequence: { sequencer: SlowestFirstSequencer } } }),
)
