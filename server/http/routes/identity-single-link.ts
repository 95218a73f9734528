/**
 * Single-link login (/affiliate/sleeper-otp): the link's token (lead_id) plus an SMS code to the client's phone
 * open a session that sees the active loan only. Only routes declared `singleLink: true` accept it.
 */

import { DomainError } from '../../../domain/errors'
import { singleLinkLoginSchema, singleLinkOtpSchema } from '../../../domain/identity'
import { clientAddress, sendToken } from '../../auth/transport'
import { assertHuman } from '../../providers/captcha'
import { maskRecipient } from '../../providers/messaging'
import { CLIENT_BLOCKED, clientAccount, findClient } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { openSession } from '../../services/identity/sessions'
import { consumeLink, findLiveLink, linkInvalid } from '../../services/identity/single-link'
import { deliverCode } from '../code-delivery'
import { ok } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, defineRoute } from '../route'

async function linkedClient(c: Parameters<typeof db>[0], leadId: string) {
  const link = await findLiveLink(db(c), leadId, deps(c).now())
  if (!link) throw linkInvalid()
  const row = await findClient(db(c), link.clientId)
  if (!row) throw linkInvalid()
  if (row.status === CLIENT_BLOCKED)
    throw new DomainError('forbidden', 'accountBlocked', 'The account is blocked.')
  return { link, row }
}

export const singleLinkRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/public/affiliates/leads/otp',
    summary: 'Send an SMS code to the phone of the client behind a single-link token (lead_id)',
    tags: ['identity'],
    access: 'public',
    body: singleLinkOtpSchema,
    handler: async (c, { body }) => {
      await assertHuman(deps(c).captcha, body.captchaToken, 'lead_otp', clientAddress(c))
      const { row } = await linkedClient(c, body.leadId)
      const sent = await deliverCode(c, {
        purpose: 'single_link',
        channel: 'sms',
        target: row.phone,
        owner: clientAccount(row.id),
      })
      // The masked number tells the holder where the code went without disclosing it.
      return ok(c, {
        sent: true,
        to: maskRecipient(row.phone),
        nextCodeAt: sent.nextCodeAt.toISOString(),
        codeExpiresAt: sent.expiresAt.toISOString(),
      })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/affiliates/leads/otp/login',
    summary: 'Trade a single-link token and its SMS code for a my-loan-only session (the token is used up)',
    tags: ['identity'],
    access: 'public',
    body: singleLinkLoginSchema,
    handler: async (c, { body }) => {
      const { secrets, logger, now } = deps(c)
      const at = now()
      const { link, row } = await linkedClient(c, body.leadId)
      assertCode(
        await checkCode(
          db(c),
          secrets.codeKey,
          'single_link',
          row.phone,
          body.code,
          at,
          clientAccount(row.id),
        ),
      )
      if (!(await consumeLink(db(c), link.id, at))) throw linkInvalid()
      const opened = await openSession(
        db(c),
        secrets.jwtSecret,
        { type: 'client', id: row.id, singleLink: true },
        at,
      )
      logger.info(
        { clientId: row.id, event: 'client.single_link_login' },
        'client logged in through a single link',
      )
      sendToken(c, opened.token)
      return ok(c, { singleLink: true, expiresIn: opened.expiresIn })
    },
  }),
]
