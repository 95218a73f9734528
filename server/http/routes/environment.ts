import { getEnvironment } from '../../../domain/contract/environment'
import { errorForLog } from '../../db/errors'
import { sandboxedAdapters } from '../../providers/from-env'
import { instanceSandboxOn } from '../../services/sandbox/mode'
import { ok } from '../envelope'
import { deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const environmentRoutes: AnyRoute[] = [
  implement(getEnvironment, async (c) => {
    const { captcha, logger } = deps(c)
    const sandboxed = sandboxedAdapters(deps(c))
    // The instance's sandbox mode (always off on a production server without the sandbox switch). A database that
    // cannot answer leaves it off rather than failing the answer: the sandbox banner must still show (ADR 0018).
    const sandboxMode = await instanceSandboxOn(deps(c)).catch((error: unknown) => {
      logger.warn(
        { requestId: c.get('requestId'), err: errorForLog(error), event: 'sandbox.mode_unread' },
        'environment: the instance sandbox mode could not be read',
      )
      return false
    })
    return ok(c, {
      sandbox: sandboxed.length > 0,
      sandboxMode,
      sandboxed,
      captcha: { provider: captcha.name, siteKey: captcha.siteKey ?? null },
    })
  }),
]
