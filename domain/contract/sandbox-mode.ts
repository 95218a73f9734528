/**
 * Sandbox mode switched on from the back office (issue 20 item 1; docs/decisions/0039-sandbox-panel.md): for the
 * whole instance (every visitor is in sandbox mode, as if they held the QA cookie) and for one client (that client,
 * when logged in). Back office, permission `sandbox`; every change is in the audit trail. Absent (404) on a
 * production server without the sandbox switch, like the sandbox clock and the scenarios (ADR 0018), and read as
 * "off" there whatever was stored. The browser learns the instance's switch from GET /web/public/environment
 * (`sandboxMode`) and a client's from its profile (GET /web/private/client, `sandbox`).
 */
import * as v from 'valibot'
import { idString } from '../ids'
import { defineContract } from './define'

/** A switch as it stands: on or off, and who left it so when (null: never set, so off). */
export const sandboxModeSchema = v.object({
  enabled: v.boolean(),
  changedBy: v.nullable(v.object({ id: v.number(), name: v.string(), email: v.string() })),
  /** ISO 8601, UTC. */
  changedAt: v.nullable(v.string()),
})
export type SandboxMode = v.InferOutput<typeof sandboxModeSchema>

export const clientSandboxModeSchema = v.object({ clientId: v.number(), ...sandboxModeSchema.entries })
export type ClientSandboxMode = v.InferOutput<typeof clientSandboxModeSchema>

/** What turns a switch on or off. */
export const sandboxModeBody = v.object({ enabled: v.boolean('On (true) or off (false).') })
export type SandboxModeBody = v.InferOutput<typeof sandboxModeBody>

const clientParams = v.object({ id: idString() })

export const getInstanceSandboxMode = defineContract({
  method: 'get',
  path: '/private/back-office/sandbox/mode',
  summary: "Sandbox: the instance's sandbox mode (every visitor in sandbox mode, as with the QA cookie)",
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  response: sandboxModeSchema,
})

export const setInstanceSandboxMode = defineContract({
  method: 'put',
  path: '/private/back-office/sandbox/mode',
  summary: "Sandbox: turn the instance's sandbox mode on or off (audited)",
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  body: sandboxModeBody,
  response: sandboxModeSchema,
})

export const getClientSandboxMode = defineContract({
  method: 'get',
  path: '/private/back-office/client/:id/sandbox-mode',
  summary: "Sandbox: one client's sandbox mode (that client, when logged in, is in sandbox mode)",
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  params: clientParams,
  response: clientSandboxModeSchema,
})

export const setClientSandboxMode = defineContract({
  method: 'put',
  path: '/private/back-office/client/:id/sandbox-mode',
  summary: "Sandbox: turn one client's sandbox mode on or off (audited; 404 for an unknown client)",
  tags: ['sandbox'],
  access: 'user',
  permission: 'sandbox',
  params: clientParams,
  body: sandboxModeBody,
  response: clientSandboxModeSchema,
})
