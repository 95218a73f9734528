import type { AnyRoute } from '../route'
import { referenceRoutes } from './reference'

/** Every /web route. Each resource file exports its list; add new resources here. */
export const allRoutes: AnyRoute[] = [...referenceRoutes]
