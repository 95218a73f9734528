/**
 * Offers and promo codes (spec section 7). Amounts are centavos, terms days, in paths as in bodies.
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import {
  getBackOfficeClientOffer,
  getLendingConfig,
  listConfigVersions,
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
import { REFERRALS_CONFIG_KEY } from '../../../domain/referrals'
import { proposeConfigChange } from '../../services/approvals/config-change'
import { approvalView } from '../../services/approvals/store'
import { configVersions, readVersion } from '../../services/config'
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
} from '../../services/pricing'
import { readReferralConfig } from '../../services/referrals/referrals'
import type { AppEnv } from '../context'
import { ok, okPage, SerialisedJson } from '../envelope'
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
    const [lending, servicing, limits, referrals, referralsVersion] = await Promise.all([
      lendingConfig(db),
      readVersion(db, 'servicing'),
      readVersion(db, LIMITS_CONFIG_KEY),
      readReferralConfig(db),
      readVersion(db, REFERRALS_CONFIG_KEY),
    ])
    if (!servicing || !limits) throw notFound('Configuration')
    const { versions, ...documents } = lending
    return ok(c, {
      ...documents,
      servicing: v.parse(servicingConfigSchema, servicing.value),
      limits: v.parse(limitGrowthSchema, limits.value),
      referrals,
      versions: {
        ...versions,
        servicing: servicing.version,
        limits: limits.version,
        referrals: referralsVersion?.version ?? 0,
      },
    })
  }),
  // A change is a proposal now (issue 19 item 6): 202 with it; another administrator's approval applies it.
  implement(saveConfig, async (c, { params, body }) => {
    const db = c.get('deps').database.db
    const proposal = await proposeConfigChange(db, {
      key: params.key,
      value: body.value,
      note: body.note,
      effectiveAt: body.effectiveAt ? new Date(body.effectiveAt) : null,
      by: c.get('principal').id,
    })
    return ok(c, (await approvalView(db, proposal.id))!, 202)
  }),
  implement(listConfigVersions, async (c, { query }) => {
    const { items, total } = await configVersions(c.get('deps').database.db, query)
    return okPage(c, items, { ...query, total })
  }),
]
