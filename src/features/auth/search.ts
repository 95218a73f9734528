import * as v from 'valibot'

/** `?redirect=/profile/...` on /login: where to go after logging in (same-site paths only, see afterLogin). */
export const loginSearchSchema = v.object({
  redirect: v.optional(v.pipe(v.string(), v.maxLength(500))),
})

/** `?lead_id=` on /affiliate/sleeper-otp: the single-link token. */
export const singleLinkSearchSchema = v.object({
  lead_id: v.optional(v.pipe(v.string(), v.maxLength(200))),
})
