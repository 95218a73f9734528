/**
 * Promo codes in the back office (issue 19 item 6, docs/decisions/0035-maker-checker-and-config-versions.md): the
 * list with uses so far, and a new code or a change proposed for another administrator's approval (202 with the
 * proposal; POST /approvals/{id}/approve applies it).
 */
import {
  listPromoCodes,
  proposePromoCode,
  proposePromoCodeChange,
} from '../../../domain/contract/promo-codes'
import { listPromoCodes as listCodes, proposePromo } from '../../services/approvals/promo-code'
import { approvalView } from '../../services/approvals/store'
import { ok, okPage } from '../envelope'
import { type AnyRoute, implement } from '../route'

export const promoCodeRoutes: AnyRoute[] = [
  implement(listPromoCodes, async (c, { query }) => {
    const deps = c.get('deps')
    const { items, total } = await listCodes(deps.database.db, { ...query, now: deps.now() })
    return okPage(c, items, { ...query, total })
  }),
  implement(proposePromoCode, async (c, { body }) => {
    const db = c.get('deps').database.db
    const { code, ...terms } = body
    const proposal = await proposePromo(db, { action: 'create', code, terms, by: c.get('principal').id })
    return ok(c, (await approvalView(db, proposal.id))!, 202)
  }),
  implement(proposePromoCodeChange, async (c, { params, body }) => {
    const db = c.get('deps').database.db
    const proposal = await proposePromo(db, {
      action: 'change',
      code: params.code,
      terms: body,
      by: c.get('principal').id,
    })
    return ok(c, (await approvalView(db, proposal.id))!, 202)
  }),
]
