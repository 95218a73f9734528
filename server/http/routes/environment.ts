import { ENVIRONMENT_PATH, environmentSchema } from '../../../domain/environment'
import { sandboxedAdapters } from '../../providers/from-env'
import { ok } from '../envelope'
import { type AnyRoute, defineRoute } from '../route'

export const environmentRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: ENVIRONMENT_PATH,
    summary: 'The deployment as the browser needs it: sandbox adapters (the banner) and the captcha script',
    tags: ['config'],
    access: 'public',
    response: environmentSchema,
    handler: (c) => {
      const deps = c.get('deps')
      const sandboxed = sandboxedAdapters(deps)
      return ok(c, {
        sandbox: sandboxed.length > 0,
        sandboxed,
        captcha: { provider: deps.captcha.name, siteKey: deps.captcha.siteKey ?? null },
      })
    },
  }),
]
