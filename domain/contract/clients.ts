/**
 * The back office's client desk (issue 19, item 3; docs/decisions/0034-client-desk.md): finding a client by any
 * key a caller gives over the phone (mobile number, e-mail, name, payment reference, loan or application number),
 * and one client's whole file, split into a few bounded reads so each answer stays small: the profile with its
 * applications, decisions, documents, the ID entered at registration with its checks and uploaded files (each
 * file's bytes a read of its own, audited), single links and promises; the journey timeline (paged); the loans with
 * their ledgers, payments, extensions and schedules; the messages sent (paged); the collection contacts (paged).
 * The writes: blacklist, resend a pending code, record a promise to pay. Every one names its permission
 * (domain/back-office/roles.ts).
 */
import * as v from 'valibot'
import { idString } from '../ids'
import { calendarDaySchema, safeMultilineString, safeString } from '../safe-text'
import { defineContract } from './define'
import { pagingQuery } from './reference'

const idParams = v.object({ id: idString() })

const nullableString = v.nullable(v.string())

/** One client in a search's results. */
export const clientSummarySchema = v.object({
  id: v.number(),
  /** First and last name from the details step (or the sign-up's first name); null before either. */
  name: nullableString,
  phone: v.string(),
  email: v.string(),
  /** Spec section 4: 1 active, 2 blocked, 3 blacklisted, 4 verification, 5 bank account select. */
  status: v.number(),
  paymentReference: v.string(),
  /** The journey's step now (null before the journey starts). */
  step: nullableString,
  createdAt: v.string(),
})
export type ClientSummary = v.InferOutput<typeof clientSummarySchema>

const clientSearch = defineContract({
  method: 'get',
  path: '/private/back-office/clients',
  summary:
    'Find clients by mobile number (09… or +639…), e-mail, name, payment reference, loan number (L…) or application number; newest first (x-* pagination headers)',
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  paginated: true,
  query: v.object({
    search: v.optional(v.pipe(safeString(), v.trim(), v.maxLength(100, 'Must be at most 100 characters.'))),
    ...pagingQuery(20, 100),
  }),
  response: v.array(clientSummarySchema),
})
/** The search, a page at a time (the intersection keeps `paginated: true` for the caller's Page type). */
export const searchClients = clientSearch as typeof clientSearch & { paginated: true }

export const decisionSchema = v.object({
  id: v.number(),
  /** engine | back_office */
  source: v.string(),
  outcome: v.string(),
  applicationVersion: v.number(),
  /** The decision engine's reasons, as it recorded them. */
  reasons: v.unknown(),
  offeredAmount: v.nullable(v.number()),
  decidedBy: v.nullable(v.number()),
  createdAt: v.string(),
})

export const deskApplicationSchema = v.object({
  id: v.number(),
  status: v.number(),
  desiredAmount: v.number(),
  desiredTerm: v.number(),
  principalAmount: v.number(),
  term: v.number(),
  clientKind: v.string(),
  createdAt: v.string(),
  signedAt: nullableString,
  /** Newest first. */
  decisions: v.array(decisionSchema),
})
export type DeskApplication = v.InferOutput<typeof deskApplicationSchema>

export const deskDocumentSchema = v.object({
  /** loan (the agreement and disclosure statement) or amendment (an extension's or a schedule's). */
  kind: v.picklist(['loan', 'amendment']),
  id: v.string(),
  type: v.string(),
  /** The application (loan documents) or the loan (amendments) it belongs to. */
  ownerId: v.number(),
  size: v.number(),
  renderedAt: v.string(),
  signedAt: nullableString,
})
export type DeskDocument = v.InferOutput<typeof deskDocumentSchema>

/** The identity document the client entered at registration (one per client, replaced on a new entry). */
export const deskIdentityDocumentSchema = v.object({
  /** SSS, UMID, DRIVERS_LICENSE, PASSPORT, ... (domain/journey/fields.ts). */
  documentType: v.string(),
  /** Only the last 4 characters (`••••67-8`, domain/back-office/masking.ts): the whole number never leaves the server. */
  documentNumber: v.string(),
  expiryDate: nullableString,
  finishedAt: v.string(),
})
export type DeskIdentityDocument = v.InferOutput<typeof deskIdentityDocumentSchema>

/** One identity check with the provider, and its outcome once decided. */
export const deskIdentityCheckSchema = v.object({
  id: v.string(),
  provider: v.string(),
  /** created | approved | declined | resubmission_requested */
  status: v.string(),
  reason: nullableString,
  createdAt: v.string(),
  decidedAt: nullableString,
})
export type DeskIdentityCheck = v.InferOutput<typeof deskIdentityCheckSchema>

/** A file the client uploaded and still has (replaced or deleted ones have no bytes left), without its bytes. */
export const deskUploadSchema = v.object({
  id: v.string(),
  /** id_document | document | bank_statement | client_document */
  category: v.string(),
  /** front | back | selfie for an ID photo; the document's type for the others. */
  kind: v.string(),
  /** image/jpeg, image/png or application/pdf. */
  mime: v.string(),
  size: v.number(),
  /** When the photo was taken, from its metadata, when it said. */
  capturedAt: nullableString,
  createdAt: v.string(),
})
export type DeskUpload = v.InferOutput<typeof deskUploadSchema>

export const deskIdentitySchema = v.object({
  document: v.nullable(deskIdentityDocumentSchema),
  /** Newest 5. */
  checks: v.array(deskIdentityCheckSchema),
  /** Newest 40 live files, read one with viewClientUpload. */
  uploads: v.array(deskUploadSchema),
})
export type DeskIdentity = v.InferOutput<typeof deskIdentitySchema>

export const singleLinkIssueSchema = v.object({
  id: v.number(),
  issuedBy: v.nullable(v.number()),
  createdAt: v.string(),
  expiresAt: v.string(),
  consumedAt: nullableString,
})

export const promiseToPaySchema = v.object({
  id: v.number(),
  loanId: v.number(),
  amount: v.number(),
  /** The Manila day the client promised to pay by. */
  promisedOn: v.string(),
  note: nullableString,
  recordedBy: v.number(),
  createdAt: v.string(),
})
export type PromiseToPay = v.InferOutput<typeof promiseToPaySchema>

export const clientDeskSchema = v.object({
  profile: v.object({
    id: v.number(),
    phone: v.string(),
    email: v.string(),
    status: v.number(),
    blocked: v.boolean(),
    blacklisted: v.boolean(),
    language: v.string(),
    firstName: nullableString,
    middleName: nullableString,
    lastName: nullableString,
    birthDate: nullableString,
    phoneVerifiedAt: nullableString,
    emailVerifiedAt: nullableString,
    createdAt: v.string(),
    paymentReference: v.string(),
    step: nullableString,
  }),
  /** Newest 20. */
  applications: v.array(deskApplicationSchema),
  /** Newest 40, without their bytes (read one with downloadClientDocument). */
  documents: v.array(deskDocumentSchema),
  /** What the client gave at registration: the ID entered, its checks, the photos and documents uploaded. */
  identity: deskIdentitySchema,
  /** Newest 10. */
  singleLinks: v.array(singleLinkIssueSchema),
  /** Newest 20. */
  promises: v.array(promiseToPaySchema),
})
export type ClientDesk = v.InferOutput<typeof clientDeskSchema>

export const getClientDesk = defineContract({
  method: 'get',
  path: '/private/back-office/clients/:id',
  summary:
    "One client: profile and status, applications with the decisions' reasons, documents, the ID entered and its checks, the files uploaded, single-link issues, promises to pay",
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  params: idParams,
  response: clientDeskSchema,
})

export const timelineStepSchema = v.object({
  id: v.number(),
  /** clientJourney or loanLifecycle. */
  machine: v.string(),
  subjectId: v.number(),
  fromState: v.string(),
  toState: v.string(),
  event: v.string(),
  /** The call that moved it ('PUT /web/private/client'); null for a job. */
  call: nullableString,
  actorKind: v.string(),
  actorId: v.string(),
  at: v.string(),
})
export type TimelineStep = v.InferOutput<typeof timelineStepSchema>

const timeline = defineContract({
  method: 'get',
  path: '/private/back-office/clients/:id/timeline',
  summary:
    "The client's timeline: every journey and loan step, oldest first, with its time and call (x-* pagination headers)",
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  paginated: true,
  params: idParams,
  query: v.object(pagingQuery(200, 500)),
  response: v.array(timelineStepSchema),
})
export const getClientTimeline = timeline as typeof timeline & { paginated: true }

export const ledgerLineSchema = v.object({
  id: v.number(),
  kind: v.string(),
  part: v.string(),
  amount: v.number(),
  paymentId: v.nullable(v.number()),
  reversesId: v.nullable(v.number()),
  businessDate: v.string(),
  at: v.string(),
  memo: nullableString,
})

export const deskExtensionSchema = v.object({
  id: v.number(),
  type: v.string(),
  status: v.string(),
  invoiceStatus: v.string(),
  term: v.nullable(v.number()),
  fee: v.nullable(v.number()),
  dueDateBefore: nullableString,
  dueDateAfter: nullableString,
  createdAt: v.string(),
  paidAt: nullableString,
})

export const deskScheduleSchema = v.object({
  id: v.number(),
  type: v.string(),
  status: v.string(),
  total: v.nullable(v.number()),
  offeredAt: v.string(),
  agreedAt: nullableString,
  instalments: v.array(
    v.object({
      seq: v.number(),
      dueDate: v.string(),
      amount: v.number(),
      paidAmount: v.number(),
      paidAt: nullableString,
    }),
  ),
})

export const deskLoanSchema = v.object({
  id: v.number(),
  loanNumber: v.string(),
  applicationId: v.number(),
  status: v.number(),
  state: v.string(),
  plan: v.string(),
  standing: v.string(),
  principal: v.number(),
  interest: v.number(),
  fees: v.number(),
  total: v.number(),
  term: v.number(),
  dueDate: v.string(),
  startDate: nullableString,
  createdAt: v.string(),
  closedAt: nullableString,
  /** Oldest first; the newest 300 entries at most. */
  ledger: v.array(ledgerLineSchema),
  extensions: v.array(deskExtensionSchema),
  schedules: v.array(deskScheduleSchema),
})
export type DeskLoan = v.InferOutput<typeof deskLoanSchema>

export const deskPaymentSchema = v.object({
  id: v.number(),
  loanId: v.nullable(v.number()),
  provider: v.string(),
  channel: v.string(),
  amount: v.number(),
  status: v.string(),
  source: v.string(),
  paidAt: v.string(),
  postedAt: nullableString,
  reversedAt: nullableString,
})

export const getClientLoans = defineContract({
  method: 'get',
  path: '/private/back-office/clients/:id/loans',
  summary:
    "The client's loans (newest 10) with their ledgers, extensions and schedules, and the newest 50 payments",
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  params: idParams,
  response: v.object({ loans: v.array(deskLoanSchema), payments: v.array(deskPaymentSchema) }),
})
export type ClientLoans = v.InferOutput<typeof getClientLoans.response>

export const deskMessageSchema = v.object({
  id: v.number(),
  channel: v.string(),
  recipient: v.string(),
  subject: nullableString,
  body: v.string(),
  purpose: v.string(),
  status: v.string(),
  createdAt: v.string(),
})
export type DeskMessage = v.InferOutput<typeof deskMessageSchema>

const messages = defineContract({
  method: 'get',
  path: '/private/back-office/clients/:id/messages',
  summary: "Messages sent to the client's mobile number and e-mail, newest first (x-* pagination headers)",
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  paginated: true,
  params: idParams,
  query: v.object(pagingQuery(20, 200)),
  response: v.array(deskMessageSchema),
})
export const getClientMessages = messages as typeof messages & { paginated: true }

export const deskContactSchema = v.object({
  id: v.number(),
  loanId: v.number(),
  kind: v.string(),
  channel: v.string(),
  dueDate: v.string(),
  scheduledAt: v.string(),
  status: v.string(),
  reason: nullableString,
  sentAt: nullableString,
})
export type DeskContact = v.InferOutput<typeof deskContactSchema>

const contacts = defineContract({
  method: 'get',
  path: '/private/back-office/clients/:id/contacts',
  summary:
    'Collection contacts (reminders queued, sent or skipped) for the client, newest first (x-* pagination headers)',
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  paginated: true,
  params: idParams,
  query: v.object(pagingQuery(20, 200)),
  response: v.array(deskContactSchema),
})
export const getClientContacts = contacts as typeof contacts & { paginated: true }

export const downloadClientDocument = defineContract({
  method: 'get',
  path: '/private/back-office/clients/:id/documents/:kind/:documentId',
  summary: "One of the client's loan or amendment documents, the PDF exactly as rendered (and signed)",
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  params: v.object({
    id: idString(),
    kind: v.picklist(['loan', 'amendment'], 'loan or amendment.'),
    documentId: v.pipe(
      safeString(),
      v.regex(
        /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[1-9]\d{0,15})$/,
        'Not a document id.',
      ),
    ),
  }),
  answer: 'binary',
})

/**
 * A file the client uploaded (an ID photo, a supporting document), its bytes with their own type. Each view is
 * recorded in the audit trail: ID images are sensitive personal information (RA 10173).
 */
export const viewClientUpload = defineContract({
  method: 'get',
  path: '/private/back-office/clients/:id/uploads/:fileId',
  summary:
    "One of the client's uploaded files (an ID photo or a supporting document) as uploaded; every view is audited",
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.read',
  params: v.object({
    id: idString(),
    fileId: v.pipe(safeString(), v.uuid('Not a file id.')),
  }),
  answer: 'binary',
})

export const setClientBlacklisted = defineContract({
  method: 'put',
  path: '/private/back-office/clients/:id/blacklist',
  summary: 'Blacklist a client (status 3: no new loans) or take them off the blacklist (status 1)',
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.status',
  params: idParams,
  body: v.object({ blacklisted: v.boolean('Must be true or false.') }),
  response: v.object({ id: v.number(), status: v.number(), blacklisted: v.boolean() }),
})

export const resendClientCode = defineContract({
  method: 'post',
  path: '/private/back-office/clients/:id/code',
  summary:
    "Send the client a new code for their pending verification (the newest code not used yet), under the code's own limits",
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.resend-code',
  params: idParams,
  response: v.object({ purpose: v.string(), channel: v.string(), nextCodeAt: v.string() }),
})

/** The largest promise recorded: PHP 1,000,000, far above any loan Hiram makes. */
export const MAX_PROMISE_CENTAVOS = 100_000_000

export const promiseBodySchema = v.object({
  /** The loan promised for; the client's open loan when left out. */
  loanId: v.optional(
    v.pipe(
      v.number('Must be a loan id.'),
      v.integer('Must be a loan id.'),
      v.minValue(1, 'Must be a loan id.'),
      v.maxValue(Number.MAX_SAFE_INTEGER, 'Must be a loan id.'),
    ),
  ),
  amount: v.pipe(
    v.number('The amount must be a number of centavos.'),
    v.integer('The amount must be a whole number of centavos.'),
    v.minValue(1, 'The amount must be more than zero.'),
    v.maxValue(MAX_PROMISE_CENTAVOS, 'The amount is too large.'),
  ),
  promisedOn: calendarDaySchema(),
  note: v.optional(
    v.pipe(safeMultilineString(), v.trim(), v.maxLength(500, 'Must be at most 500 characters.')),
  ),
})
export type PromiseBody = v.InferOutput<typeof promiseBodySchema>

export const recordPromiseToPay = defineContract({
  method: 'post',
  path: '/private/back-office/clients/:id/promises',
  summary:
    'Record a promise to pay: the amount (centavos) the client promised to pay by a Manila day, and a note',
  tags: ['back-office'],
  access: 'user',
  permission: 'collections.promise',
  params: idParams,
  body: promiseBodySchema,
  /** 201. */
  response: promiseToPaySchema,
})
