/**
 * Issue 13, item 11: when the money is paid out the client gets an SMS (and an e-mail copy) with the amount,
 * where it went, the due date ('MMM DD, YYYY', Manila) and the total to repay; sent after the payout's
 * transaction committed, and once, however often the job runs.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatDate } from '../../domain/format'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { lendingJob, loan } from '../../server/db/schema-lending'
import { createLogger } from '../../server/logger'
import { createSandboxMessaging, type MessagingProvider } from '../../server/providers/messaging'
import { drainJobs } from '../../server/services/lending/jobs'
import { PAYOUT_NOTICE_JOB, runPayoutNotice } from '../../server/services/lending/payout-notice'
import { createTestApp } from '../support/app'
import { outboxFor, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { apply, expectStatus, readyClient, runJobs, sign } from './lending-helpers'

/** The sandbox provider, checking at each send that the payout's loan is already committed and visible. */
function watchingMessaging(getApp: () => TestApp, failFirstPayoutSms: { left: number }): MessagingProvider {
  const sandbox = createSandboxMessaging(createLogger('silent'), false)
  return {
    name: 'sandbox',
    async send(db, message) {
      if (message.purpose === 'payout_sent') {
        const t = getApp()
        // Read through the app's own handle: inside an open transaction on PGlite this would never answer.
        const loans = await t.database.db.select({ id: loan.id }).from(loan)
        if (!loans.length) throw new Error('payout notice sent before the loan was committed')
        if (message.channel === 'sms' && failFirstPayoutSms.left > 0) {
          failFirstPayoutSms.left--
          throw new Error('gateway down')
        }
      }
      return sandbox.send(db, message)
    },
  }
}

let t: TestApp
const failures = { left: 0 }

beforeAll(async () => {
  t = await createTestApp({}, { deps: { messaging: watchingMessaging(() => t, failures) } })
  await seedSmallPsgc(t)
})
afterAll(() => t?.close())

async function paidOut(firstName: string, payout: Parameters<typeof readyClient>[2]) {
  const c = await readyClient(t, firstName, payout)
  const app = (await expectStatus(apply(t, c), 201)).body.data
  await runJobs(t)
  expect((await sign(t, c, app.id)).status).toBe(200)
  await runJobs(t)
  const [row] = await t.database.db.select().from(loan).where(eq(loan.applicationId, app.id))
  return { c, app, loan: row! }
}

const payoutMessages = (recipient: string) => outboxFor(t, recipient, 'payout_sent')

describe('payout notice', () => {
  it('bank transfer: one SMS and one e-mail with amount, bank and last 4 digits, due date and total', async () => {
    const { c, loan: l } = await paidOut('Juan', { type: 'bank_transfer', accountNumber: '001234567890' })
    const [sms, ...moreSms] = await payoutMessages(c.phone)
    expect(moreSms).toHaveLength(0)
    expect(sms!.channel).toBe('sms')
    expect(sms!.body).toContain('PHP 5,000.00')
    expect(sms!.body).toContain('BDO Unibank account ending 7890')
    expect(sms!.body).not.toContain('001234567890')
    expect(formatDate(l.dueDate)).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4}$/)
    expect(sms!.body).toContain(`by ${formatDate(l.dueDate)}`)
    const total = (l.total / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })
    expect(sms!.body).toContain(`repay PHP ${total}`)
    // The payment reference the repay pages ask for (issue 16, item 4).
    expect(sms!.body).toContain(`payment reference ${paymentReferenceOf(c.clientId)}`)
    const emails = await payoutMessages(c.email)
    expect(emails).toHaveLength(1)
    expect(emails[0]!.body).toBe(sms!.body)
  })

  it('cash pickup: the partner and the pickup number', async () => {
    const { c } = await paidOut('Juan', { type: 'cash_pickup' })
    const messages = await payoutMessages(c.phone)
    expect(messages).toHaveLength(1)
    expect(messages[0]!.body).toMatch(/ready for pickup: Cebuana Lhuillier, pickup number CP\d{10}/)
  })

  it('idempotent: running the job again, by two workers at once, sends nothing more', async () => {
    const { c, app } = await paidOut('Juan', { type: 'bank_transfer', accountNumber: '005555666677' })
    const [job] = await t.database.db
      .select()
      .from(lendingJob)
      .where(and(eq(lendingJob.kind, PAYOUT_NOTICE_JOB), eq(lendingJob.applicationId, app.id)))
    expect(job?.doneAt).not.toBeNull()
    // A retried job (a crash before its end was recorded, a second process) finds it taken.
    const again = { ...job!, doneAt: null }
    expect(await Promise.all([runPayoutNotice(t.deps, again), runPayoutNotice(t.deps, again)])).toEqual([
      'skipped',
      'skipped',
    ])
    await t.database.db.update(lendingJob).set({ doneAt: null }).where(eq(lendingJob.id, job!.id))
    const both = await Promise.all([runPayoutNotice(t.deps, again), runPayoutNotice(t.deps, again)])
    expect(both.sort()).toEqual(['sent', 'skipped'])
    await runJobs(t)
    // The one sent by the payout, and the one sent after the test reopened the job: never two at once.
    expect(await payoutMessages(c.phone)).toHaveLength(2)
  })

  it('a gateway failure leaves the notice due; the worker sends it later, once', async () => {
    failures.left = 1
    const { c, app } = await paidOut('Juan', { type: 'bank_transfer', accountNumber: '007777888899' })
    expect(await payoutMessages(c.phone)).toHaveLength(0)
    const [job] = await t.database.db
      .select()
      .from(lendingJob)
      .where(and(eq(lendingJob.kind, PAYOUT_NOTICE_JOB), eq(lendingJob.applicationId, app.id)))
    expect(job).toMatchObject({ doneAt: null, lastError: 'Error' })
    await drainJobs({ ...t.deps, now: () => new Date(Date.now() + 10 * 60_000) })
    await drainJobs({ ...t.deps, now: () => new Date(Date.now() + 20 * 60_000) })
    expect(await payoutMessages(c.phone)).toHaveLength(1)
  })

  it('a failed payout sends no notice', async () => {
    const { c, loan: draft } = await paidOut('Juan', { type: 'bank_transfer', accountNumber: '009876540000' })
    // The loan stays a draft (status 1): no money left.
    expect(draft).toMatchObject({ status: 1, state: 'draft' })
    expect(await payoutMessages(c.phone)).toHaveLength(0)
  })
})
