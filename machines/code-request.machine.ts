/**
 * Asking for a one-time code (SMS or e-mail), on every screen that needs one: sign-up phone verification, the
 * login second factor, signing the agreement, changing the phone or e-mail, the single-link login.
 *
 * - idle: nothing sent yet (the agreement sends its first code itself). A step whose code the call before
 *   already sent (sign-up, a login that asked for a second factor, the change forms) passes `sent` and the
 *   server's `nextCodeAt` as `retryAt`, and leaves at once: it waits until then, or is ready.
 * - sending: the `requestCode` actor asks the server. Its answer's `nextCodeAt` (or, without one, the server's
 *   one-code-a-minute rule) starts the countdown.
 * - waiting: "You can ask for a new code in N s", one tick a second until `retryAt`, then ready. The ticks are
 *   scheduled from the clock, not counted blindly: a tab the browser throttled catches up at once.
 * - A refused request says why: the minute limit (429 `codeMinuteLimit`, or any 429 with `Retry-After`) waits
 *   for the time the server gives and then offers the button again; the day limit (429 `codeDayLimit`) cannot
 *   be waited out on the page; anything else (failed) keeps the button with the error's key.
 *
 * No fetch and no React here: the screen provides `requestCode` (`codeRequestMachine.provide({ actors })`).
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'

/** The server allows one code a minute per number or address (server/services/identity/codes.ts). */
export const DEFAULT_WAIT_SECONDS = 60

/** What a code request answers: when the next code may be asked for (ISO instant), when the server says. */
export interface CodeSent {
  nextCodeAt?: string | null
}

export type CodeRequestProblem =
  /** Too soon: the countdown says how long (429 codeMinuteLimit or a Retry-After). */
  | { kind: 'minuteLimit' }
  /** No more codes today (429 codeDayLimit). */
  | { kind: 'dayLimit' }
  /** Anything else, by the API's error code ('error' when there is none). */
  | { kind: 'failed'; key: string }

export interface CodeRequestInput {
  /** A code was already sent for this step by the call before (sign-up, login, the change forms). */
  sent?: boolean
  /** When the next code may be asked for (ms since the epoch), from the call that sent the first one. */
  retryAt?: number | null
  /**
   * The call before was refused for the wait (a change form's first code asked for again too soon): the screen
   * opens counting down to `retryAt`, saying why.
   */
  limited?: boolean
  /** The clock; Date.now unless a test replaces it. */
  now?: () => number
}

export interface CodeRequestContext {
  now: () => number
  /** A code was sent for this step: the button says "Send again". */
  sent: boolean
  /** Codes this screen asked for and got. */
  sends: number
  retryAt: number | null
  /** Whole seconds until `retryAt`, as shown. */
  secondsLeft: number
  problem: CodeRequestProblem | null
}

export type CodeRequestEvent = { type: 'SEND' }

/** A failed request as the API client throws it (src/api/client.ts ApiError), read loosely. */
interface FailedRequest {
  status?: number
  code?: string
  retryAfterSeconds?: number
}

const failureOf = (error: unknown): FailedRequest =>
  typeof error === 'object' && error !== null ? (error as FailedRequest) : {}

/** How a failed request reads: a wait (with its end), the day limit, or a plain failure. */
export function classifyCodeRequestError(
  error: unknown,
  now: number,
): { problem: CodeRequestProblem; retryAt: number | null } {
  const { status, code, retryAfterSeconds } = failureOf(error)
  if (code === 'codeDayLimit') return { problem: { kind: 'dayLimit' }, retryAt: null }
  const waitSeconds =
    status === 429 && typeof retryAfterSeconds === 'number' && retryAfterSeconds > 0
      ? retryAfterSeconds
      : code === 'codeMinuteLimit'
        ? DEFAULT_WAIT_SECONDS
        : null
  if (waitSeconds !== null) return { problem: { kind: 'minuteLimit' }, retryAt: now + waitSeconds * 1000 }
  return {
    problem: { kind: 'failed', key: typeof code === 'string' && code ? code : 'error' },
    retryAt: null,
  }
}

/** When the next code may be asked for after one was sent: the server's `nextCodeAt`, else a minute. */
export function retryAtAfterSend(answer: CodeSent | null | undefined, now: number): number {
  const at = answer?.nextCodeAt ? Date.parse(answer.nextCodeAt) : Number.NaN
  return Number.isNaN(at) ? now + DEFAULT_WAIT_SECONDS * 1000 : at
}

const secondsUntil = (at: number | null, now: number) =>
  at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000))

export const codeRequestMachine = setup({
  types: {
    context: {} as CodeRequestContext,
    events: {} as CodeRequestEvent,
    input: {} as CodeRequestInput,
  },
  actors: {
    requestCode: fromPromise<CodeSent | null | undefined>(async () => {
      throw new Error('codeRequestMachine: provide the requestCode actor')
    }),
  },
  delays: {
    /** Until the shown whole seconds must drop by one; at once when the tab slept through it. */
    TICK: ({ context }) =>
      Math.max(0, (context.retryAt ?? 0) - context.now() - (context.secondsLeft - 1) * 1000),
  },
  guards: {
    mustWait: ({ context }) => secondsUntil(context.retryAt, context.now()) > 0,
    wasSent: ({ context }) => context.sent,
    answerSaysWait: ({ context, event }) =>
      secondsUntil(retryAtAfterSend((event as { output?: CodeSent }).output, context.now()), context.now()) >
      0,
    isDayLimit: ({ context, event }) =>
      classifyCodeRequestError((event as { error?: unknown }).error, context.now()).problem.kind ===
      'dayLimit',
    isWait: ({ context, event }) =>
      classifyCodeRequestError((event as { error?: unknown }).error, context.now()).problem.kind ===
      'minuteLimit',
    lastSecond: ({ context }) => context.secondsLeft <= 1,
  },
  actions: {
    countFromInput: assign(({ context }) => ({
      secondsLeft: secondsUntil(context.retryAt, context.now()),
    })),
    recordSent: assign(({ context, event }) => {
      const retryAt = retryAtAfterSend((event as { output?: CodeSent }).output, context.now())
      return {
        sent: true,
        sends: context.sends + 1,
        retryAt,
        secondsLeft: secondsUntil(retryAt, context.now()),
        problem: null,
      }
    }),
    recordFailure: assign(({ context, event }) => {
      const { problem, retryAt } = classifyCodeRequestError(
        (event as { error?: unknown }).error,
        context.now(),
      )
      return { problem, retryAt, secondsLeft: secondsUntil(retryAt, context.now()) }
    }),
    tick: assign(({ context }) => ({ secondsLeft: context.secondsLeft - 1 })),
    waitOver: assign({ secondsLeft: 0, retryAt: null, problem: null }),
    clearProblem: assign({ problem: null }),
  },
}).createMachine({
  id: 'codeRequest',
  context: ({ input }) => {
    const now = input.now ?? Date.now
    const retryAt = input.retryAt ?? null
    const limited = input.limited === true && secondsUntil(retryAt, now()) > 0
    return {
      now,
      sent: input.sent ?? false,
      sends: 0,
      retryAt,
      secondsLeft: 0,
      problem: limited ? ({ kind: 'minuteLimit' } as const) : null,
    }
  },
  initial: 'idle',
  states: {
    /** Nothing sent yet; a step whose code the call before sent leaves at once (nothing comes back here). */
    idle: {
      always: [
        { guard: 'mustWait', target: 'waiting', actions: 'countFromInput' },
        { guard: 'wasSent', target: 'ready', actions: 'waitOver' },
      ],
      on: { SEND: 'sending' },
    },
    sending: {
      entry: 'clearProblem',
      invoke: {
        id: 'requestCode',
        src: 'requestCode',
        onDone: [
          { guard: 'answerSaysWait', target: 'waiting', actions: 'recordSent' },
          { target: 'ready', actions: ['recordSent', 'waitOver'] },
        ],
        onError: [
          { guard: 'isDayLimit', target: 'dayLimit', actions: 'recordFailure' },
          { guard: 'isWait', target: 'waiting', actions: 'recordFailure' },
          { target: 'failed', actions: 'recordFailure' },
        ],
      },
    },
    waiting: {
      after: {
        TICK: [
          { guard: 'lastSecond', target: 'ready', actions: 'waitOver' },
          { target: 'waiting', reenter: true, actions: 'tick' },
        ],
      },
    },
    ready: { on: { SEND: 'sending' } },
    failed: { on: { SEND: 'sending' } },
    /** Not left on this page: the next code is for tomorrow. */
    dayLimit: {},
  },
})

export type CodeRequestSnapshot = SnapshotFrom<typeof codeRequestMachine>

/** What a code screen shows, read from the snapshot. */
export function codeRequestView(snapshot: CodeRequestSnapshot) {
  const { sent, sends, secondsLeft, problem } = snapshot.context
  return {
    /** The button asks for a code now. */
    canSend: snapshot.matches('idle') || snapshot.matches('ready') || snapshot.matches('failed'),
    sending: snapshot.matches('sending'),
    waiting: snapshot.matches('waiting'),
    secondsLeft: snapshot.matches('waiting') ? secondsLeft : 0,
    sent,
    /** The last request sent a code (not the call before this screen). */
    justSent: sends > 0 && problem === null && !snapshot.matches('sending'),
    problem,
  }
}
