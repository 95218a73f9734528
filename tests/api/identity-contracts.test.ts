/**
 * The answers of the identity, back-office, affiliate, environment and health calls are what their contracts
 * (domain/contract/) say: every successful answer's `data` parses with the contract's response schema and
 * loses nothing doing so (the schema names every field the server sends). The browser's types come from those
 * schemas, so a field the server adds or drops without its contract fails here, not in a page.
 */
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as affiliate from '../../domain/contract/affiliate'
import * as backOffice from '../../domain/contract/back-office'
import type { AnyContract } from '../../domain/contract/define'
import * as environment from '../../domain/contract/environment'
import * as health from '../../domain/contract/health'
import * as identity from '../../domain/contract/identity'
import {
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  seedFirstUser,
} from '../../server/services/identity/users'
import { createTestApp } from '../support/app'
import { contractsOf } from '../support/contract-answers'
import {
  type CallOptions,
  type ContractInput,
  callContract,
  lastCode,
  later,
  newAddress,
  newEmail,
  newPhone,
  PASSWORD,
  type SignedUp,
  signUp,
  type TestApp,
  tokenOf,
} from './identity-helpers'

const modules = { identity, backOffice, affiliate, environment, health }
const contracts = Object.values(modules).flatMap((module) => contractsOf(module))

describe('identity, back-office, affiliate, environment and health answers', () => {
  let t: TestApp
  const answered = new Set<AnyContract>()

  const request = (contract: AnyContract, input: ContractInput = {}, options: CallOptions = {}) =>
    callContract(t, contract, input, options)

  /** The call succeeds with `status`, and its data is exactly what the contract's response schema describes. */
  const expectAnswer = async (
    contract: AnyContract,
    input: ContractInput = {},
    options: CallOptions = {},
    status = 200,
  ) => {
    const answer = await request(contract, input, options)
    expect(answer.status, `${contract.path}: ${JSON.stringify(answer.body.response)}`).toBe(status)
    const data = answer.body.data
    expect(v.parse(contract.response as v.GenericSchema, data), contract.path).toEqual(data)
    answered.add(contract)
    return answer
  }

  let client: SignedUp
  beforeAll(async () => {
    t = await createTestApp()
    await seedFirstUser(t.database.db, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD })
    client = await signUp(t)
  })
  afterAll(() => t.close())

  it('the environment and the health probes', async () => {
    await expectAnswer(environment.getEnvironment)
    await expectAnswer(health.getLiveness)
    await expectAnswer(health.getReadiness)
  })

  it('sign-up, the phone and e-mail codes and their verification', async () => {
    const email = newEmail()
    await expectAnswer(identity.checkAvailability, { params: { key: 'email', value: email } })
    const body = (phone: string) => ({ mobilePhone: { number: phone }, captchaToken: 'ok' })
    await expectAnswer(identity.sendPublicPhoneCode, { body: body(newPhone()) }, { address: newAddress() })
    await expectAnswer(identity.sendPublicPhoneCodeTs, { body: body(newPhone()) }, { address: newAddress() })
    const phone = newPhone()
    const signed = await expectAnswer(
      identity.signUp,
      {
        body: {
          mobilePhone: { number: phone },
          email,
          password: PASSWORD,
          passwordRepeat: PASSWORD,
          consents: { terms: true, privacy: true },
          captchaToken: 'ok',
        },
      },
      { address: newAddress() },
      201,
    )
    const token = tokenOf(signed)
    await later(t, 61_000, () => expectAnswer(identity.sendPhoneCode, {}, { token }))
    await later(t, 122_000, () => expectAnswer(identity.sendPhoneCodeTs, {}, { token }))
    const code = await lastCode(t, phone, 'phone_verify')
    await expectAnswer(identity.verifyPhoneTs, { body: { code } }, { token })
    // Verified already: the same answer without a code check.
    await expectAnswer(identity.verifyPhone, { body: { code: '000' } }, { token })
    await expectAnswer(
      identity.sendPublicEmailCode,
      { body: { email: newEmail(), captchaToken: 'ok' } },
      { address: newAddress() },
    )
    await expectAnswer(identity.sendEmailCode, {}, { token })
    await expectAnswer(
      identity.verifyEmail,
      { body: { code: await lastCode(t, email, 'email_verify') } },
      { token },
    )
  })

  it('logins with and without the second factor, the client, refresh and logout', async () => {
    const credentials = { login: client.phone, password: PASSWORD, deviceId: client.deviceId }
    const trusted = await expectAnswer(identity.clientLogin, { body: { ...credentials, captchaToken: 'ok' } })
    const token = tokenOf(trusted)
    await expectAnswer(identity.getClient, {}, { token })
    await expectAnswer(identity.refreshClientToken, {}, { token })
    const risky = await later(t, 61_000, () =>
      expectAnswer(identity.clientLogin, { body: { ...credentials, captchaToken: 'sandbox-risky' } }),
    )
    const pending = tokenOf(risky)
    await later(t, 122_000, () => expectAnswer(identity.resendClientLoginCode, {}, { token: pending }))
    const code = await lastCode(t, client.phone, 'login_mfa')
    await expectAnswer(identity.completeClientLogin, { body: { code } }, { token: pending })
    await expectAnswer(identity.clientLogout, {}, { token })
  })

  it('credential changes and password recovery', async () => {
    const owner = await signUp(t)
    const token = owner.token
    const password = 'another456'
    await expectAnswer(
      identity.changePassword,
      { body: { oldPassword: PASSWORD, password, passwordRepeat: password } },
      { token },
    )
    const phone = newPhone()
    await expectAnswer(identity.sendChangePhoneCode, { body: { mobilePhone: { number: phone } } }, { token })
    await expectAnswer(
      identity.changePhone,
      { body: { mobilePhone: { number: phone }, code: await lastCode(t, phone, 'change_phone') } },
      { token },
    )
    const email = newEmail()
    await expectAnswer(identity.sendChangeEmailCode, { body: { email } }, { token })
    await expectAnswer(
      identity.changeEmail,
      { body: { email, code: await lastCode(t, email, 'change_email') } },
      { token },
    )
    // The new number was sent a code a moment ago: the recovery code waits out its minute.
    await later(t, 61_000, () =>
      expectAnswer(
        identity.recoverPassword,
        { body: { login: email, captchaToken: 'ok' } },
        { address: newAddress() },
      ),
    )
    const code = await lastCode(t, phone, 'recover_password')
    await expectAnswer(identity.recoverPassword, {
      body: { login: email, code, password: PASSWORD, passwordRepeat: PASSWORD },
    })
  })

  it('the back office: login with its second factor, the user, the outbox, blocking and single links', async () => {
    const login = { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD, captchaToken: 'ok' }
    const fresh = await expectAnswer(backOffice.userLogin, {
      body: { ...login, deviceId: 'contract-laptop-1' },
    })
    const pending = tokenOf(fresh)
    await later(t, 61_000, () => expectAnswer(backOffice.resendUserLoginCode, {}, { token: pending }))
    const code = await lastCode(t, DEFAULT_ADMIN_EMAIL, 'login_mfa')
    const done = await expectAnswer(backOffice.completeUserLogin, { body: { code } }, { token: pending })
    const admin = tokenOf(done)
    const trusted = await expectAnswer(backOffice.userLogin, {
      body: { ...login, deviceId: 'contract-laptop-1' },
    })
    const user = trusted.body.data.user as { id: number }
    await expectAnswer(backOffice.getBackOfficeUser, { params: { id: user.id } }, { token: admin })
    await expectAnswer(backOffice.refreshUserToken, {}, { token: admin })
    await expectAnswer(backOffice.listOutbox, { query: { perPage: '5' } }, { token: admin })

    const holder = await signUp(t)
    const id = holder.clientId
    await expectAnswer(backOffice.setClientStatus, { params: { id }, body: { status: 2 } }, { token: admin })
    await expectAnswer(backOffice.setClientStatus, { params: { id }, body: { status: 1 } }, { token: admin })
    const link = await expectAnswer(backOffice.issueSingleLink, { params: { id } }, { token: admin }, 201)
    const leadId = (link.body.data as { leadId: string }).leadId
    await later(t, 61_000, () =>
      expectAnswer(identity.sendSingleLinkCode, { body: { leadId, captchaToken: 'ok' } }),
    )
    const sms = await lastCode(t, holder.phone, 'single_link')
    await expectAnswer(identity.singleLinkLogin, { body: { leadId, code: sms } })
    await expectAnswer(backOffice.userLogout, {}, { token: admin })
  })

  it('affiliate leads: created by the back office, read by the visitor, then by the client it became', async () => {
    const login = await request(backOffice.userLogin, {
      body: {
        email: DEFAULT_ADMIN_EMAIL,
        password: DEFAULT_ADMIN_PASSWORD,
        captchaToken: 'ok',
        deviceId: 'contract-laptop-1',
      },
    })
    const admin = tokenOf(login)
    const phone = newPhone()
    const created = await expectAnswer(
      affiliate.createLead,
      { body: { firstName: 'Maria', phone, affiliate: { partner: 'acme-ads' } } },
      { token: admin },
      201,
    )
    const leadId = (created.body.data as { leadId: string }).leadId
    await expectAnswer(affiliate.getLead, { params: { id: leadId } }, { address: newAddress() })
    await expectAnswer(affiliate.getClientLead, {}, { token: client.token })
    const signed = await request(
      identity.signUp,
      {
        body: {
          mobilePhone: { number: phone },
          email: newEmail(),
          password: PASSWORD,
          passwordRepeat: PASSWORD,
          consents: { terms: true, privacy: true },
          captchaToken: 'ok',
          leadId,
        },
      },
      { address: newAddress() },
    )
    const own = await expectAnswer(affiliate.getClientLead, {}, { token: tokenOf(signed) })
    expect(own.body.data).toMatchObject({ leadId, firstName: 'Maria' })
  })

  it('every contract of these modules was answered above', () => {
    expect(contracts.filter((contract) => !answered.has(contract)).map((c) => c.path)).toEqual([])
  })
})
