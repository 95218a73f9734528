/**
 * Extensions (rollovers) and payment schedules (issue 17): implements domain/contract/servicing.ts. The sign
 * calls follow the loan agreement's (lending.ts): without a code, the documents are rendered and the signing code
 * sent by SMS; with the code, it is checked (purpose 'amendment', bound to the client) and the amendment signed.
 * docs/decisions/0025-extensions-and-payment-schedules.md.
 */
import { and, eq } from 'drizzle-orm'
import * as servicing from '../../../domain/contract/servicing'
import { notFound } from '../../../domain/errors'
import { amendmentDocument } from '../../db/schema-servicing'
import { clientAccount } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import {
  chooseExtension,
  extensionApplicationFor,
  prepareExtensionSignature,
  signExtension,
} from '../../services/servicing/extensions'
import {
  activeScheduleView,
  agreeSchedule,
  prepareScheduleSignature,
  scheduleOfferFor,
} from '../../services/servicing/schedules'
import { deliverCode } from '../code-delivery'
import { binary, ok } from '../envelope'
import { callerOf, clientIdOf, currentClient, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

type Ctx = Parameters<typeof deliverCode>[0]

/** Sends the amendment's signing code to the client's phone; answers when the next one may be asked for. */
async function sendAmendmentCode(c: Ctx, phone: string, clientId: number) {
  const sent = await deliverCode(c, {
    purpose: 'amendment',
    channel: 'sms',
    target: phone,
    owner: clientAccount(clientId),
  })
  return {
    sent: true as const,
    nextCodeAt: sent.nextCodeAt.toISOString(),
    codeExpiresAt: sent.expiresAt.toISOString(),
  }
}

async function assertAmendmentCode(c: Ctx, phone: string, clientId: number, code: string) {
  const { secrets, now } = deps(c)
  assertCode(
    await checkCode(db(c), secrets.codeKey, 'amendment', phone, code, now(), clientAccount(clientId)),
  )
}

export const servicingRoutes: AnyRoute[] = [
  implement(servicing.chooseRollover, async (c, { body }) =>
    ok(c, await chooseExtension(deps(c), clientIdOf(c), body.type, callerOf(c))),
  ),

  implement(servicing.createRolloverApplication, async (c, { params }) =>
    ok(c, await extensionApplicationFor(deps(c), clientIdOf(c), params.id, params.rid, callerOf(c)), 201),
  ),

  implement(servicing.signRolloverDocument, async (c, { params, body }) => {
    const me = await currentClient(c)
    if (body.code === undefined) {
      const documents = await prepareExtensionSignature(
        deps(c),
        me.id,
        params.loanId,
        params.rid,
        params.appId,
      )
      return ok(c, { ...(await sendAmendmentCode(c, me.phone, me.id)), documents })
    }
    await assertAmendmentCode(c, me.phone, me.id, body.code)
    return ok(c, await signExtension(deps(c), me.id, params.loanId, params.rid, params.appId, callerOf(c)))
  }),

  implement(servicing.getPaymentSchedule, async (c) =>
    ok(c, await activeScheduleView(db(c), clientIdOf(c), deps(c).now())),
  ),

  implement(servicing.getScheduleOffer, async (c, { params }) =>
    ok(c, await scheduleOfferFor(deps(c), clientIdOf(c), params.id)),
  ),

  implement(servicing.submitScheduleOffer, async (c, { params, body }) => {
    const me = await currentClient(c)
    if (body.code === undefined) {
      const documents = await prepareScheduleSignature(deps(c), me.id, params.id)
      return ok(c, { ...(await sendAmendmentCode(c, me.phone, me.id)), documents })
    }
    await assertAmendmentCode(c, me.phone, me.id, body.code)
    return ok(c, await agreeSchedule(deps(c), me.id, params.id, callerOf(c)))
  }),

  implement(servicing.downloadAmendmentDocument, async (c, { params }) => {
    const [doc] = await db(c)
      .select()
      .from(amendmentDocument)
      .where(
        and(
          eq(amendmentDocument.id, params.docId),
          eq(amendmentDocument.loanId, params.id),
          eq(amendmentDocument.clientId, clientIdOf(c)),
        ),
      )
    if (!doc) throw notFound('Document')
    return binary(c, doc.content as Uint8Array<ArrayBuffer>, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${doc.type}-${doc.id}.pdf"`,
      'x-content-sha256': doc.sha256,
    })
  }),
]
