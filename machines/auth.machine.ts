/**
 * The auth session of the browser (spec sections 3 Auth state, 4 Authentication, 6 Roles).
 *
 * - loggedOut: no session. `anonymous` at first and after a restored session the server refused; `sessionEnded`
 *   after a logout or a 401/403 during a session, until the login page is reached (SESSION.END.SEEN). The
 *   route guards read it (src/app/auth-guards.ts): every page redirects to /login while it lasts, keeping the
 *   page to come back to for an 'unauthorized' end; the /login guard acknowledges it, so Back and later
 *   navigation are free again.
 * - loggingIn: a token arrived (a login, sign-up, second factor, or the `auth.token` cookie after a reload);
 *   the user is loaded (`loadUser`: the client, or the back-office user, by token type).
 * - mfaRequired: the token carries `mfa`: a second factor is due; this counts as NOT logged in.
 * - loggedIn: the user is loaded; the token is refreshed every REFRESH_INTERVAL (240000 ms by default).
 * - singleLink: a single-link session (token claim `sl`): my loan only, refreshed like any other. Spec section 4:
 *   the single-link cookie triggers loading the loan, and a logout if that call fails: the app sends
 *   SINGLE_LINK.FAILED when the loan call is refused (src/app/servicing.ts, `useActiveLoan`), and a 401/403 of
 *   such a session ends it the same way. The session ends as 'linkFailed': the guards take it to /login, where
 *   `context.notice` says the link expired or could not be used (kept until the next session starts).
 * - loggingOut: the server revokes the session (`logout`), then the token and cookie are dropped.
 *
 * Any 401/403 from the API (API.UNAUTHORIZED) while a session exists ends it. Whenever a session ends the user
 * becomes empty: the token and cookie are dropped (`forgetToken`), the private client data is reset
 * (`resetClientData`), `session.ended` is emitted with the reason and, for a logout or an unauthorized answer,
 * `loggedOut.sessionEnded` keeps the reason (`context.ended`) for the route guards. No React, no fetch, no
 * router: the app provides the actors and those two actions.
 *
 * Tokens reach the machine as TOKEN.RECEIVED, from the API client whenever an answer carries one. The
 * machine tells a refreshed token of the same session (just stored) from a new session (loaded again).
 */
import { type ActorRefFrom, assign, emit, fromPromise, type SnapshotFrom, setup } from 'xstate'
import { continuesSession, decodeSessionToken, type SessionClaims } from './session-token'

export { decodeSessionToken, type SessionClaims, type SubjectType } from './session-token'

/** Spec section 9: token refresh every 4 minutes. */
export const REFRESH_INTERVAL_MS = 240_000

/** The signed-in person: a client (GET /private/client) or a back-office user. */
export interface AuthUser {
  id: number
  email: string
  firstName?: string | null
  /** Back-office users. */
  name?: string
  roles?: string[]
  /** Clients (spec section 4 status codes). */
  status?: number
  phoneVerified?: boolean
  emailVerified?: boolean
  info?: { mobilePhone?: { number?: string } }
}

export type SessionEndReason = 'logout' | 'unauthorized' | 'linkFailed' | 'loadFailed'

/** What the login page explains after a session end: a single-link session whose link could not be used. */
export type SessionNotice = 'linkFailed'

/** A session end the route guards still have to act on (a quiet 'loadFailed' leaves none). */
export interface SessionEnd {
  reason: Exclude<SessionEndReason, 'loadFailed'>
}

export interface AuthContext {
  token: string | null
  claims: SessionClaims | null
  user: AuthUser | null
  /** Set in loggedOut.sessionEnded: why the session ended; null everywhere else. */
  ended: SessionEnd | null
  /** Set by a 'linkFailed' end and kept after the login page is reached; a new session clears it. */
  notice: SessionNotice | null
  refreshInterval: number
  /** Injected clock: an expired token is never taken for a session. */
  now: () => number
}

export interface AuthInput {
  refreshInterval?: number
  now?: () => number
}

export type AuthEvent =
  | { type: 'TOKEN.RECEIVED'; token: string }
  | { type: 'LOGOUT' }
  | { type: 'API.UNAUTHORIZED'; status?: number; path?: string }
  | { type: 'USER.RELOAD' }
  | { type: 'USER.UPDATED'; user: AuthUser }
  /** The login page was reached after a session end (sent by the /login route guard). */
  | { type: 'SESSION.END.SEEN' }
  /** A single-link session's loan call failed (src/app/servicing.ts says which failures count). */
  | { type: 'SINGLE_LINK.FAILED' }

export type AuthEmitted = { type: 'session.ended'; reason: SessionEndReason }

/** What the session actors receive: the claims say which API (client or back office) to call. */
export interface SessionActorInput {
  claims: SessionClaims
}

const notProvided = <T>(name: string) =>
  fromPromise<T, SessionActorInput>(async () => {
    throw new Error(`auth machine: the app must provide the "${name}" actor`)
  })

const sessionInput = ({ context }: { context: AuthContext }): SessionActorInput => {
  if (!context.claims) throw new Error('auth machine: a session actor started without a session')
  return { claims: context.claims }
}

const claimsOf = (event: AuthEvent) =>
  event.type === 'TOKEN.RECEIVED' ? decodeSessionToken(event.token) : null

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput | undefined,
    emitted: {} as AuthEmitted,
  },
  actors: {
    loadUser: notProvided<AuthUser>('loadUser'),
    refreshToken: notProvided<unknown>('refreshToken'),
    logout: notProvided<unknown>('logout'),
  },
  delays: {
    REFRESH_INTERVAL: ({ context }) => context.refreshInterval,
  },
  guards: {
    /** A well-formed token that has not expired. */
    isUsableToken: ({ context, event }) => {
      const claims = claimsOf(event)
      return claims !== null && claims.exp * 1000 > context.now()
    },
    isSingleLinkToken: ({ context, event }) => {
      const claims = claimsOf(event)
      return claims !== null && claims.exp * 1000 > context.now() && claims.sl
    },
    isMfaToken: ({ context, event }) => {
      const claims = claimsOf(event)
      return claims !== null && claims.exp * 1000 > context.now() && claims.mfa
    },
    /** The same session, refreshed: keep the token, change nothing else. */
    continuesSession: ({ context, event }) => {
      const claims = claimsOf(event)
      return claims !== null && continuesSession(context.claims, claims)
    },
  },
  actions: {
    startSession: assign(({ event }) =>
      event.type === 'TOKEN.RECEIVED'
        ? {
            token: event.token,
            claims: decodeSessionToken(event.token),
            user: null,
            ended: null,
            notice: null,
          }
        : {},
    ),
    storeToken: assign(({ event }) =>
      event.type === 'TOKEN.RECEIVED' ? { token: event.token, claims: decodeSessionToken(event.token) } : {},
    ),
    storeUser: assign({
      user: ({ context, event }) => {
        if (event.type === 'USER.UPDATED') return event.user
        const output = (event as { output?: AuthUser }).output
        return output ?? context.user
      },
    }),
    clearSession: assign({ token: null, claims: null, user: null }),
    recordEnd: assign((_, params: { reason: SessionEndReason }) => ({
      ended: params.reason === 'loadFailed' ? null : { reason: params.reason },
      notice: params.reason === 'linkFailed' ? ('linkFailed' as const) : null,
    })),
    forgetEnd: assign({ ended: null }),
    /** Provided by the app: drop the `auth.token` cookie. */
    forgetToken: () => {},
    /** Provided by the app: forget every private query (react-query) of the previous user. */
    resetClientData: () => {},
    announceEnd: emit((_, params: { reason: SessionEndReason }) => ({
      type: 'session.ended' as const,
      reason: params.reason,
    })),
  },
}).createMachine({
  id: 'auth',
  initial: 'loggedOut',
  context: ({ input }) => ({
    token: null,
    claims: null,
    user: null,
    ended: null,
    notice: null,
    refreshInterval: input?.refreshInterval ?? REFRESH_INTERVAL_MS,
    now: input?.now ?? Date.now,
  }),
  states: {
    loggedOut: {
      initial: 'anonymous',
      states: {
        // No session, and nothing for the route guards to act on.
        anonymous: {},
        // A logout, a 401/403 or a failed single link ended the session (context.ended): every page redirects to /login until the
        // /login guard sends SESSION.END.SEEN. (Comments, not `description`: the machine is in the home bundle.)
        sessionEnded: {
          on: { 'SESSION.END.SEEN': { target: 'anonymous', actions: 'forgetEnd' } },
        },
      },
      on: {
        'TOKEN.RECEIVED': [
          { guard: 'isSingleLinkToken', target: 'singleLink', actions: 'startSession' },
          { guard: 'isMfaToken', target: 'mfaRequired', actions: 'startSession' },
          { guard: 'isUsableToken', target: 'loggingIn', actions: 'startSession' },
        ],
      },
    },
    loggingIn: {
      invoke: {
        id: 'loadUser',
        src: 'loadUser',
        input: sessionInput,
        onDone: { target: 'loggedIn', actions: 'storeUser' },
        onError: endSession('loadFailed'),
      },
      on: {
        'TOKEN.RECEIVED': [
          { guard: 'continuesSession', actions: 'storeToken' },
          { guard: 'isSingleLinkToken', target: 'singleLink', actions: 'startSession' },
          { guard: 'isMfaToken', target: 'mfaRequired', actions: 'startSession' },
          { guard: 'isUsableToken', target: 'loggingIn', reenter: true, actions: 'startSession' },
        ],
        'API.UNAUTHORIZED': endSession('loadFailed'),
      },
    },
    mfaRequired: {
      on: {
        'TOKEN.RECEIVED': [
          { guard: 'continuesSession', actions: 'storeToken' },
          { guard: 'isSingleLinkToken', target: 'singleLink', actions: 'startSession' },
          { guard: 'isMfaToken', target: 'mfaRequired', reenter: true, actions: 'startSession' },
          // The second factor passed: the same session now without `mfa`.
          { guard: 'isUsableToken', target: 'loggingIn', actions: 'startSession' },
        ],
        LOGOUT: 'loggingOut',
        'API.UNAUTHORIZED': endSession('unauthorized'),
      },
    },
    loggedIn: {
      type: 'parallel',
      states: {
        refresh: refreshRegion(),
        profile: {
          initial: 'ready',
          states: {
            ready: { on: { 'USER.RELOAD': 'reloading' } },
            reloading: {
              invoke: {
                id: 'reloadUser',
                src: 'loadUser',
                input: sessionInput,
                onDone: { target: 'ready', actions: 'storeUser' },
                // The old user stays; a 401/403 arrives as API.UNAUTHORIZED and ends the session.
                onError: 'ready',
              },
            },
          },
        },
      },
      on: {
        'TOKEN.RECEIVED': [{ guard: 'continuesSession', actions: 'storeToken' }, ...switchSession()],
        'USER.UPDATED': { actions: 'storeUser' },
        LOGOUT: 'loggingOut',
        'API.UNAUTHORIZED': endSession('unauthorized'),
      },
    },
    singleLink: {
      ...refreshRegion(),
      on: {
        'TOKEN.RECEIVED': [{ guard: 'continuesSession', actions: 'storeToken' }, ...switchSession()],
        LOGOUT: 'loggingOut',
        // The link's session was refused (expired, revoked, used up) or its loan call failed: not a page to
        // come back to after a login, so /login with the notice instead of ?redirect.
        'API.UNAUTHORIZED': endSession('linkFailed'),
        'SINGLE_LINK.FAILED': endSession('linkFailed'),
      },
    },
    loggingOut: {
      invoke: {
        id: 'logout',
        src: 'logout',
        input: sessionInput,
        onDone: endSession('logout'),
        // The server may already have ended the session (or be unreachable): the browser logs out anyway.
        onError: endSession('logout'),
      },
    },
  },
})

/** Token refresh every REFRESH_INTERVAL; a failed refresh waits for the next turn (a 401 logs out instead). */
function refreshRegion() {
  return {
    initial: 'waiting' as const,
    states: {
      waiting: { after: { REFRESH_INTERVAL: 'refreshing' } },
      refreshing: {
        invoke: {
          id: 'refreshToken',
          src: 'refreshToken' as const,
          input: sessionInput,
          onDone: 'waiting',
          onError: 'waiting',
        },
      },
    },
  }
}

/** A token of another session while one is open (someone logged in anew): the previous user's data goes. */
function switchSession() {
  return [
    {
      guard: 'isSingleLinkToken' as const,
      target: '#auth.singleLink',
      actions: ['resetClientData' as const, 'startSession' as const],
    },
    {
      guard: 'isMfaToken' as const,
      target: '#auth.mfaRequired',
      actions: ['resetClientData' as const, 'startSession' as const],
    },
    {
      guard: 'isUsableToken' as const,
      target: '#auth.loggingIn',
      actions: ['resetClientData' as const, 'startSession' as const],
    },
  ]
}

/**
 * Every way out of a session: the user becomes empty, token and cookie go, private data is reset. A logout or
 * an unauthorized answer leaves a session end for the route guards; a restored session the server refused
 * ends quietly (only the guards of a private page react, as for any visitor).
 */
function endSession(reason: SessionEndReason) {
  return {
    target: reason === 'loadFailed' ? '#auth.loggedOut.anonymous' : '#auth.loggedOut.sessionEnded',
    actions: [
      'clearSession' as const,
      'forgetToken' as const,
      'resetClientData' as const,
      { type: 'recordEnd' as const, params: { reason } },
      { type: 'announceEnd' as const, params: { reason } },
    ],
  }
}

export type AuthActor = ActorRefFrom<typeof authMachine>
export type AuthSnapshot = SnapshotFrom<typeof authMachine>

export type AuthStatus = 'loggedOut' | 'loggingIn' | 'mfaRequired' | 'loggedIn' | 'singleLink' | 'loggingOut'

export function authStatus(snapshot: AuthSnapshot): AuthStatus {
  const value = snapshot.value
  return (typeof value === 'string' ? value : Object.keys(value)[0]) as AuthStatus
}

/** Spec section 4: logged in means the loggedIn state, a non-empty user, and a token without the mfa flag. */
export function isLoggedIn(snapshot: AuthSnapshot): boolean {
  return (
    snapshot.matches('loggedIn') && snapshot.context.user !== null && snapshot.context.claims?.mfa === false
  )
}

/** Not waiting for the server: a route guard can decide. */
export function isSettled(snapshot: AuthSnapshot): boolean {
  return !snapshot.matches('loggingIn') && !snapshot.matches('loggingOut')
}

/** A back-office (admin) session: token type user, logged in. */
export function isBackOffice(snapshot: AuthSnapshot): boolean {
  return isLoggedIn(snapshot) && snapshot.context.claims?.type === 'user'
}

/** The session end the route guards must still act on (a logout or a 401/403 not yet taken to /login). */
export function pendingSessionEnd(snapshot: AuthSnapshot): SessionEnd | null {
  return snapshot.matches({ loggedOut: 'sessionEnded' }) ? snapshot.context.ended : null
}
