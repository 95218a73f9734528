import { availableParallelism } from 'node:os'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { clientRoutesPlugin } from './scripts/vite-client-routes'
import { precompressPlugin } from './scripts/vite-precompress'
import { appRouterPlugin } from './scripts/vite-router-plugin'
import { stripContractDocsPlugin, stripMachineDescriptionsPlugin } from './scripts/vite-strip-descriptions'

const apiPort = Number(process.env.API_PORT ?? 3001)

/** Modules of ours every page loads (the entry imports them) and lazy routes share: kept with the libraries. */
const SHARED_CORE = [
  'domain/contract/define.ts',
  'domain/safe-text.ts',
  'domain/money.ts',
  'domain/campaign.ts',
  'src/ui/forms/violations.ts',
  'src/app/cookies.ts',
  'src/app/app-context.tsx',
  // The journey's routing: the entry runs it and the journey's routes (/flow among them) share it; as their own
  // chunks they cost the home page more (issue 21).
  'machines/flow-sync.machine.ts',
  'src/app/machine-routing.ts',
  'domain/journey/destinations.ts',
  'domain/journey/routing.ts',
  // The footer's contacts and the peso format, which the error pages and the calculator's checks share.
  'src/ui/errors/care-email.tsx',
  'domain/peso.ts',
]

export default defineConfig({
  plugins: [
    // The same route tree and options in both builds (scripts/vite-router-plugin.ts).
    appRouterPlugin(),
    react(),
    // dist/routes.json: the pages the server answers 200 for; any other path gets the 404 page with a 404.
    clientRoutesPlugin(),
    // Statechart descriptions are for the diagrams: the production bundle leaves them out.
    stripMachineDescriptionsPlugin(),
    // Contract summaries, tags and answer schemas are for the server and the OpenAPI document (ADR 0023).
    stripContractDocsPlugin(),
    // A Brotli and a gzip copy of every text file, sent by the server as they are (server/http/spa.ts).
    precompressPlugin(),
  ],
  // The manifest is built by the server from the back office's app entry (server/http/manifest.ts).
  server: {
    port: 5173,
    proxy: { '/web': `http://localhost:${apiPort}`, '/manifest.webmanifest': `http://localhost:${apiPort}` },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      // domain/ is pure by rule (ADR 0022): importing a domain module for nothing but a type or a schema the
      // build cut out (ADR 0023) must not keep the module.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]domain[\\/]/.test(id) },
      output: {
        // What every page runs on, in one chunk: the libraries, and the few small modules of ours the entry
        // imports that lazy routes share too. Left to itself the bundler splits them by which lazy routes
        // share them, and a dozen small chunks compress worse than one (the home route pays for each).
        manualChunks: (id: string) =>
          /[\\/]node_modules[\\/](react|react-dom|scheduler|@tanstack|xstate|@xstate|valibot|ofetch|destr|ufo|use-sync-external-store|use-isomorphic-layout-effect)[\\/]/.test(
            id,
          ) || SHARED_CORE.some((path) => id.endsWith(path))
            ? 'vendor'
            : undefined,
      },
    },
  },
  test: {
    environment: 'node',
    // The migrated database every test file copies, made once per run (tests/support/database.ts).
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/dom-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The main process
    // mostly waits, and each test database now starts from a migrated image (tests/support/database.ts), so
    // a worker per core takes the suite from about 325 s to about 230 s here.
    maxWorkers: availableParallelism(),
    // Two projects with their own `include` (a project that extends the root adds its lists to the root's).
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          // The API files import the whole server (about 1.3 s a file of import and transform on this 2-core
          // machine, 73 files) and change no module state they do not put back (none mocks a module; the one
          // setting a file changes, the sandbox code interval, is restored in its afterAll). One process runs
          // file after file with the modules it already loaded; each file still opens its own database.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.{ts,tsx}', 'domain/**/*.test.ts', 'machines/**/*.test.ts'],
          exclude: ['tests/api/**', 'node_modules/**'],
        },
      },
    ],
  },
})
