/**
 * The payment watch on screen (machines/payment-watch.machine.ts): rendered by My loan and the repayment page
 * while a client's session is open. Every payment that posts gives a toast "Payment of ₱X received" (the app
 * shell's notices, spec section 2: top-right, 5 seconds); the new figures are already in the query cache (the
 * watch's calls put them there), and the statement is asked again. Coming back to the tab asks at once.
 * It renders nothing: the toast is the announcement.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useActorRef } from '@xstate/react'
import { useEffect, useMemo, useState } from 'react'
import { formatPhp } from '../../domain/format'
import {
  type LoanChanges,
  type PaymentWatchInput,
  paymentWatchMachine,
} from '../../machines/payment-watch.machine'
import { fmt, useMessages } from '../i18n/messages'
import { useApi, useShell } from './app-context'
import { paymentWatchActors } from './servicing'

export function PaymentWatch({ pollInterval }: PaymentWatchInput) {
  const api = useApi()
  const shell = useShell()
  const queryClient = useQueryClient()
  const received = useMessages().repay.watch.received
  const machine = useMemo(
    () =>
      paymentWatchMachine.provide({
        actors: paymentWatchActors(api, queryClient),
        actions: {
          reportChanges: (_, changes: LoanChanges) => {
            for (const payment of changes.received)
              shell.send({
                type: 'notice.push',
                tone: 'success',
                text: fmt(received, { amount: formatPhp(payment.amount) }),
              })
            if (changes.figuresChanged)
              void queryClient.invalidateQueries({
                predicate: (query) => query.queryKey[0] === 'loan' && query.queryKey[2] === 'statement',
              })
          },
        },
      }),
    [api, queryClient, shell, received],
  )
  const [input] = useState(() => ({ pollInterval }))
  const actor = useActorRef(machine, { input })
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') actor.send({ type: 'REFRESH' })
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => document.removeEventListener('visibilitychange', onVisible)
  }, [actor])
  return null
}
