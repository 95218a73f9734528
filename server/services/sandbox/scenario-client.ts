/**
 * The client side of the sandbox scenarios (issue 20, item 2; domain/sandbox/scenarios.ts): a fresh client, and
 * a walk of their journey to a step through the same service functions the client's API calls run (each event
 * as the journey transaction of its call, recorded in the history as that call by that client), the decision
 * and payout as the lending worker runs them, and signing codes sent through the sandbox SMS provider and read
 * back from its outbox, as QA reads them. Nothing here writes a table the services would not write.
 *
 * Two shortcuts, both sandbox conveniences a QA person takes anyway: the new client's phone is marked verified
 * without an SMS code (as the demo client's is), and a code to a phone that got one less than a minute ago is
 * issued as of the minute after (the resend wait, which a sandbox may shorten anyway, SANDBOX_CODE_INTERVAL_SECONDS).
 */
import { randomInt } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { conflict, DomainError, notFound } from '../../../domain/errors'
import {
  advanceJourney,
  eventsAcceptedAt,
  JOURNEY_MODEL_VERSION,
  type JourneyEventType,
  type JourneyStep,
  journeyEventTypes,
  waitingSteps,
} from '../../../domain/journey/client-journey.machine'
import {
  addressSchema,
  detailsSchema,
  employmentSchema,
  identityDocumentSchema,
  payoutSchema,
  referenceSchema,
} from '../../../domain/journey/fields'
import { imageMimeTypes } from '../../../domain/journey/uploads'
import { outboxMessage, verificationCode } from '../../db/schema-identity'
import { clientProfile, disbursementEntry } from '../../db/schema-journey'
import type { AppDeps } from '../../deps'
import { clientAccount, findClient, isTaken, markPhoneVerified, signUp } from '../identity/clients'
import { assertCode, CODE_RESEND_SECONDS, type CodePurpose, checkCode } from '../identity/codes'
import { sendCode } from '../identity/messages'
import { type Actor, journeyTransaction, readJourney } from '../journey/journey'
import { addPayoutAccount, finishRegistration } from '../journey/payout-steps'
import {
  addContact,
  addressViolations,
  writeAddress,
  writeDetails,
  writeEmployment,
} from '../journey/registration'
import { checkFile, finishIdDocument, liveIdPhoto, readUploadConfig, saveIdPhoto } from '../journey/uploads'
import { decideSession, openSession, skipBankData } from '../journey/verification'
import { actualApplication, answerOffer, createApplication } from '../lending/applications'
import { payoutLabel, renderApplicationDocuments } from '../lending/documents'
import { drainJobs } from '../lending/jobs'
import { prepareSignature, signApplication } from '../lending/payout'

/** What the sandbox providers decide by (README, "Demo accounts and sandbox data"). */
export interface ScenarioFacts {
  /**
   * Sandbox scoring follows the first name: Juan approved, Manual, Reject, Decrease, Special, Increase; Scoreerror
   * ends in decision error at once, Pending is never decided.
   */
  firstName: string
  /** Sandbox identity verification follows the last name: Dela Cruz approved, Declined Cruz declined. */
  lastName: string
  /** Sandbox payout follows the account: a bank account ending in 0000 fails; cash pickup waits at the counter. */
  payout: 'bank' | 'bank-failing' | 'cash-pickup'
}

export const defaultFacts: ScenarioFacts = { firstName: 'Juan', lastName: 'Dela Cruz', payout: 'bank' }

export interface ScenarioClient {
  id: number
  phone: string
  email: string
  /** The generated password of a fresh client; null for an existing one (their own). */
  password: string | null
  facts: ScenarioFacts
}

/** The loan asked for by every scenario's application: PHP 5,000 over 14 days. */
export const SCENARIO_AMOUNT = 5_000_00
export const SCENARIO_TERM = 14

const registration = {
  details: { middleName: 'Santos', birthDate: '1990-05-17', gender: 'male', civilStatus: 'married' },
  employment: {
    employmentType: 'employed_private',
    companyName: 'Ayala Land Inc.',
    monthlyIncome: '28000',
    monthlyExpenses: '12000',
  },
  reference: { fullName: 'Maria Dela Cruz', relation: 'spouse', phone: '09998887766' },
  // PSGC: National Capital Region, Quezon City (its own district), barangay Alicia.
  address: {
    regionId: '1300000000',
    cityId: '1381300000',
    districtId: '1381300000',
    wardId: '1381300001',
    street: '12 Kalayaan Ave.',
  },
  identityDocument: { documentType: 'SSS', documentNumber: '34-1234567-8' },
}

/** The smallest JPEG the upload check recognises by its bytes: the ID photo a camera would have taken. */
const FRONT_PHOTO = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 2, 3,
])

const ALPHANUMERIC = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'
const randomText = (length: number) =>
  Array.from({ length }, () => ALPHANUMERIC[randomInt(0, ALPHANUMERIC.length)]).join('')

/** Signs up a client with a phone and an e-mail nobody has, and a generated password (4 to 24 letters or digits). */
export async function freshClient(
  deps: AppDeps,
  scenario: string,
  facts: ScenarioFacts,
): Promise<ScenarioClient> {
  const db = deps.database.db
  for (let attempt = 0; attempt < 5; attempt++) {
    const phone = `09${String(randomInt(0, 1e9)).padStart(9, '0')}`
    const email = `qa.${scenario}.${randomText(8).toLowerCase()}@sandbox.hiram.local`
    if ((await isTaken(db, 'phone', phone)) || (await isTaken(db, 'email', email))) continue
    const password = `Qa${randomText(10)}`
    const now = deps.now()
    const row = await signUp(
      db,
      {
        mobilePhone: { number: phone },
        email,
        password,
        passwordRepeat: password,
        language: 'en',
        consents: { terms: true, privacy: true, marketing: false },
      },
      now,
    )
    await markPhoneVerified(db, row.id, now)
    return { id: row.id, phone, email, password, facts }
  }
  throw new Error('no free phone number found for a sandbox client')
}

/** An existing client; the names they entered (if any) decide the providers' outcomes, not the scenario's. */
export async function existingClient(
  deps: AppDeps,
  id: number,
  facts: ScenarioFacts,
): Promise<ScenarioClient> {
  const db = deps.database.db
  const row = await findClient(db, id)
  if (!row) throw notFound('Client')
  const [profile] = await db
    .select({ firstName: clientProfile.firstName, lastName: clientProfile.lastName })
    .from(clientProfile)
    .where(eq(clientProfile.clientId, id))
  const named = profile?.firstName ? { firstName: profile.firstName, lastName: profile.lastName ?? '' } : {}
  return { id, phone: row.phone, email: row.email, password: null, facts: { ...facts, ...named } }
}

// ---------------------------------------------------------------------------------------------------------------
// Walking the journey

const client = (c: ScenarioClient, call: string): Actor => ({ kind: 'client', id: c.id, call })

/**
 * The one decision event the sandbox scoring leads to for a first name (README, Loan decisions; the provider
 * matches the whole name, any case), or null when no walk can wait for it: Pending is never decided (the job asks
 * again every minute), and Scorefail's decision error comes after retries 30 and 60 s apart.
 */
function decisionEvent(firstName: string): JourneyEventType | null {
  switch (firstName.trim().toLowerCase()) {
    case 'reject':
      return 'DECISION_REJECTED'
    case 'manual':
    case 'scoreerror':
      return 'DECISION_MANUAL'
    case 'decrease':
    case 'special':
      return 'DECISION_DECREASE'
    case 'increase':
      return 'DECISION_INCREASE'
    case 'pending':
    case 'scorefail':
      return null
    default:
      return 'DECISION_APPROVED'
  }
}

function verificationEvent(lastName: string): JourneyEventType {
  if (lastName.includes('Declined')) return 'VERIFICATION_DECLINED'
  if (lastName.includes('Resubmit')) return 'VERIFICATION_RESUBMISSION'
  return 'VERIFICATION_APPROVED'
}

function payoutEvent(payout: ScenarioFacts['payout']): JourneyEventType {
  return payout === 'cash-pickup'
    ? 'PAYOUT_CASH_PICKUP_READY'
    : payout === 'bank-failing'
      ? 'PAYOUT_FAILED'
      : 'PAYOUT_SUCCEEDED'
}

/** The events a walk may send: the forward path of a registering, applying and signing client. */
function walkable(facts: ScenarioFacts): Set<JourneyEventType> {
  const decision = decisionEvent(facts.firstName)
  return new Set<JourneyEventType>([
    'SUBMIT_DETAILS',
    'SUBMIT_EMPLOYMENT',
    'SUBMIT_REFERENCE',
    'SUBMIT_ADDRESS',
    'FINISH_ID_DOCUMENT',
    verificationEvent(facts.lastName),
    'SKIP_BANK_DATA',
    'FINISH',
    'APPLY',
    ...(decision ? [decision] : []),
    'OFFER_ANSWERED',
    'SIGN',
    payoutEvent(facts.payout),
  ])
}

/**
 * The shortest path of walkable events from `from` to `to` over the journey machine's own transitions (the
 * providers' outcomes fixed by the facts), passing through `through` when given (a failed payout ends on the
 * payout step registration also reaches); null when there is none (a client past the step, or named so that the
 * providers lead elsewhere). An additional application from my loan is never part of a walk.
 */
export function journeyPath(
  from: JourneyStep,
  to: JourneyStep,
  facts: ScenarioFacts,
  through?: JourneyEventType,
): JourneyEventType[] | null {
  const allowed = walkable(facts)
  type Node = { step: JourneyStep; path: JourneyEventType[]; passed: boolean }
  const queue: Node[] = [{ step: from, path: [], passed: !through }]
  const seen = new Set<string>([`${from}|${!through}`])
  while (queue.length) {
    const { step, path, passed } = queue.shift()!
    if (step === to && passed) return path
    if (step === 'loan_page') continue
    for (const event of journeyEventTypes) {
      if (!allowed.has(event) || !eventsAcceptedAt(step).includes(event)) continue
      const next = advanceJourney({ version: JOURNEY_MODEL_VERSION, value: step }, { type: event })
      const nowPassed = passed || event === through
      const key = `${next?.value}|${nowPassed}`
      if (!next || seen.has(key)) continue
      seen.add(key)
      queue.push({ step: next.value, path: [...path, event], passed: nowPassed })
    }
  }
  return null
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs the lending worker's due jobs until the client leaves a waiting step (the decision, the payout). The
 * server's own worker may have claimed the job first: then its lease is waited out, a few seconds at most.
 */
async function runJobsUntilMoved(deps: AppDeps, c: ScenarioClient, waiting: JourneyStep) {
  for (let round = 0; round < 100; round++) {
    await drainJobs(deps)
    const step = (await readJourney(deps.database.db, c.id)).value
    if (step !== waiting) return
    await sleep(100)
  }
  throw conflict('scenarioStuck', `The client is still at ${waiting}: the lending jobs did not move them.`)
}

/**
 * Sends a code to the client's phone through the sandbox SMS provider, reads it back from the outbox and checks
 * it, as the client types it. Answers the moment the code was issued and checked (see the file comment).
 */
export async function codeFromOutbox(deps: AppDeps, c: ScenarioClient, purpose: CodePurpose): Promise<void> {
  const db = deps.database.db
  const [latest] = await db
    .select({ at: verificationCode.createdAt })
    .from(verificationCode)
    .where(eq(verificationCode.target, c.phone))
    .orderBy(desc(verificationCode.createdAt))
    .limit(1)
  const now = deps.now()
  const waitOver = latest ? new Date(latest.at.getTime() + (CODE_RESEND_SECONDS + 1) * 1000) : now
  const at = waitOver > now ? waitOver : now
  const owner = clientAccount(c.id)
  await sendCode(
    db,
    deps.messaging,
    deps.secrets.codeKey,
    { purpose, channel: 'sms', target: c.phone, owner, requesterKnown: true },
    at,
  )
  const [message] = await db
    .select({ body: outboxMessage.body })
    .from(outboxMessage)
    .where(and(eq(outboxMessage.recipient, c.phone), eq(outboxMessage.purpose, purpose)))
    .orderBy(desc(outboxMessage.id))
    .limit(1)
  const code = message && /\b(\d{3})\b/.exec(message.body)?.[1]
  if (!code) throw new Error(`no ${purpose} code in the outbox`)
  assertCode(await checkCode(db, deps.secrets.codeKey, purpose, c.phone, code, at, owner))
}

async function hasPayoutAccount(deps: AppDeps, c: ScenarioClient) {
  const rows = await deps.database.db
    .select({ id: disbursementEntry.id })
    .from(disbursementEntry)
    .where(eq(disbursementEntry.clientId, c.id))
  return rows.length > 0
}

const payoutBody = (payout: ScenarioFacts['payout']) =>
  payout === 'cash-pickup'
    ? { type: 'cash_pickup', provider: 'cebuana' }
    : {
        type: 'bank_transfer',
        bankId: 1,
        accountNumber: payout === 'bank-failing' ? '001234560000' : '001234567890',
      }

/** For each walkable event, the service calls its API call (or job) makes. */
const senders: Partial<Record<JourneyEventType, (deps: AppDeps, c: ScenarioClient) => Promise<unknown>>> = {
  SUBMIT_DETAILS: (deps, c) => {
    const now = deps.now()
    const body = v.parse(detailsSchema, {
      ...registration.details,
      firstName: c.facts.firstName,
      lastName: c.facts.lastName,
      email: c.email,
    })
    return journeyTransaction(
      deps,
      c.id,
      { type: 'SUBMIT_DETAILS' },
      client(c, 'PUT /web/private/client'),
      now,
      (tx) => writeDetails(tx, c.id, body, c.email, now),
    )
  },
  SUBMIT_EMPLOYMENT: (deps, c) => {
    const now = deps.now()
    const body = v.parse(employmentSchema, registration.employment)
    const by = client(c, 'PUT /web/private/client/complete-step-two')
    return journeyTransaction(deps, c.id, { type: 'SUBMIT_EMPLOYMENT' }, by, now, (tx) =>
      writeEmployment(tx, c.id, body, now),
    )
  },
  SUBMIT_REFERENCE: (deps, c) => {
    const now = deps.now()
    const body = v.parse(referenceSchema, registration.reference)
    const by = client(c, 'PUT /web/private/client/complete-step-three')
    return journeyTransaction(deps, c.id, { type: 'SUBMIT_REFERENCE' }, by, now, (tx) =>
      addContact(tx, c.id, 'reference', body, now),
    )
  },
  SUBMIT_ADDRESS: async (deps, c) => {
    const now = deps.now()
    const body = v.parse(addressSchema, registration.address)
    const violations = await addressViolations(deps.database.db, body)
    if (violations.length)
      throw conflict(
        'scenarioNoPsgc',
        'The sandbox address (Quezon City) is not in this database: seed the PSGC.',
      )
    const by = client(c, 'PUT /web/private/client/complete-step-four')
    return journeyTransaction(deps, c.id, { type: 'SUBMIT_ADDRESS' }, by, now, (tx) =>
      writeAddress(tx, c.id, body, now),
    )
  },
  FINISH_ID_DOCUMENT: async (deps, c) => {
    const db = deps.database.db
    if (!(await liveIdPhoto(db, c.id, 'front'))) {
      const config = await readUploadConfig(db)
      const at = deps.now()
      const checked = await checkFile(new File([FRONT_PHOTO], 'front.jpg'), config, imageMimeTypes)
      await saveIdPhoto(
        deps,
        { clientId: c.id, side: 'front', checked, capturedAt: at, config, at },
        client(c, 'POST /web/private/client/id-document/upload'),
      )
    }
    return finishIdDocument(
      deps,
      c.id,
      v.parse(identityDocumentSchema, registration.identityDocument),
      client(c, 'POST /web/private/client/id-document/finish'),
    )
  },
  VERIFICATION_APPROVED: (deps, c) => verify(deps, c),
  VERIFICATION_DECLINED: (deps, c) => verify(deps, c),
  VERIFICATION_RESUBMISSION: (deps, c) => verify(deps, c),
  SKIP_BANK_DATA: (deps, c) =>
    skipBankData(deps, c.id, client(c, 'POST /web/private/client/kontomatik/skip')),
  FINISH: async (deps, c) => {
    if (!(await hasPayoutAccount(deps, c)))
      await addPayoutAccount(
        deps,
        c.id,
        v.parse(payoutSchema, payoutBody(c.facts.payout)),
        undefined,
        client(c, 'POST /web/private/client/disbursement-type'),
      )
    return finishRegistration(deps, c.id, client(c, 'PUT /web/private/client/finish'))
  },
  APPLY: (deps, c) =>
    createApplication(
      deps,
      c.id,
      {
        amount: SCENARIO_AMOUNT,
        term: SCENARIO_TERM,
        withPackageFee: true,
        paymentMethod: 'bank_transfer',
        iovation: 'sandbox-blackbox',
      },
      null,
      deps.now(),
      client(c, 'POST /web/private/client/application'),
    ),
  DECISION_APPROVED: (deps, c) => runJobsUntilMoved(deps, c, 'application_processing'),
  DECISION_REJECTED: (deps, c) => runJobsUntilMoved(deps, c, 'application_processing'),
  DECISION_MANUAL: (deps, c) => runJobsUntilMoved(deps, c, 'application_processing'),
  DECISION_DECREASE: (deps, c) => runJobsUntilMoved(deps, c, 'application_processing'),
  DECISION_INCREASE: (deps, c) => runJobsUntilMoved(deps, c, 'application_processing'),
  OFFER_ANSWERED: async (deps, c) => {
    const step = (await readJourney(deps.database.db, c.id)).value
    const row = await actualApplication(deps.database.db, c.id)
    // Takes the lower offer as made; keeps the amount asked when offered more.
    if (step === 'offer_increase')
      return answerOffer(
        deps,
        c.id,
        'increase',
        { amount: SCENARIO_AMOUNT, term: SCENARIO_TERM },
        deps.now(),
        client(c, 'PUT /web/private/client/yhat/offer/approve/increase'),
      )
    const special = row?.status === 13
    return answerOffer(
      deps,
      c.id,
      special ? 'special' : 'decrease',
      {},
      deps.now(),
      client(
        c,
        special
          ? 'PUT /web/private/client/special/offer/approve'
          : 'PUT /web/private/client/yhat/offer/approve/decrease',
      ),
    )
  },
  SIGN: async (deps, c) => {
    const db = deps.database.db
    const row = await actualApplication(db, c.id)
    if (!row) throw conflict('scenarioStuck', 'No application to sign.')
    const agreement = 'POST /web/private/client/application/agreement/{id}'
    await renderApplicationDocuments(
      deps,
      c.id,
      deps.now(),
      await payoutLabel(db, c.id),
      client(c, 'POST /web/private/client/render/document'),
    )
    await prepareSignature(deps, c.id, row, deps.now(), client(c, agreement))
    await codeFromOutbox(deps, c, 'agreement')
    return signApplication(deps, c.id, row.id, deps.now(), client(c, agreement))
  },
  PAYOUT_SUCCEEDED: (deps, c) => runJobsUntilMoved(deps, c, 'payout_processing'),
  PAYOUT_FAILED: (deps, c) => runJobsUntilMoved(deps, c, 'payout_processing'),
  PAYOUT_CASH_PICKUP_READY: (deps, c) => runJobsUntilMoved(deps, c, 'payout_processing'),
}

/** Opens an identity verification session and asks for its decision: the sandbox provider follows the last name. */
async function verify(deps: AppDeps, c: ScenarioClient) {
  const { session } = await openSession(deps, c.id, client(c, 'POST /web/private/client/veriff/session'))
  return decideSession(deps, c.id, session.id, client(c, 'GET /web/private/client/veriff/decision/{id}'))
}

/** Walks the client from wherever they stand to `to`; refuses (409) a step they cannot reach from there. */
export async function walkJourney(
  deps: AppDeps,
  c: ScenarioClient,
  to: JourneyStep,
  through?: JourneyEventType,
): Promise<void> {
  const from = (await readJourney(deps.database.db, c.id)).value
  if ((waitingSteps as readonly string[]).includes(from))
    throw conflict(
      'scenarioUnreachable',
      `The client is waiting at ${from}: try again once it moves on (a pending decision waits up to a day: cancel the application first).`,
    )
  const path = journeyPath(from, to, c.facts, through)
  if (!path)
    throw conflict(
      'scenarioUnreachable',
      `This scenario cannot start from the client's step (${from}): use a fresh client.`,
    )
  for (const event of path) {
    const send = senders[event]
    if (!send) throw new Error(`no sender for ${event}`)
    await send(deps, c)
  }
  const reached = (await readJourney(deps.database.db, c.id)).value
  if (reached !== to)
    throw new DomainError('conflict', 'scenarioStuck', `The walk to ${to} ended at ${reached}.`)
}
