/**
 * Changing the phone number or the e-mail (spec sections 2 and 5: /profile/change-phone, /profile/change-email):
 * a code goes to the NEW value, then the change is saved with it.
 *
 * - editing: the form for the new value (the page refuses the current value on the field first).
 * - sendingCode: `sendCode` asks the server for a code to the new value.
 *   - sent: codeStep, counting down to the answer's `nextCodeAt` for a new code.
 *   - refused for the wait (asked again too soon, a 429 with a wait): codeStep anyway, `limited`, counting
 *     down to when a new code may be asked for (a code sent a moment ago is still good).
 *   - any other failure: back to editing with the error (the form puts it on its field).
 * - codeStep: the code field; resending is the code request's own machine (code-request.machine.ts).
 * - saving: `save` sends the value with the code. Done: `done` (the app stores the saved user through the
 *   `storeSaved` action); refused: back to codeStep with the error.
 * - done: the change is saved; the form is there again for another change.
 *
 * No fetch, no React: the page provides `sendCode`, `save` and `storeSaved`.
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import { type CodeSent, classifyCodeRequestError } from './code-request.machine'

export interface CredentialChangeContext {
  /** The new value the code went (or goes) to. */
  value: string | null
  /** When a new code may be asked for (ISO), from the send-code answer or the refusal's wait. */
  nextCodeAt: string | null
  /** The send-code call was refused for the wait: no new code went out. */
  limited: boolean
  /** The last failure, for the form on screen to show on its fields; null after a success. */
  error: unknown
  /** The clock (for the refusal's wait); Date.now unless a test replaces it. */
  now: () => number
}

export type CredentialChangeEvent = { type: 'SEND_CODE'; value: string } | { type: 'SUBMIT'; code: string }

export interface CredentialChangeInput {
  now?: () => number
}

export interface SendCodeInput {
  value: string
}
export interface SaveInput {
  value: string
  code: string
}

const notProvided = (name: string) => async (): Promise<never> => {
  throw new Error(`credential change machine: the page must provide "${name}"`)
}

const errorOf = (event: unknown) => (event as { error?: unknown }).error

export const credentialChangeMachine = setup({
  types: {
    context: {} as CredentialChangeContext,
    events: {} as CredentialChangeEvent,
    input: {} as CredentialChangeInput | undefined,
  },
  actors: {
    sendCode: fromPromise<CodeSent | null | undefined, SendCodeInput>(notProvided('sendCode')),
    save: fromPromise<unknown, SaveInput>(notProvided('save')),
  },
  guards: {
    /** Asked again too soon: the server says when a new code may be asked for. */
    isWait: ({ context, event }) =>
      classifyCodeRequestError(errorOf(event), context.now()).problem.kind === 'minuteLimit',
  },
  actions: {
    takeValue: assign(({ event }) => (event.type === 'SEND_CODE' ? { value: event.value, error: null } : {})),
    recordSent: assign(({ event }) => ({
      nextCodeAt: (event as { output?: CodeSent | null }).output?.nextCodeAt ?? null,
      limited: false,
      error: null,
    })),
    recordWait: assign(({ context, event }) => {
      const { retryAt } = classifyCodeRequestError(errorOf(event), context.now())
      return {
        nextCodeAt: retryAt === null ? null : new Date(retryAt).toISOString(),
        limited: true,
        error: null,
      }
    }),
    recordError: assign(({ event }) => ({ error: errorOf(event) ?? new Error('failed') })),
    clearError: assign({ error: null }),
    /** Provided by the app: the saved user goes to the auth session. */
    storeSaved: (_, _params: { output: unknown }) => {},
  },
}).createMachine({
  id: 'credentialChange',
  context: ({ input }) => ({
    value: null,
    nextCodeAt: null,
    limited: false,
    error: null,
    now: input?.now ?? Date.now,
  }),
  initial: 'editing',
  states: {
    editing: {
      description: 'The form for the new value.',
      on: { SEND_CODE: { target: 'sendingCode', actions: 'takeValue' } },
    },
    sendingCode: {
      description:
        'Asking for a code to the new value; asked too soon still opens the code step, counting down.',
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ value: context.value ?? '' }),
        onDone: { target: 'codeStep', actions: 'recordSent' },
        onError: [
          { guard: 'isWait', target: 'codeStep', actions: 'recordWait' },
          { target: 'editing', actions: 'recordError' },
        ],
      },
    },
    codeStep: {
      description: 'The code field, for the new value the code went to.',
      on: { SUBMIT: 'saving' },
    },
    saving: {
      description: 'Saving the new value with the code.',
      entry: 'clearError',
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context, event }) => ({
          value: context.value ?? '',
          code: event.type === 'SUBMIT' ? event.code : '',
        }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'storeSaved', params: ({ event }) => ({ output: event.output }) },
            assign({ value: null, nextCodeAt: null, limited: false }),
          ],
        },
        onError: { target: 'codeStep', actions: 'recordError' },
      },
    },
    done: {
      description: 'Saved; the form is there again for another change.',
      on: { SEND_CODE: { target: 'sendingCode', actions: 'takeValue' } },
    },
  },
})

export type CredentialChangeSnapshot = SnapshotFrom<typeof credentialChangeMachine>

/** What a change page shows. */
export function credentialChangeView(snapshot: CredentialChangeSnapshot) {
  const { value, nextCodeAt, limited } = snapshot.context
  const codeStep = snapshot.matches('codeStep') || snapshot.matches('saving')
  return {
    /** The code step, for the new value the code went to. */
    codeStep,
    value: codeStep ? value : null,
    nextCodeAt,
    limited,
    done: snapshot.matches('done'),
  }
}
