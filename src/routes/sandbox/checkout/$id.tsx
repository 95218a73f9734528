import { createFileRoute } from '@tanstack/react-router'
import { SandboxCheckoutPage } from '../../../features/repayment/sandbox-checkout-page'
import { titleHead } from '../../../ui/layout/page-title'

/** The sandbox payment gateway's checkout page (issue 16): public, like a gateway's hosted page. */
export const Route = createFileRoute('/sandbox/checkout/$id')({
  // The charge, or the 404 page (src/routes/sandbox/-load-checkout.ts, imported when this page loads).
  loader: async ({ context, params, abortController }) =>
    (await import('../-load-checkout')).loadCheckout(context.api, params.id, abortController.signal),
  // Each visit asks the gateway again: the charge may have been paid meanwhile.
  staleTime: 0,
  head: titleHead,
  component: Page,
})

function Page() {
  return <SandboxCheckoutPage checkout={Route.useLoaderData().checkout} />
}
