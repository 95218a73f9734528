/** The deployment as the browser needs it (docs/decisions/0018). */
import { environmentSchema } from '../environment'
import { defineContract } from './define'

export const getEnvironment = defineContract({
  method: 'get',
  path: '/public/environment',
  summary: 'The deployment as the browser needs it: sandbox adapters (the banner) and the captcha script',
  tags: ['config'],
  access: 'public',
  response: environmentSchema,
})
