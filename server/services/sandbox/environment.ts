/**
 * What the browser learns about the deployment (GET /web/public/environment, docs/decisions/0018): the route's
 * answer, and the same answer the server-rendered pages are rendered with (server/http/prerender.ts), so that
 * their sandbox banner is in the HTML instead of pushing the page down once the app has asked (issue 21).
 */
import type { Environment } from '../../../domain/environment'
import { errorForLog } from '../../db/errors'
import type { AppDeps } from '../../deps'
import { sandboxedAdapters } from '../../providers/from-env'
import { instanceSandboxOn } from './mode'

export async function deploymentEnvironment(deps: AppDeps, requestId?: string): Promise<Environment> {
  const sandboxed = sandboxedAdapters(deps)
  // The instance's sandbox mode (always off on a production server without the sandbox switch). A database that
  // cannot answer leaves it off rather than failing the answer: the sandbox banner must still show (ADR 0018).
  const sandboxMode = await instanceSandboxOn(deps).catch((error: unknown) => {
    deps.logger.warn(
      { requestId, err: errorForLog(error), event: 'sandbox.mode_unread' },
      'environment: the instance sandbox mode could not be read',
    )
    return false
  })
  return {
    sandbox: sandboxed.length > 0,
    sandboxMode,
    sandboxed,
    captcha: { provider: deps.captcha.name, siteKey: deps.captcha.siteKey ?? null },
  }
}
