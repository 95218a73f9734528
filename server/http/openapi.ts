/**
 * OpenAPI 3.1 generated from the route registry: the same valibot schemas that validate each request.
 */
import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import type { AnyContract, Typed } from '../../domain/contract/define'

type Json = Record<string, unknown>

const schemaOf = (schema: v.GenericSchema): Json => {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
  }) as Json
  return rest
}

function parametersOf(schema: v.GenericSchema | undefined, where: 'path' | 'query') {
  if (!schema) return []
  const json = schemaOf(schema) as { properties?: Record<string, Json>; required?: string[] }
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }))
}

const envelope = (data: Json): Json => ({
  type: 'object',
  required: ['success', 'data', 'response'],
  properties: {
    success: { type: 'boolean' },
    data,
    response: { $ref: '#/components/schemas/ResponseStatus' },
  },
})

const isTyped = (answer: unknown): answer is Typed<unknown> =>
  typeof answer === 'object' && answer !== null && (answer as Typed<unknown>).typed === true

/** The document of every contract the server implements (server/http/app.ts passes them). */
export function buildOpenApi(routes: AnyContract[], version: string) {
  const paths: Record<string, Record<string, Json>> = {}
  for (const route of routes) {
    const path = `/web${route.path.replace(/:(\w+)/g, '{$1}')}`
    const operation: Json = {
      summary: route.summary,
      tags: route.tags,
      parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
      responses: {
        '200': {
          description: 'Success',
          ...(route.paginated
            ? {
                headers: Object.fromEntries(
                  ['x-page', 'x-per-page', 'x-total-count', 'x-count'].map((h) => [
                    h,
                    { schema: { type: 'integer' } },
                  ]),
                ),
              }
            : {}),
          content:
            route.answer === 'binary'
              ? { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
              : {
                  'application/json': {
                    schema: envelope(
                      route.response && !isTyped(route.response) ? schemaOf(route.response) : {},
                    ),
                  },
                },
        },
        '400': { $ref: '#/components/responses/ValidationError' },
        ...(route.access === 'public' ? {} : { '401': { $ref: '#/components/responses/Unauthorized' } }),
      },
    }
    if (route.access !== 'public') operation.security = [{ bearer: [] }]
    if (route.bodyType === 'multipart') {
      operation.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object' } } },
      }
    } else if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: schemaOf(route.body) } },
      }
    }
    paths[path] ??= {}
    paths[path][route.method] = operation
  }
  const errorBody = envelope({ type: 'null' })
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hiram lending API',
      version,
      description: 'The /web API of Hiram. Every answer uses the envelope { success, data, response }.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Violation: {
          type: 'object',
          required: ['propertyPath', 'message'],
          properties: { propertyPath: { type: 'string' }, message: { type: 'string' } },
        },
        ResponseStatus: {
          type: 'object',
          required: ['status'],
          properties: {
            status: { type: 'integer' },
            code: { type: 'string' },
            message: { type: 'string' },
            violations: { type: 'array', items: { $ref: '#/components/schemas/Violation' } },
          },
        },
      },
      responses: {
        ValidationError: {
          description: 'Invalid input, with field violations',
          content: { 'application/json': { schema: errorBody } },
        },
        Unauthorized: {
          description: 'Missing, expired or revoked token',
          content: { 'application/json': { schema: errorBody } },
        },
      },
    },
  }
}
