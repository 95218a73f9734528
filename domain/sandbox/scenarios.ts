/**
 * The sandbox's scenarios (issue 20, item 2): named states QA reaches in one call or one click. Each names the
 * journey step, the application status and the loan leaf it claims, typed from the one journey model
 * (domain/journey/client-journey.machine.ts), the application status codes (domain/offer-decision.ts) and the
 * loan lifecycle (domain/loan/loan-lifecycle.machine.ts), so a renamed state is a type error here. The server
 * builds each one by driving the real services and the business clock (server/services/sandbox/), never by
 * writing rows; tests/api/sandbox-scenarios.test.ts runs every one and checks these claims.
 *
 * Names are kebab-case and stable: scripts and the sandbox panel call them.
 */
import * as v from 'valibot'
import type { JourneyStep } from '../journey/client-journey.machine'
import { type LoanLeaf, type LoanStatusCode, loanStatusOf } from '../loan/loan-lifecycle.machine'
import { type ApplicationStatusCode, applicationStatus } from '../offer-decision'

/** Days overdue when a scenario that takes `days` is run without them. */
export const DEFAULT_OVERDUE_DAYS = 10
/** The most days a scenario moves a client's clock past the due date (the clock route's own cap is 400). */
export const MAX_SCENARIO_DAYS = 120

export interface ScenarioDefinition {
  title: string
  /** In plain words, for QA: who the client is, what was done, what they see. */
  description: string
  /** The journey step the client stands at afterwards. */
  journeyStep: JourneyStep
  /** The status of the client's newest application afterwards, when the scenario made one. */
  applicationStatus?: ApplicationStatusCode
  /** The leaf of the client's newest loan afterwards, when the scenario made one. */
  loanLeaf?: LoanLeaf
  /** Whether the body's `days` (days overdue) means something to this scenario. */
  takesDays?: true
}

const s = applicationStatus
const registration = (journeyStep: JourneyStep, title: string, what: string): ScenarioDefinition => ({
  title,
  journeyStep,
  description: `A new client (phone verified) who has ${what}. Logs in and lands on that registration step.`,
})

const soldOrWrittenOff =
  'The sale and the write-off are maker-checker proposals in the back office; the scenario runs the executing service directly, as the back-office user who ran it, with no second approval.'

/** Every scenario, by name. The order is the one the panel and the README list them in. */
export const scenarios = {
  'journey-details': registration('new_client_created', 'Registration: personal details', 'only signed up'),
  'journey-employment': registration(
    'work_info',
    'Registration: employment',
    'entered their personal details',
  ),
  'journey-reference': registration(
    'relative_info',
    'Registration: reference person',
    'entered their personal and employment details',
  ),
  'journey-address': registration('address', 'Registration: address', 'named a reference person'),
  'journey-documents': registration(
    'document_upload',
    'Registration: identity document',
    'entered their address (Quezon City)',
  ),
  'journey-verification': registration(
    'veriff',
    'Registration: identity verification',
    'uploaded the front photo of an SSS ID and finished the document step',
  ),
  'journey-bank-data': registration(
    'kontomatik',
    'Registration: bank linking',
    'passed identity verification (last name Dela Cruz: approved)',
  ),
  'journey-payout': registration(
    'disbursement_type',
    'Registration: payout method',
    'passed identity verification and skipped bank linking',
  ),
  'journey-ready-to-apply': {
    title: 'Registration complete, ready to apply',
    journeyStep: 'no_loan_page',
    description:
      'A new client with a complete registration (payout to BDO 001234567890) and no application: lands on the apply page. First name Juan, so an application is approved.',
  },
  'journey-identity-declined': {
    title: 'Identity verification declined',
    journeyStep: 'reject_page',
    description:
      'A new client whose identity verification was declined (last name "Declined Cruz"): lands on the rejection page and cannot apply.',
  },
  'application-processing': {
    title: 'Application in verification',
    journeyStep: 'application_processing',
    applicationStatus: s.verification,
    description:
      'A new client (first name Pending) who applied for PHP 5,000 over 14 days; the sandbox scoring answers "still evaluating", as a bureau that decides later does, so the application is in verification (7) and the decision job asks again every minute: the loading page, for a day (then decision error). The client may still change (back to new, decided again) or cancel the application.',
  },
  'application-approved': {
    title: 'Application approved, ready to sign',
    journeyStep: 'otp_agreement',
    applicationStatus: s.signing,
    description:
      'A new client (first name Juan) who applied for PHP 5,000 over 14 days; the sandbox scoring approved it. Lands on the summary: render the documents and sign with the SMS code from the outbox.',
  },
  'application-manual-review': {
    title: 'Application waiting for a manual review',
    journeyStep: 'manual_page',
    applicationStatus: s.manualVerification,
    description:
      'A new client (first name Manual) whose PHP 5,000 application waits in the back office review queue (/admin). Approve or reject it there.',
  },
  'application-decision-error': {
    title: 'Decision error, waiting for a person',
    journeyStep: 'manual_page',
    applicationStatus: s.decisionError,
    description:
      'A new client (first name Scoreerror) whose application the sandbox scoring refused to score, an error no retry can fix, so the decision job ended in decision error at once: the client waits on the manual verification page and the application is in the back office review queue (/admin, kind "error"). (First name Scorefail reaches the same state through three attempts 30 and 60 s apart.)',
  },
  'application-rejected': {
    title: 'Application rejected',
    journeyStep: 'reject_page',
    applicationStatus: s.rejected,
    description: 'A new client (first name Reject) whose application the sandbox scoring rejected.',
  },
  'application-canceled': {
    title: 'Application cancelled by the client',
    journeyStep: 'no_loan_page',
    applicationStatus: s.canceled,
    description:
      'A new client (first name Juan) whose PHP 5,000 application was approved and who cancelled it on the summary instead of signing: back on the apply page, free to apply again.',
  },
  'offer-decrease': {
    title: 'Lower offer (yhat decrease)',
    journeyStep: 'offer_decrease',
    applicationStatus: s.yhatDecrease,
    description:
      'A new client (first name Decrease) who asked for PHP 5,000 and was offered half: lands on the lower offer page.',
  },
  'offer-special': {
    title: 'Special offer',
    journeyStep: 'offer_decrease',
    applicationStatus: s.specialOffer,
    description:
      'A new client (first name Special) who was made a special offer in place of the amount asked: lands on the offer page.',
  },
  'offer-increase': {
    title: 'Higher offer (yhat increase)',
    journeyStep: 'offer_increase',
    applicationStatus: s.yhatIncrease,
    description:
      'A new client (first name Increase) who asked for PHP 5,000 and was offered up to the available amount: lands on the higher offer page.',
  },
  'payout-cash-pickup': {
    title: 'Cash pickup waiting at the counter',
    journeyStep: 'tmc_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.on_terms.current',
    description:
      'A new client paid out by cash pickup (Cebuana): the loan is active and the page shows the pickup number.',
  },
  'payout-failed': {
    title: 'Payout failed',
    journeyStep: 'disbursement_type',
    applicationStatus: s.accepted,
    loanLeaf: 'draft',
    description:
      'A new client who signed, but whose bank account (ending in 0000) refused the payout: back on the payout method step to add another account and retry.',
  },
  'loan-active': {
    title: 'Active loan',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.on_terms.current',
    description:
      'A new client with a PHP 5,000 loan over 14 days, signed with the SMS code and paid out today by bank transfer: My loan.',
  },
  'loan-due-tomorrow': {
    title: 'Loan due tomorrow',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.on_terms.current',
    description:
      "An active loan with the client's own clock moved to the day before the due date (the daily servicing run ran each day): reminders are queued.",
  },
  'loan-overdue-10': {
    title: 'Overdue loan with its penalty',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.on_terms.overdue',
    takesDays: true,
    description: `An active loan whose client's clock was moved past the due date by \`days\` (default ${DEFAULT_OVERDUE_DAYS}); the daily servicing run marked it overdue and charged the penalty after the grace days.`,
  },
  'loan-extension-available': {
    title: 'Extension available',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.on_terms.current',
    description:
      'An active loan three days before its due date: both extensions (cheap and expensive) can be chosen on My loan.',
  },
  'loan-extension-taken': {
    title: 'Extension taken',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.on_terms.current',
    description:
      'An active loan whose client chose the cheap extension, signed it with the SMS code and paid its fee (a sandbox payment at Bayad): the due date moved.',
  },
  'loan-schedule-overdue-instalment': {
    title: 'Payment schedule with an overdue instalment',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.scheduled.overdue',
    description:
      'An active loan put on a semi-monthly payment schedule two days before its due date (signed with the SMS code); the clock then passed the first instalment unpaid: overdue on the schedule.',
  },
  'loan-on-hold': {
    title: 'Loan on hold',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'on_hold.on_terms',
    description:
      'An active loan the back office put on hold (as the user who ran the scenario): reminders and accrual stop.',
  },
  'loan-paid-repeat': {
    title: 'Loan repaid: a repeat client',
    journeyStep: 'no_loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'paid',
    description:
      'A client whose first loan was repaid in full (a sandbox payment at Bayad): no loan, prices as a repeat client, may apply again.',
  },
  'loan-additional-available': {
    title: 'Additional loan available',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'active.on_terms.current',
    description:
      'An active loan of PHP 5,000 with PHP 5,000 more available: the calculator offers an additional loan.',
  },
  'loan-sold-debt': {
    title: 'Debt sold to a collection agency',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'sold_debt',
    takesDays: true,
    description: `An overdue loan (\`days\` past the due date, default ${DEFAULT_OVERDUE_DAYS}) sold to the collection agency "Sandbox Collections": My loan tells the client whom to pay. ${soldOrWrittenOff}`,
  },
  'loan-written-off': {
    title: 'Loan written off',
    journeyStep: 'loan_page',
    applicationStatus: s.completed,
    loanLeaf: 'write_off',
    takesDays: true,
    description: `An overdue loan (\`days\` past the due date, default ${DEFAULT_OVERDUE_DAYS}) written off as a loss. ${soldOrWrittenOff}`,
  },
} as const satisfies Record<string, ScenarioDefinition>

export type ScenarioName = keyof typeof scenarios
export const scenarioNames = Object.keys(scenarios) as ScenarioName[]

export function isScenarioName(name: string): name is ScenarioName {
  return Object.hasOwn(scenarios, name)
}

/** The loan status code a scenario's loan answers (spec section 4), from the lifecycle. */
export function scenarioLoanStatus(name: ScenarioName): LoanStatusCode | undefined {
  const leaf = (scenarios[name] as ScenarioDefinition).loanLeaf
  return leaf ? loanStatusOf(leaf) : undefined
}

/** The body of a scenario run: a fresh client by default, or an existing sandbox client; days overdue. */
export const scenarioRunSchema = v.object({
  clientId: v.optional(
    v.pipe(
      v.number('Must be a positive whole number.'),
      v.integer('Must be a positive whole number.'),
      v.minValue(1, 'Must be a positive whole number.'),
      v.maxValue(Number.MAX_SAFE_INTEGER, 'Must be a positive whole number.'),
    ),
  ),
  days: v.optional(
    v.pipe(
      v.number('Days must be a number.'),
      v.integer('Days must be whole.'),
      v.minValue(1, 'At least 1 day.'),
      v.maxValue(MAX_SCENARIO_DAYS, `At most ${MAX_SCENARIO_DAYS} days.`),
    ),
  ),
})
export type ScenarioRun = v.InferOutput<typeof scenarioRunSchema>

/** The list the API answers (GET /web/private/back-office/sandbox/scenarios and the QA panel's). */
export const scenarioSummaries = scenarioNames.map((name) => {
  const s: ScenarioDefinition = scenarios[name]
  return {
    name,
    title: s.title,
    description: s.description,
    journeyStep: s.journeyStep,
    applicationStatus: s.applicationStatus ?? null,
    loanState: s.loanLeaf ?? null,
    loanStatus: scenarioLoanStatus(name) ?? null,
    takesDays: s.takesDays === true,
    defaultDays: s.takesDays ? DEFAULT_OVERDUE_DAYS : null,
  }
})
