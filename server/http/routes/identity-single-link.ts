/**
 * Single-link login (/affiliate/sleeper-otp): the link's token (lead_id) plus an SMS code to the client's phone
 * open a session that sees the active loan only. Only routes declared `singleLink: true` accept it.
 */
import { sendSingleLinkCode, singleLinkLogin } from '../../../domain/contract/identity'
import { clientAddress, sendToken } from '../../auth/transport'
import { assertHuman } from '../../providers/captcha'
import { maskRecipient } from '../../providers/messaging'
import { clientAccount } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { openSession } from '../../services/identity/sessions'
import { consumeLink, linkedClient, linkInvalid } from '../../services/identity/single-link'
import { deliverCode } from '../code-delivery'
import { ok } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const singleLinkRoutes: AnyRoute[] = [
  implement(sendSingleLinkCode, async (c, { body }) => {
    await assertHuman(deps(c).captcha, body.captchaToken, 'lead_otp', clientAddress(c))
    const { row } = await linkedClient(db(c), body.leadId, deps(c).now())
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
  }),

  implement(singleLinkLogin, async (c, { body }) => {
    const { secrets, logger, now } = deps(c)
    const at = now()
    const { link, row } = await linkedClient(db(c), body.leadId, at)
    assertCode(
      await checkCode(db(c), secrets.codeKey, 'single_link', row.phone, body.code, at, clientAccount(row.id)),
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
  }),
]
