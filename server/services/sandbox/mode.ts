/**
 * Sandbox mode switched from the back office (issue 20 item 1, docs/decisions/0039-sandbox-panel.md): the
 * instance's switch (every visitor in sandbox mode, as if they held the QA cookie) and one client's (that client,
 * when logged in). Each change is recorded in the audit trail in the transaction that makes it.
 *
 * Sandbox deployments only: on a production server without the sandbox switch (no adapter on its sandbox provider,
 * ADR 0018) the calls that set or read a switch answer 404, like the sandbox clock, and every reader here answers
 * "off" without reading the tables, so a row left from an earlier sandbox run of the same database changes nothing.
 */
import { eq } from 'drizzle-orm'
import type { ClientSandboxMode, SandboxMode } from '../../../domain/contract/sandbox-mode'
import { notFound } from '../../../domain/errors'
import type { DbOrTx } from '../../db/client'
import { backOfficeUser, client } from '../../db/schema-identity'
import { clientSandboxMode, sandboxInstanceMode } from '../../db/schema-sandbox'
import type { AppDeps } from '../../deps'
import { recordChange } from '../audit/audit'
import { assertClockMovable, clockMovable } from '../payments/clock'

type Providers = Parameters<typeof clockMovable>[0]

/** Whether this server is a sandbox deployment (some adapter on its sandbox provider): the switches count. */
export const sandboxDeployment = (deps: Providers): boolean => clockMovable(deps)

const INSTANCE_ROW = 1

const off: SandboxMode = { enabled: false, changedBy: null, changedAt: null }

interface Row {
  enabled: boolean
  changedAt: Date
  userId: number
  name: string
  email: string
}

const modeOf = (row: Row | undefined): SandboxMode =>
  row
    ? {
        enabled: row.enabled,
        changedBy: { id: row.userId, name: row.name, email: row.email },
        changedAt: row.changedAt.toISOString(),
      }
    : off

async function instanceRow(db: DbOrTx): Promise<Row | undefined> {
  const [row] = await db
    .select({
      enabled: sandboxInstanceMode.enabled,
      changedAt: sandboxInstanceMode.changedAt,
      userId: backOfficeUser.id,
      name: backOfficeUser.name,
      email: backOfficeUser.email,
    })
    .from(sandboxInstanceMode)
    .innerJoin(backOfficeUser, eq(backOfficeUser.id, sandboxInstanceMode.changedBy))
    .where(eq(sandboxInstanceMode.id, INSTANCE_ROW))
  return row
}

async function clientRow(db: DbOrTx, clientId: number): Promise<Row | undefined> {
  const [row] = await db
    .select({
      enabled: clientSandboxMode.enabled,
      changedAt: clientSandboxMode.changedAt,
      userId: backOfficeUser.id,
      name: backOfficeUser.name,
      email: backOfficeUser.email,
    })
    .from(clientSandboxMode)
    .innerJoin(backOfficeUser, eq(backOfficeUser.id, clientSandboxMode.changedBy))
    .where(eq(clientSandboxMode.clientId, clientId))
  return row
}

/** Whether the instance's sandbox mode is on: always false on a production server without the switch. */
export async function instanceSandboxOn(deps: Pick<AppDeps, 'database'> & Providers): Promise<boolean> {
  if (!sandboxDeployment(deps)) return false
  const [row] = await deps.database.db
    .select({ enabled: sandboxInstanceMode.enabled })
    .from(sandboxInstanceMode)
    .where(eq(sandboxInstanceMode.id, INSTANCE_ROW))
  return row?.enabled ?? false
}

/**
 * Whether one client's own sandbox mode is on. `deployment` is `sandboxDeployment(deps)`: false (production
 * without the switch) answers false without a read.
 */
export async function clientSandboxOn(db: DbOrTx, deployment: boolean, clientId: number): Promise<boolean> {
  if (!deployment) return false
  const [row] = await db
    .select({ enabled: clientSandboxMode.enabled })
    .from(clientSandboxMode)
    .where(eq(clientSandboxMode.clientId, clientId))
  return row?.enabled ?? false
}

/** The instance's switch as it stands (404 on a production server without the sandbox switch). */
export async function readInstanceMode(deps: AppDeps): Promise<SandboxMode> {
  assertClockMovable(deps)
  return modeOf(await instanceRow(deps.database.db))
}

/** Turns the instance's sandbox mode on or off, as `userId`; the change and its audit entry commit together. */
export async function setInstanceMode(deps: AppDeps, userId: number, enabled: boolean): Promise<SandboxMode> {
  assertClockMovable(deps)
  const now = deps.now()
  const mode = await deps.database.db.transaction(async (tx) => {
    const before = modeOf(await instanceRow(tx))
    await tx
      .insert(sandboxInstanceMode)
      .values({ id: INSTANCE_ROW, enabled, changedBy: userId, changedAt: now })
      .onConflictDoUpdate({
        target: sandboxInstanceMode.id,
        set: { enabled, changedBy: userId, changedAt: now },
      })
    const after = modeOf(await instanceRow(tx))
    await recordChange(tx, { entity: 'sandbox_instance_mode', entityId: INSTANCE_ROW, before, after })
    return after
  })
  deps.logger.info({ event: 'sandbox.instance_mode', enabled, userId }, 'sandbox mode of the instance set')
  return mode
}

/** One client's switch as it stands (404 for an unknown client, and on a production server). */
export async function readClientMode(deps: AppDeps, clientId: number): Promise<ClientSandboxMode> {
  assertClockMovable(deps)
  const db = deps.database.db
  const [known] = await db.select({ id: client.id }).from(client).where(eq(client.id, clientId))
  if (!known) throw notFound('Client')
  return { clientId, ...modeOf(await clientRow(db, clientId)) }
}

/** Turns one client's sandbox mode on or off, as `userId`; the change and its audit entry commit together. */
export async function setClientMode(
  deps: AppDeps,
  userId: number,
  clientId: number,
  enabled: boolean,
): Promise<ClientSandboxMode> {
  assertClockMovable(deps)
  const now = deps.now()
  const mode = await deps.database.db.transaction(async (tx) => {
    const [known] = await tx.select({ id: client.id }).from(client).where(eq(client.id, clientId))
    if (!known) throw notFound('Client')
    const before = modeOf(await clientRow(tx, clientId))
    await tx
      .insert(clientSandboxMode)
      .values({ clientId, enabled, changedBy: userId, changedAt: now })
      .onConflictDoUpdate({
        target: clientSandboxMode.clientId,
        set: { enabled, changedBy: userId, changedAt: now },
      })
    const after = { clientId, ...modeOf(await clientRow(tx, clientId)) }
    await recordChange(tx, { entity: 'client_sandbox_mode', entityId: clientId, clientId, before, after })
    return after
  })
  deps.logger.info(
    { event: 'sandbox.client_mode', enabled, clientId, userId },
    'sandbox mode of a client set',
  )
  return mode
}
