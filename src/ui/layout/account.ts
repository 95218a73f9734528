/** The signed-in person as the header needs it; the auth session fills it in later. */
export interface HeaderUser {
  firstName?: string | null
  email?: string | null
}

/** The first name, or else the part of the e-mail before the at sign (spec section 2, Layout). */
export function displayName(user: HeaderUser): string {
  const first = user.firstName?.trim()
  if (first) return first
  return user.email?.split('@')[0]?.trim() ?? ''
}
