/**
 * The server's render of the public pages (docs/decisions/0040): src/entry-server.tsx as one ES module for
 * Node, beside the browser build (`<static dir>-ssr/`, found by server/http/prerender.ts). The same route tree
 * and transforms as vite.config.ts, without its chunking and manifest, which are the browser's concern.
 *
 * Usage: vite build -c vite.ssr.config.ts [--outDir dist-ssr]
 */
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { appRouterPlugin } from './scripts/vite-router-plugin'
import { stripContractDocsPlugin, stripMachineDescriptionsPlugin } from './scripts/vite-strip-descriptions'

export default defineConfig({
  plugins: [
    // The same route tree and options in both builds (scripts/vite-router-plugin.ts).
    appRouterPlugin(),
    react(),
    stripMachineDescriptionsPlugin(),
    stripContractDocsPlugin(),
  ],
  // The browser build's CSS is inlined into the page by the server; the render needs none.
  css: { modules: undefined },
  ssr: { noExternal: true },
  build: {
    ssr: 'src/entry-server.tsx',
    outDir: 'dist-ssr',
    emptyOutDir: true,
    sourcemap: false,
    minify: false,
    copyPublicDir: false,
    rollupOptions: {
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]domain[\\/]/.test(id) },
      output: { entryFileNames: 'entry-server.js', codeSplitting: false },
    },
  },
})
