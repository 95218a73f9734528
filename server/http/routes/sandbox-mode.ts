/**
 * Sandbox mode from the back office (domain/contract/sandbox-mode.ts over server/services/sandbox/mode.ts): the
 * instance's switch and one client's. Permission `sandbox`; absent (404) on a production server without the
 * sandbox switch; each change audited by the service, in its transaction.
 */
import * as contract from '../../../domain/contract/sandbox-mode'
import { readClientMode, readInstanceMode, setClientMode, setInstanceMode } from '../../services/sandbox/mode'
import { ok } from '../envelope'
import { clientIdOf, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const sandboxModeRoutes: AnyRoute[] = [
  implement(contract.getInstanceSandboxMode, async (c) => ok(c, await readInstanceMode(deps(c)))),

  // clientIdOf is the principal's id: here the back-office user who sets the switch.
  implement(contract.setInstanceSandboxMode, async (c, { body }) =>
    ok(c, await setInstanceMode(deps(c), clientIdOf(c), body.enabled)),
  ),

  implement(contract.getClientSandboxMode, async (c, { params }) =>
    ok(c, await readClientMode(deps(c), params.id)),
  ),

  implement(contract.setClientSandboxMode, async (c, { params, body }) =>
    ok(c, await setClientMode(deps(c), clientIdOf(c), params.id, body.enabled)),
  ),
]
