/**
 * Component and app tests (happy-dom): Testing Library's `findBy…` and `waitFor` wait up to 5 s, not 1 s. The
 * suite runs a worker per core beside PGlite and PostgreSQL API tests; on a loaded two-core machine the app's
 * first render (lazy routes, locale bundles) can take more than a second, and a test should wait for what it
 * asserts rather than fail on timing. Node-environment test files load nothing here.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom')
  configure({ asyncUtilTimeout: 5_000 })
}

export {}
