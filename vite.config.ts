import { availableParallelism } from 'node:os'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { clientRoutesPlugin } from './scripts/vite-client-routes'
import { stripContractDocsPlugin, stripMachineDescriptionsPlugin } from './scripts/vite-strip-descriptions'

const apiPort = Number(process.env.API_PORT ?? 3001)

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './src/routes',
      generatedRouteTree: './src/route-tree.gen.ts',
      quoteStyle: 'single',
      semicolons: false,
    }),
    react(),
    // dist/routes.json: the pages the server answers 200 for; any other path gets the 404 page with a 404.
    clientRoutesPlugin(),
    // Statechart descriptions are for the diagrams: the production bundle leaves them out.
    stripMachineDescriptionsPlugin(),
    // Contract summaries, tags and answer schemas are for the server and the OpenAPI document (ADR 0023).
    stripContractDocsPlugin(),
  ],
  server: { port: 5173, proxy: { '/web': `http://localhost:${apiPort}` } },
  build: { outDir: 'dist', sourcemap: true, manifest: true, chunkSizeWarningLimit: 400 },
  test: {
    include: ['tests/**/*.test.{ts,tsx}', 'domain/**/*.test.ts', 'machines/**/*.test.ts'],
    environment: 'node',
    // The migrated database every test file copies, made once per run (tests/support/database.ts).
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The main process
    // mostly waits, and each test database now starts from a migrated image (tests/support/database.ts), so
    // a worker per core takes the suite from about 325 s to about 230 s here.
    maxWorkers: availableParallelism(),
  },
})
