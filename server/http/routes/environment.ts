import { getEnvironment } from '../../../domain/contract/environment'
import { deploymentEnvironment } from '../../services/sandbox/environment'
import { ok } from '../envelope'
import { deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const environmentRoutes: AnyRoute[] = [
  implement(getEnvironment, async (c) => ok(c, await deploymentEnvironment(deps(c), c.get('requestId')))),
]
