/**
 * The audit trail (issue 19 item 2, docs/decisions/0032-audit-trail.md).
 *
 * Every back-office call that writes runs inside an audit scope (server/http/route.ts): who (user, session,
 * device), which call, with which permission, with what input. Inside it, a service that changes something records
 * the change itself, in its own transaction, with the values before and after (`recordChange(tx, ...)`): the
 * entry commits or rolls back with the change. A write whose service records nothing still gets one entry, after
 * it succeeded, with a snapshot of the touched row before and after taken by the route layer (`auditGeneric`),
 * so no back-office write can go unrecorded (tests/api/audit-trail.test.ts checks every writing route). A refused
 * attempt (the role does not allow it) is recorded too.
 *
 * Entries never carry a password, a code or a token (`redact`); they may carry a client's personal values, which
 * is what an audit of a lender needs, and they are read only by the roles with `audit.read`.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import { DomainError } from '../../../domain/errors'
import type { DbOrTx } from '../../db/client'
import { auditEntry } from '../../db/schema-audit'

export interface AuditActor {
  userId: number
  sessionId: string | null
  deviceHash: string | null
  /** `POST /web/private/back-office/loan/{id}/write-off`. */
  call: string
  permission: string
  requestId: string | null
  /** Path parameters, query and body as validated, secrets removed. */
  request: Record<string, unknown>
}

export interface AuditChange {
  entity: string
  entityId: string | number | null
  clientId?: number | null
  before?: unknown
  after?: unknown
}

interface Scope {
  actor: AuditActor
  recorded: number
  touched: Touched | null
  before: Snapshot | null
}

const scopes = new AsyncLocalStorage<Scope>()

/**
 * Runs a back-office write and makes sure it leaves an entry: the services' own (`recordChange`), or else one
 * written here once the call has answered, `done` with the touched row before and after and the answer, or
 * `failed` with the error's code (the attempt is part of the trail too; its change, if any, rolled back).
 */
export async function auditCall(
  db: DbOrTx,
  actor: AuditActor,
  run: () => Promise<Response>,
  answerOf: (response: Response) => Promise<unknown>,
): Promise<Response> {
  const scope: Scope = { actor, recorded: 0, touched: null, before: null }
  let response: Response
  try {
    response = await scopes.run(scope, run)
  } catch (error) {
    await insert(db, scope.actor, 'failed', {
      ...about(scope),
      before: scope.before?.row ?? null,
      error: errorCode(error),
    })
    throw error
  }
  if (!scope.recorded) {
    const after = scope.touched ? await scope.touched.read(db) : null
    await insert(db, scope.actor, 'done', {
      ...about(scope),
      clientId: after?.clientId ?? scope.before?.clientId ?? null,
      before: scope.before?.row ?? null,
      after: after?.row ?? (await answerOf(response)) ?? null,
    })
  }
  return response
}

/** The input as validated, and the row it points at before the service runs. */
export async function noteInput(db: DbOrTx, path: string, input: Record<string, unknown>) {
  const scope = scopes.getStore()
  if (!scope) return
  scope.actor.request = redact(input) as Record<string, unknown>
  scope.touched = touchedBy(path, input.params as Record<string, unknown> | undefined)
  scope.before = scope.touched ? await scope.touched.read(db) : null
}

const about = (scope: Scope) => ({
  entity: scope.touched?.entity ?? scope.actor.call.split(' ')[1]!.split('/').slice(4).join('/'),
  entityId: scope.touched?.entityId ?? null,
  clientId: scope.before?.clientId ?? null,
})

const errorCode = (error: unknown) => (error instanceof DomainError ? `${error.kind}:${error.code}` : 'error')

const SECRET = /password|code|token|secret|captcha|otp/i

/**
 * The input without secrets (a password, a one-time code, a token): those never reach the trail. A refused or
 * failed call's raw input may hold what PostgreSQL cannot store (NUL, unpaired surrogates): each string is made
 * storable and bounded, so recording an attempt can never fail the request.
 */
export function redact(value: unknown): unknown {
  if (typeof value === 'string') return storable(value)
  if (Array.isArray(value)) return value.slice(0, 100).map(redact)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value).slice(0, 100))
      out[storable(key)] = SECRET.test(key) ? '[redacted]' : redact(inner)
    return out
  }
  return value
}

const MAX_TEXT = 2000

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what PostgreSQL cannot store
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

const storable = (text: string) => text.slice(0, MAX_TEXT).replace(UNSTORABLE, '\uFFFD')

const json = (value: unknown) => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown))

type Outcome = 'done' | 'refused' | 'failed'

async function insert(
  db: DbOrTx,
  actor: AuditActor,
  outcome: Outcome,
  change?: AuditChange & { error?: string },
) {
  await db.insert(auditEntry).values({
    userId: actor.userId,
    sessionId: actor.sessionId,
    deviceHash: actor.deviceHash,
    call: actor.call,
    permission: actor.permission,
    outcome,
    entity: change?.entity ?? null,
    entityId: change?.entityId == null ? null : String(change.entityId),
    clientId: change?.clientId ?? null,
    request: actor.request,
    before: json(change?.before),
    after: json(change?.after),
    error: change?.error ?? null,
    requestId: actor.requestId,
  })
}

/**
 * Records a change made by the current back-office call, in the caller's transaction. Outside a back-office
 * call (a client's own request, a scheduled job) there is no back-office actor and nothing to record.
 */
export async function recordChange(tx: DbOrTx, change: AuditChange): Promise<void> {
  const scope = scopes.getStore()
  if (!scope) return
  await insert(tx, scope.actor, 'done', change)
  scope.recorded += 1
}

/**
 * A read worth a line in the trail (an ID photo a person looked at, RA 10173): recorded by the handler, before
 * it answers, since the route layer audits writes only. Outside `auditCall`, so the actor is passed in.
 */
export const recordRead = (db: DbOrTx, actor: AuditActor, change: AuditChange) =>
  insert(db, actor, 'done', change)

/** A refused attempt: the user's role does not hold the call's permission. */
export const recordRefusal = (db: DbOrTx, actor: AuditActor) => insert(db, actor, 'refused')

/**
 * What a path parameter names, for the entry of a write whose service recorded nothing: the table to snapshot
 * before and after, its key column, and how to find the client the row concerns. Fixed text, never input.
 */
const entities: Record<string, { table: string; key: string; client: string | null; drop: string[] }> = {
  client: { table: 'client', key: 'id', client: 'id', drop: ['password_hash'] },
  loan: { table: 'loan', key: 'id', client: 'client_id', drop: [] },
  application: { table: 'application', key: 'id', client: 'client_id', drop: [] },
  payments: { table: 'payment', key: 'id', client: 'client_id', drop: [] },
  config: { table: 'config', key: 'key', client: null, drop: [] },
  users: { table: 'back_office_user', key: 'id', client: null, drop: ['password_hash', 'invite_token_hash'] },
  'debt-forwards': { table: 'debt_forward', key: 'id', client: null, drop: [] },
}

/** Adds a kind of row the generic entry can snapshot (the resource files of later features register theirs). */
export function registerAuditEntity(segment: string, entity: (typeof entities)[string]) {
  entities[segment] = entity
}

interface Snapshot {
  row: unknown
  clientId: number | null
}

export interface Touched {
  entity: string
  entityId: string
  read: (db: DbOrTx) => Promise<Snapshot>
}

/** The row a back-office path points at (`/private/back-office/loan/:id/hold` → loan 42), if it names one. */
export function touchedBy(path: string, params: Record<string, unknown> | undefined): Touched | null {
  if (!params) return null
  const segments = path.split('/')
  for (let at = segments.length - 1; at > 0; at--) {
    const segment = segments[at]!
    if (!segment.startsWith(':')) continue
    const value = params[segment.slice(1)]
    const entity = entities[segments[at - 1]!]
    if (value === undefined || !entity) continue
    const entityId = String(value)
    const keyValue = entity.key === 'id' ? sql`${Number(entityId)}::bigint` : sql`${entityId}`
    const clientColumn = entity.client ? sql.raw(`t."${entity.client}"`) : sql`null`
    const drop = entity.drop.map((column) => ` - '${column}'`).join('')
    return {
      entity: entity.table,
      entityId,
      read: async (db) => {
        const result = (await db.execute(sql`
          select to_jsonb(t)${sql.raw(drop)} as row, ${clientColumn}::bigint as client_id
            from ${sql.raw(`"${entity.table}"`)} t where t.${sql.raw(`"${entity.key}"`)} = ${keyValue}
        `)) as unknown as { rows: { row: unknown; client_id: string | number | null }[] }
        const [found] = result.rows
        return {
          row: found?.row ?? null,
          clientId: found?.client_id == null ? null : Number(found.client_id),
        }
      },
    }
  }
  return null
}

export interface AuditQuery {
  clientId?: number
  userId?: number
  entity?: string
  from?: Date
  to?: Date
  page: number
  perPage: number
}

export async function searchAudit(db: DbOrTx, query: AuditQuery) {
  const where: SQL[] = []
  if (query.clientId !== undefined) where.push(eq(auditEntry.clientId, query.clientId))
  if (query.userId !== undefined) where.push(eq(auditEntry.userId, query.userId))
  if (query.entity !== undefined) where.push(eq(auditEntry.entity, query.entity))
  if (query.from) where.push(gte(auditEntry.at, query.from))
  if (query.to) where.push(lt(auditEntry.at, query.to))
  const condition = where.length ? and(...where) : undefined
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(auditEntry).where(condition)
  const rows = await db
    .select()
    .from(auditEntry)
    .where(condition)
    .orderBy(desc(auditEntry.at), desc(auditEntry.id))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
  return { rows, total: total?.n ?? 0 }
}
