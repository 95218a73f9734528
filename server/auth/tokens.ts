/**
 * Signed JWTs (HS256 only: the verifier refuses every other algorithm, `none` included). A token is a pointer
 * to a server-side session; the session row decides whether it is still good.
 */
import { errors, jwtVerify, SignJWT } from 'jose'

export type SubjectType = 'client' | 'user'

export interface TokenClaims {
  /** Session id. */
  sid: string
  sub: string
  type: SubjectType
  mfa: boolean
  /** Single-link session: my-loan only. */
  sl: boolean
}

export const TOKEN_TTL_SECONDS = 15 * 60
const ISSUER = 'hiram'
const AUDIENCE = 'hiram-web'

export async function signToken(secret: Uint8Array, claims: TokenClaims, now = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new SignJWT({ sid: claims.sid, type: claims.type, mfa: claims.mfa, sl: claims.sl })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_TTL_SECONDS)
    .sign(secret)
}

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: 'expired' | 'invalid' }

export async function verifyToken(
  secret: Uint8Array,
  token: string,
  now = new Date(),
): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    const { sid, type, mfa, sl, sub } = payload as Record<string, unknown>
    if (typeof sid !== 'string' || (type !== 'client' && type !== 'user') || typeof sub !== 'string') {
      return { ok: false, reason: 'invalid' }
    }
    return { ok: true, claims: { sid, sub, type, mfa: mfa === true, sl: sl === true } }
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}
