/**
 * A field violation as the API answers it (GUIDE section 3): the same shape as server/http/errors.ts, defined
 * here because domain/ never imports from server/.
 */
export interface Violation {
  propertyPath: string
  message: string
}
