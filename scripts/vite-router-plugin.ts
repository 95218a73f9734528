/**
 * The router's code generation, the same for the browser build (vite.config.ts) and the server's render of the
 * public pages (vite.ssr.config.ts): one route tree, the same route options, so the server's markup is the one the
 * browser hydrates. The server bundle stays one module whatever the splitting (its own codeSplitting: false).
 */
import { tanstackRouter } from '@tanstack/router-plugin/vite'

export const appRouterPlugin = () =>
  tanstackRouter({
    target: 'react',
    autoCodeSplitting: true,
    routesDirectory: './src/routes',
    generatedRouteTree: './src/route-tree.gen.ts',
    quoteStyle: 'single',
    semicolons: false,
  })
