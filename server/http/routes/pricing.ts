/**
 * Offers and promo codes (spec section 7). Amounts are centavos, terms days, in paths as in bodies.
 */
import type { Context } from 'hono'
import {
  getBackOfficeClientOffer,
  getLendingConfig,
  saveConfig,
} from '../../../domain/contract/lending-config'
import {
  getClientOffer,
  getGuestOffer,
  validateClientPromo,
  validateGuestPromo,
} from '../../../domain/contract/pricing'
import { invalid, notFound } from '../../../domain/errors'
import { LIMITS_CONFIG_KEY, limitGrowthSchema } from '../../../domain/loan/limits'
import { servicingConfigSchema } from '../../../domain/loan/servicing-config'
import { offerRefusal } from '../../../domain/offer-refusal'
import { manilaDate } from '../../../domain/pricing/manila-date'
import { readConfig, writeConfig } from '../../services/config'
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
import { type AnyRoute, implement } from '../route'

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
  implement(
    getGuestOffer,
    (c, { params, query }) => {
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
    { replay: replayGuestOffer },
  ),
  implement(getClientOffer, async (c, { params, query }) => {
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
    if (refusal.length) throw invalid(refusal)
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
        // With an open loan the calculator prices an additional loan (its own min, ADR 0030).
        additionalLoan: facts.additionalLoan,
      },
      now(),
    )
    return ok(c, serialised(offer))
  }),
  implement(validateGuestPromo, async (c, { body }) => {
    const { database, now } = c.get('deps')
    const { promo: _resolved, ...answer } = await checkPromo(database.db, body.promoCode, 'guest', now())
    return ok(c, answer)
  }),
  implement(validateClientPromo, async (c, { body }) => {
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
  }),
  implement(getBackOfficeClientOffer, async (c, { params, query }) => {
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
  }),
  implement(getLendingConfig, async (c) => {
    const db = c.get('deps').database.db
    const [lending, servicing, limits] = await Promise.all([
      lendingConfig(db),
      readConfig(db, 'servicing', servicingConfigSchema),
      readConfig(db, LIMITS_CONFIG_KEY, limitGrowthSchema),
    ])
    return ok(c, { ...lending, servicing, limits })
  }),
  implement(saveConfig, async (c, { params, body }) => {
    const db = c.get('deps').database.db
    // The servicing rules stand alone: the legal caps are checked on every quote (domain/loan/extension.ts).
    if (params.key === 'servicing')
      return ok(c, await writeConfig(db, 'servicing', servicingConfigSchema, body.value, body.note))
    // The repeat-limit steps stand alone too: a limit never exceeds the calculator's repeat maximum (domain/loan/limits.ts).
    if (params.key === 'limits')
      return ok(c, await writeConfig(db, LIMITS_CONFIG_KEY, limitGrowthSchema, body.value, body.note))
    return ok(c, await saveLendingConfig(db, params.key, body.value, body.note))
  }),
]
