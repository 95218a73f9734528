/**
 * The app shell: what wraps every page. Three independent regions:
 * - page: a full-page failure after any API answer of 500 or above ('ERP response {status} {path}');
 *   navigating away clears it.
 * - notices: toasts, each shown for NOTICE_MS from its own arrival, oldest first.
 * - popup: at most one open popup (the mobile drawer, a menu, a dialog); navigation closes it.
 */
import { assign, setup } from 'xstate'

export const NOTICE_MS = 5000

export type NoticeTone = 'info' | 'success' | 'error'
export interface Notice {
  id: number
  tone: NoticeTone
  text: string
  expiresAt: number
}

export interface AppShellContext {
  failure: { status: number; path: string } | null
  notices: Notice[]
  nextNoticeId: number
  popup: string | null
  /** Injected clock, so tests and the statechart never depend on the wall time. */
  now: () => number
}

export type AppShellEvent =
  | { type: 'api.failed'; status: number; path: string }
  | { type: 'navigated' }
  | { type: 'notice.push'; tone: NoticeTone; text: string }
  | { type: 'notice.dismiss'; id: number }
  | { type: 'popup.open'; id: string }
  | { type: 'popup.close' }

export const appShellMachine = setup({
  types: {
    context: {} as AppShellContext,
    events: {} as AppShellEvent,
    input: {} as { now?: () => number } | undefined,
  },
  delays: {
    untilOldestNoticeExpires: ({ context }) =>
      Math.max(0, (context.notices[0]?.expiresAt ?? 0) - context.now()),
  },
  guards: {
    isServerFailure: ({ event }) => event.type === 'api.failed' && event.status >= 500,
    hasOtherNotices: ({ context }) => context.notices.length > 1,
    dismissesLastNotice: ({ context, event }) =>
      event.type === 'notice.dismiss' && context.notices.length === 1 && context.notices[0]?.id === event.id,
  },
  actions: {
    recordFailure: assign({
      failure: ({ event }) =>
        event.type === 'api.failed' ? { status: event.status, path: event.path } : null,
    }),
    clearFailure: assign({ failure: null }),
    addNotice: assign(({ context, event }) => {
      if (event.type !== 'notice.push') return {}
      const notice: Notice = {
        id: context.nextNoticeId,
        tone: event.tone,
        text: event.text,
        expiresAt: context.now() + NOTICE_MS,
      }
      return { notices: [...context.notices, notice], nextNoticeId: context.nextNoticeId + 1 }
    }),
    dropOldestNotice: assign({ notices: ({ context }) => context.notices.slice(1) }),
    dropNotice: assign({
      notices: ({ context, event }) =>
        event.type === 'notice.dismiss' ? context.notices.filter((n) => n.id !== event.id) : context.notices,
    }),
    openPopup: assign({ popup: ({ event }) => (event.type === 'popup.open' ? event.id : null) }),
    closePopup: assign({ popup: null }),
  },
}).createMachine({
  id: 'appShell',
  type: 'parallel',
  context: ({ input }) => ({
    failure: null,
    notices: [],
    nextNoticeId: 1,
    popup: null,
    now: input?.now ?? Date.now,
  }),
  states: {
    page: {
      initial: 'ok',
      states: {
        ok: {
          on: { 'api.failed': { guard: 'isServerFailure', target: 'failed', actions: 'recordFailure' } },
        },
        failed: {
          on: {
            navigated: { target: 'ok', actions: 'clearFailure' },
            'api.failed': { guard: 'isServerFailure', target: 'failed', actions: 'recordFailure' },
          },
        },
      },
    },
    notices: {
      initial: 'idle',
      states: {
        idle: { on: { 'notice.push': { target: 'showing', actions: 'addNotice' } } },
        showing: {
          after: {
            untilOldestNoticeExpires: [
              { guard: 'hasOtherNotices', target: 'showing', reenter: true, actions: 'dropOldestNotice' },
              { target: 'idle', actions: 'dropOldestNotice' },
            ],
          },
          on: {
            'notice.push': { actions: 'addNotice' },
            'notice.dismiss': [
              { guard: 'dismissesLastNotice', target: 'idle', actions: 'dropNotice' },
              { target: 'showing', reenter: true, actions: 'dropNotice' },
            ],
          },
        },
      },
    },
    popup: {
      initial: 'closed',
      states: {
        closed: { on: { 'popup.open': { target: 'open', actions: 'openPopup' } } },
        open: {
          on: {
            'popup.open': { target: 'open', actions: 'openPopup' },
            'popup.close': { target: 'closed', actions: 'closePopup' },
            navigated: { target: 'closed', actions: 'closePopup' },
          },
        },
      },
    },
  },
})
