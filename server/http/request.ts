/**
 * What a route reads off its request: the dependencies, the database, the caller (for the journey's history)
 * and the logged-in client. Shared by the route files, which export nothing to one another.
 */
import type { Context } from 'hono'
import { DomainError } from '../../domain/errors'
import { type ClientRow, findClient } from '../services/identity/clients'
import type { Actor } from '../services/journey/journey'
import type { AppEnv } from './context'

export const deps = (c: Context<AppEnv>) => c.get('deps')
export const db = (c: Context<AppEnv>) => c.get('deps').database.db
export const clientIdOf = (c: Context<AppEnv>) => c.get('principal').id

/**
 * Who is calling and through which call, for the journey's history: the logged-in client or back-office user,
 * and the matched route's pattern in the spec's notation ('PUT /web/private/client/application/{id}', the form
 * `journeyEventDefinitions` names calls in), never the concrete path (it can hold personal data).
 */
export function callerOf(c: Context<AppEnv>): Actor {
  const { type, id } = c.get('principal')
  const pattern = (c.get('route') ?? c.req.routePath).replace(/:(\w+)/g, '{$1}')
  return { kind: type === 'user' ? 'back-office' : 'client', id, call: `${c.req.method} /web${pattern}` }
}

export async function currentClient(c: Context<AppEnv>): Promise<ClientRow> {
  const row = await findClient(db(c), clientIdOf(c))
  if (!row) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
  return row
}
