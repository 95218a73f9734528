/**
 * Offers and promo codes (spec section 7). Amounts are centavos, terms days, in paths as in bodies.
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import { calculatorConfigSchema } from '../../../domain/calculator-config'
import { idString } from '../../../domain/ids'
import { offerSchema } from '../../../domain/offer'
import { offerRefusal } from '../../../domain/offer-refusal'
import { pricingConfigShapeSchema } from '../../../domain/pricing/config'
import { manilaDate } from '../../../domain/pricing/manila-date'
import { promoCodeSchema } from '../../../domain/pricing/promo'
import { safeMultilineString, safeString } from '../../../domain/safe-text'
import { findClient } from '../../services/identity/clients'
import { lendingFacts } from '../../services/lending/applications'
import {
  ConfigMemo,
  checkPromo,
  freshLendingConfig,
  type LendingConfig,
  lendingConfig,
  OFFER_MEMO_LIMIT,
  type PricedOffer,
  priceOffer,
  priceOfferNow,
  saveLendingConfig,
} from '../../services/pricing'
import type { AppEnv } from '../context'
import { ok, SerialisedJson } from '../envelope'
import { notFound, validationFailed } from '../errors'
import { type AnyRoute, defineRoute } from '../route'

const centavosParam = v.pipe(
  safeString(),
  v.regex(/^\d{1,12}$/, 'The amount must be a whole number of centavos.'),
  v.transform(Number),
)
const daysParam = v.pipe(
  safeString(),
  v.regex(/^\d{1,4}$/, 'The term must be a whole number of days.'),
  v.transform(Number),
)
const idParam = idString(undefined, 'The id must be a number.')

/** The optional borrowers advantage package is accepted by default (spec section 9) unless turned off. */
const optionalFeeQuery = v.optional(
  v.pipe(
    v.picklist(
      ['true', 'false', '1', '0', 'borrowers_advantage_package_fee', 'none'],
      'optionalFee is true or false.',
    ),
    v.transform((value) => value === 'true' || value === '1' || value === 'borrowers_advantage_package_fee'),
  ),
  'true',
)
const promoQuery = v.optional(
  v.pipe(
    safeString(),
    v.trim(),
    v.transform((s) => s || undefined),
    v.optional(promoCodeSchema),
  ),
)

const pricedOfferSchema = v.object({
  ...offerSchema.entries,
  promo: v.nullable(v.object({ code: v.string(), status: v.string(), applied: v.boolean() })),
})

const promoAnswerSchema = v.object({ code: v.string(), status: v.string(), valid: v.boolean() })

/** The JSON text of a priced offer, made once per memoised offer (server/services/pricing.ts). */
const offerTexts = new WeakMap<PricedOffer, SerialisedJson>()
function serialised(offer: PricedOffer) {
  let text = offerTexts.get(offer)
  if (!text) {
    text = new SerialisedJson(JSON.stringify(offer))
    offerTexts.set(offer, text)
  }
  return text
}

/**
 * The guest offer's answers by request path and query, per configuration read and Manila day: nothing else
 * changes the answer to a request without a promo code (a promo code's answer depends on its uses, in the
 * database, and is never kept). The calculator's slider goes back and forth over the same grid, so most
 * requests are answers given before and are sent again without parsing them again. Only answers that passed
 * validation are kept, and no more than the offer memo's bound: odd query strings cannot grow it without end.
 */
const guestAnswers = new ConfigMemo<SerialisedJson>(OFFER_MEMO_LIMIT)

/** The request's path and query and its day; undefined for a request with a promo code. */
function guestAnswerKey(c: Context<AppEnv>) {
  const url = c.req.url
  const target = url.slice(url.indexOf('/', url.indexOf('//') + 2))
  if (/[?&]promo_name=[^&]/.test(target)) return undefined
  return `${manilaDate(c.get('deps').now())}|${target}`
}

function replayGuestOffer(c: Context<AppEnv>) {
  const config = freshLendingConfig(c.get('deps').database.db)
  const key = config && guestAnswerKey(c)
  const text = key && guestAnswers.get(config, key)
  return text ? ok(c, text) : undefined
}

function rememberGuestOffer(c: Context<AppEnv>, config: LendingConfig, text: SerialisedJson) {
  const key = guestAnswerKey(c)
  if (key) guestAnswers.set(config, key, text)
}

export const pricingRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/public/arithmetic/offer/stl/:sequence_type/:amount/:term',
    summary:
      'Guest offer: the price of an amount and a term for a visitor (first) or a repeat client (repeated)',
    tags: ['pricing'],
    access: 'public',
    params: v.object({
      sequence_type: v.picklist(['first', 'repeated'], 'sequence_type is first or repeated.'),
      amount: centavosParam,
      term: daysParam,
    }),
    query: v.object({ promo_name: promoQuery, optionalFee: optionalFeeQuery }),
    response: pricedOfferSchema,
    replay: replayGuestOffer,
    handler: (c, { params, query }) => {
      const { database, now } = c.get('deps')
      // The configuration the offer is priced with when it is priced at once (the cache is fresh).
      const config = freshLendingConfig(database.db)
      const offer = priceOfferNow(
        database.db,
        {
          kind: params.sequence_type === 'first' ? 'guest' : 'repeat',
          amount: params.amount,
          term: params.term,
          withPackageFee: query.optionalFee,
          promoCode: query.promo_name,
        },
        now(),
      )
      if (offer instanceof Promise) return offer.then((o) => ok(c, serialised(o)))
      if (config) rememberGuestOffer(c, config, serialised(offer))
      return ok(c, serialised(offer))
    },
  }),
  defineRoute({
    method: 'get',
    path: '/private/client/arithmetic/offer/stl/:amount/:term',
    summary:
      "The logged-in client's offer: first-loan discount or repeat pricing, within the available amount",
    tags: ['pricing'],
    access: 'client',
    params: v.object({ amount: centavosParam, term: daysParam }),
    query: v.object({ promo_name: promoQuery, optionalFee: optionalFeeQuery }),
    response: pricedOfferSchema,
    handler: async (c, { params, query }) => {
      const { database, now } = c.get('deps')
      const client = await findClient(database.db, c.get('principal').id)
      if (!client) throw notFound('Client')
      // Repeat pricing from the first paid loan; never above what the client may borrow now.
      const facts = await lendingFacts(database.db, client.id)
      // A refusal says why and what to choose instead (issue 13): the calculator shows it as it stands.
      const refusal = offerRefusal(
        (await lendingConfig(database.db)).calculator,
        facts,
        params.amount,
        params.term,
      )
      if (refusal.length) throw validationFailed(refusal)
      const offer = await priceOffer(
        database.db,
        {
          kind: facts.kind,
          amount: params.amount,
          term: params.term,
          withPackageFee: query.optionalFee,
          promoCode: query.promo_name,
          clientId: client.id,
          maxAmount: facts.availableAmount,
        },
        now(),
      )
      return ok(c, serialised(offer))
    },
  }),
  defineRoute({
    method: 'put',
    path: '/public/client/promocode/validate',
    summary:
      'Checks a promo code for a visitor: valid, expired, not_started, used, unknown or wrong_client_kind',
    tags: ['pricing'],
    access: 'public',
    body: v.object({ promoCode: promoCodeSchema }),
    response: promoAnswerSchema,
    handler: async (c, { body }) => {
      const { database, now } = c.get('deps')
      const { promo: _resolved, ...answer } = await checkPromo(database.db, body.promoCode, 'guest', now())
      return ok(c, answer)
    },
  }),
  defineRoute({
    method: 'put',
    path: '/private/client/promocode/validate',
    summary: "Checks a promo code for the logged-in client, counting the client's own uses",
    tags: ['pricing'],
    access: 'client',
    body: v.object({ promoCode: promoCodeSchema }),
    response: promoAnswerSchema,
    handler: async (c, { body }) => {
      const { database, now } = c.get('deps')
      const clientId = c.get('principal').id
      const { promo: _resolved, ...answer } = await checkPromo(
        database.db,
        body.promoCode,
        (await lendingFacts(database.db, clientId)).kind,
        now(),
        clientId,
      )
      return ok(c, answer)
    },
  }),
  defineRoute({
    method: 'get',
    path: '/private/back-office/client/:id/arithmetic/offer',
    summary: 'Back office: the offer a given client would get',
    tags: ['pricing', 'back-office'],
    access: 'user',
    params: v.object({ id: idParam }),
    query: v.object({
      finance_type: v.optional(v.picklist(['stl']), 'stl'),
      sequence_type: v.optional(v.picklist(['first', 'repeated'])),
      amount: centavosParam,
      term: daysParam,
      optionalFee: optionalFeeQuery,
    }),
    response: pricedOfferSchema,
    handler: async (c, { params, query }) => {
      const { database, now } = c.get('deps')
      const client = await findClient(database.db, params.id)
      if (!client) throw notFound('Client')
      const kind = query.sequence_type
        ? query.sequence_type === 'first'
          ? 'new'
          : 'repeat'
        : (await lendingFacts(database.db, client.id)).kind
      const offer = await priceOffer(
        database.db,
        {
          kind,
          amount: query.amount,
          term: query.term,
          withPackageFee: query.optionalFee,
          clientId: client.id,
        },
        now(),
      )
      return ok(c, offer)
    },
  }),
  defineRoute({
    method: 'get',
    path: '/private/back-office/config/lending',
    summary: 'Back office: the calculator limits and the pricing parameters in force',
    tags: ['config', 'back-office'],
    access: 'user',
    response: v.object({ calculator: calculatorConfigSchema, pricing: pricingConfigShapeSchema }),
    handler: async (c) => ok(c, await lendingConfig(c.get('deps').database.db)),
  }),
  defineRoute({
    method: 'put',
    path: '/private/back-office/config/:key',
    summary:
      'Back office: save the calculator or pricing document; refused (422) when any offer could break a legal cap',
    tags: ['config', 'back-office'],
    access: 'user',
    params: v.object({ key: v.picklist(['calculator', 'pricing']) }),
    body: v.object({
      value: v.unknown(),
      note: v.optional(v.pipe(safeMultilineString(), v.maxLength(500)), ''),
    }),
    handler: async (c, { params, body }) => {
      const saved = await saveLendingConfig(c.get('deps').database.db, params.key, body.value, body.note)
      return ok(c, saved)
    },
  }),
]
