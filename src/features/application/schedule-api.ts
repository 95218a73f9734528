/**
 * My loan's payment-schedule calls (issue 17 item 5; domain/contract/servicing.ts): the schedule in force, a
 * special offer as it would be agreed today, the code request that renders its documents, and the signature that
 * accepts it; with the actors of machines/schedule-offer.machine.ts. Every answer is checked against the
 * contract's schema, as src/app/servicing.ts does for the loan's other calls.
 */
import { type QueryClient, useQuery } from '@tanstack/react-query'
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { codeSentSchema } from '../../../domain/contract/identity-answers'
import { getScheduleOffer, submitScheduleOffer } from '../../../domain/contract/servicing'
import {
  type AmendmentDocument,
  amendmentDocumentSchema,
  type PaymentSchedule,
  paymentScheduleSchema,
  type ScheduleOffer,
  scheduleOfferSchema,
} from '../../../domain/contract/servicing-answers'
import type { CodeSent } from '../../../machines/code-request.machine'
import type { AcceptInput } from '../../../machines/schedule-offer.machine'
import type { ApiClient } from '../../api/client'
import { useApi } from '../../app/app-context'
import { fetchPaymentSchedule, servicingKeys } from '../../app/servicing'

export const scheduleKeys = {
  /** Under the active loan's key, so asking for the loan again (without `exact`) asks for this too. */
  schedule: servicingKeys.paymentSchedule,
}

/** A special offer as it would be agreed today: its instalments, interest, decision and documents. */
export async function fetchScheduleOffer(
  api: ApiClient,
  offerId: number,
  signal?: AbortSignal,
): Promise<ScheduleOffer> {
  return v.parse(
    scheduleOfferSchema,
    await api.call(getScheduleOffer, { params: { id: String(offerId) } }, { signal }),
  )
}

const offerCodeSentSchema = v.object({
  ...codeSentSchema.entries,
  documents: v.array(amendmentDocumentSchema),
})

/** Renders the schedule agreement and its disclosure as PDFs and sends the signing code by SMS. */
export async function sendScheduleCode(
  api: ApiClient,
  offerId: number,
): Promise<CodeSent & { documents: AmendmentDocument[] }> {
  return v.parse(
    offerCodeSentSchema,
    await api.call(submitScheduleOffer, { params: { id: String(offerId) }, body: {} }),
  )
}

/** Signs the schedule's documents with the SMS code: the loan is on the schedule from then on. */
export async function acceptScheduleOffer(
  api: ApiClient,
  { offerId, code }: AcceptInput,
  signal?: AbortSignal,
): Promise<PaymentSchedule> {
  return v.parse(
    paymentScheduleSchema,
    await api.call(submitScheduleOffer, { params: { id: String(offerId) }, body: { code } }, { signal }),
  )
}

/**
 * The schedule in force, asked for again whenever `version` changes (the loan's figures: a payment posted and
 * was spread over the instalments); the previous answer stays on screen meanwhile.
 */
export function usePaymentSchedule(enabled: boolean, version: string) {
  const api = useApi()
  return useQuery({
    queryKey: [...scheduleKeys.schedule, version],
    queryFn: ({ signal }) => fetchPaymentSchedule(api, { signal }),
    enabled,
    staleTime: 0,
    placeholderData: (previous) => previous,
  })
}

/**
 * The accept flow's actors with the app's API client. Once a schedule is accepted the active loan is asked for
 * again (and with it any schedule answer kept): its plan is now `scheduled`, and My loan shows the schedule
 * instead of the offers.
 */
export function scheduleOfferActors(api: ApiClient, queryClient: QueryClient) {
  return {
    loadOffer: fromPromise<ScheduleOffer, { offerId: number }>(({ input, signal }) =>
      fetchScheduleOffer(api, input.offerId, signal),
    ),
    acceptOffer: fromPromise<PaymentSchedule, AcceptInput>(async ({ input, signal }) => {
      const schedule = await acceptScheduleOffer(api, input, signal)
      void queryClient.invalidateQueries({ queryKey: servicingKeys.activeLoan })
      return schedule
    }),
  }
}
