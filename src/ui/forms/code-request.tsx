/**
 * The "Send me a code / Send a new code" part of every code screen (sign-up, login second factor, signing the
 * agreement, phone and e-mail changes, recovery, the single-link login), driven by one statechart
 * (machines/code-request.machine.ts): the wait the server gives is a countdown, the button comes back when it
 * ends, and a refusal says why (too soon, no more codes today, or the API's error) instead of "Something went
 * wrong". The screen only says how to ask (`request`); the timing is the machine's.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useId, useRef, useState } from 'react'
import { fromPromise } from 'xstate'
import {
  type CodeRequestProblem,
  type CodeSent,
  classifyCodeRequestError,
  codeRequestMachine,
  codeRequestView,
} from '../../../machines/code-request.machine'
import { fmt, useMessages } from '../../i18n/messages'

export interface CodeRequestProps {
  /** Asks the server for a code; answers `{ nextCodeAt }` when it says when the next may be asked for. */
  request: () => Promise<CodeSent | null | undefined>
  /** A code was already sent for this step by the call before (the button then says "Send a new code"). */
  sent?: boolean
  /** When the next code may be asked for (ISO), from the call that sent the first one. */
  nextCodeAt?: string | null
  /** The call before was refused for the wait: open counting down to `nextCodeAt`, saying why. */
  limited?: boolean
  sendLabel?: string
  resendLabel?: string
  /** Said once a code this screen asked for is on its way. */
  sentText?: string
  /** A failure's text by its error key, where the screen knows better than the generic auth texts. */
  errorText?: (key: string) => string | undefined
  now?: () => number
}

/** When a first request refused for the wait may be repeated (ISO), or null for any other failure. */
export function waitAfterRefusal(error: unknown, now = Date.now()): string | null {
  const { problem, retryAt } = classifyCodeRequestError(error, now)
  return problem.kind === 'minuteLimit' && retryAt !== null ? new Date(retryAt).toISOString() : null
}

export function CodeRequest({
  request,
  sent = false,
  nextCodeAt,
  limited = false,
  sendLabel,
  resendLabel,
  sentText,
  errorText,
  now = Date.now,
}: CodeRequestProps) {
  const m = useMessages().auth
  const t = m.codeRequest
  const waitId = useId()
  // The latest `request` is called, whatever render created the machine.
  const requestRef = useRef(request)
  requestRef.current = request
  const [machine] = useState(() =>
    codeRequestMachine.provide({ actors: { requestCode: fromPromise(() => requestRef.current()) } }),
  )
  const [input] = useState(() => {
    const at = nextCodeAt ? Date.parse(nextCodeAt) : Number.NaN
    return { sent, limited, retryAt: Number.isNaN(at) ? null : at, now }
  })
  const actor = useActorRef(machine, { input })
  const view = useSelector(actor, codeRequestView)
  const label = view.sending ? t.sending : view.sent ? (resendLabel ?? t.resend) : (sendLabel ?? t.send)

  return (
    <div className="code-request">
      <p className="button-row">
        <button
          type="button"
          className={`button ${view.sent ? 'button--ghost' : 'button--secondary'}`}
          disabled={!view.canSend}
          aria-describedby={view.waiting ? waitId : undefined}
          onClick={() => actor.send({ type: 'SEND' })}
        >
          {label}
        </button>
      </p>
      {view.waiting ? (
        // Not live: a screen reader would read every second. The button's description carries it.
        <p id={waitId} className="field__hint" data-seconds-left={view.secondsLeft}>
          {view.secondsLeft > 90
            ? fmt(t.waitInMinutes, { minutes: Math.ceil(view.secondsLeft / 60) })
            : fmt(t.waitIn, { seconds: view.secondsLeft })}
        </p>
      ) : null}
      <div role="status">
        {view.justSent ? (
          <div className="callout callout--success">
            <p className="callout__body">{sentText ?? t.sent}</p>
          </div>
        ) : null}
      </div>
      <Problem problem={view.problem} errorText={errorText} />
    </div>
  )
}

function Problem({
  problem,
  errorText,
}: {
  problem: CodeRequestProblem | null
  errorText?: (key: string) => string | undefined
}) {
  const m = useMessages().auth
  if (!problem) return null
  const key =
    problem.kind === 'failed' ? problem.key : problem.kind === 'dayLimit' ? 'codeDayLimit' : 'codeMinuteLimit'
  const errors = m.errors as Record<string, string>
  const text =
    problem.kind === 'minuteLimit'
      ? m.codeRequest.minuteLimit
      : problem.kind === 'dayLimit'
        ? m.codeRequest.dayLimit
        : (errorText?.(key) ?? errors[key] ?? errors.generic ?? key)
  return (
    <div className="callout callout--warning" role="alert" data-error-key={key}>
      <p className="callout__body">{text}</p>
    </div>
  )
}
