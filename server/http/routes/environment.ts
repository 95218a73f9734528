import { getEnvironment } from '../../../domain/contract/environment'
import { sandboxedAdapters } from '../../providers/from-env'
import { ok } from '../envelope'
import { deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const environmentRoutes: AnyRoute[] = [
  implement(getEnvironment, (c) => {
    const { captcha } = deps(c)
    const sandboxed = sandboxedAdapters(deps(c))
    return ok(c, {
      sandbox: sandboxed.length > 0,
      sandboxed,
      captcha: { provider: captcha.name, siteKey: captcha.siteKey ?? null },
    })
  }),
]
