/**
 * Runs before every spec (the `setup` project, playwright.config.ts): registers the clients that sign an
 * agreement later in the run (e2e/clients.ts, signingClients) and a client only signed up, for the single link
 * of e2e/auth.spec.ts, so the one-SMS-code-a-minute wait after each sign-up runs out while other tests run.
 */
import { expect, test as setup } from '@playwright/test'
import {
  PREPARED_PASSWORD,
  type ReadyClient,
  readyClient,
  type SigningClient,
  savePreparedClients,
  signingClients,
  signUpClient,
} from './clients'

setup('register the clients that get SMS codes later in the run', async ({ request }) => {
  setup.setTimeout(120_000)
  const ready = {} as Record<SigningClient, ReadyClient>
  for (const [key, firstName] of Object.entries(signingClients) as [SigningClient, string][])
    ready[key] = await readyClient(request, firstName)
  const signedUp = await signUpClient(request, PREPARED_PASSWORD)
  const phones = new Set([...Object.values(ready), signedUp].map((c) => c.phone))
  expect(phones.size).toBe(Object.keys(signingClients).length + 1)
  savePreparedClients({ ready, signedUp })
})
