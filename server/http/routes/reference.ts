import { calculatorConfigSchema } from '../../../domain/calculator-config'
import { readConfig } from '../../services/config'
import { ok } from '../envelope'
import { type AnyRoute, defineRoute } from '../route'

export const referenceRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/public/config/calculator',
    summary: 'Calculator limits and initial states (centavos and days)',
    tags: ['config'],
    access: 'public',
    response: calculatorConfigSchema,
    handler: async (c) =>
      ok(c, await readConfig(c.get('deps').database.db, 'calculator', calculatorConfigSchema)),
  }),
]
