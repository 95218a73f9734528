/**
 * The auth session for components. `loggedIn` follows spec section 4 (state loggedIn, a user, no mfa flag);
 * `send` takes the machine's events (LOGOUT, USER.RELOAD, USER.UPDATED...).
 */
import { useSelector } from '@xstate/react'
import {
  type AuthSnapshot,
  type AuthStatus,
  type AuthUser,
  authStatus,
  isLoggedIn,
  type SubjectType,
} from '../../../machines/auth.machine'
import { useAuthActor } from '../../app/app-context'

export interface AuthView {
  loggedIn: boolean
  status: AuthStatus
  user: AuthUser | null
  tokenType: SubjectType | null
  mfa: boolean
  singleLink: boolean
}

export function selectAuth(snapshot: AuthSnapshot): AuthView {
  const { user, claims } = snapshot.context
  return {
    loggedIn: isLoggedIn(snapshot),
    status: authStatus(snapshot),
    user,
    tokenType: claims?.type ?? null,
    mfa: claims?.mfa ?? false,
    singleLink: snapshot.matches('singleLink'),
  }
}

const sameView = (a: AuthView, b: AuthView) =>
  a.loggedIn === b.loggedIn &&
  a.status === b.status &&
  a.user === b.user &&
  a.tokenType === b.tokenType &&
  a.mfa === b.mfa &&
  a.singleLink === b.singleLink

export function useAuth() {
  const auth = useAuthActor()
  const view = useSelector(auth, selectAuth, sameView)
  return { ...view, send: auth.send }
}

/** Just the spec's "logged in" flag, for components that need nothing else (the calculator). */
export function useLoggedIn(): boolean {
  return useSelector(useAuthActor(), isLoggedIn)
}
