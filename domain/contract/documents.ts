/**
 * Documents outside the signed pair (spec section 7; issue 22 item 5): the terms a guest reads before signing up,
 * and a document rendered for the client's review and not signed yet, downloaded by its id.
 */
import * as v from 'valibot'
import { safeString } from '../safe-text'
import { defineContract } from './define'

/** The anonymous documents there are (spec: `id`, default terms_and_conditions_anonymous). */
export const anonymousDocumentIds = ['terms_and_conditions_anonymous'] as const

export const getAnonymousDocument = defineContract({
  method: 'post',
  path: '/public/client/document',
  summary:
    'The terms and conditions of a loan for a guest (PDF): the loan agreement every borrower signs, shown with a sample offer (the calculator’s initial amount for a new client) and no borrower, so the terms can be read before signing up',
  tags: ['documents'],
  access: 'public',
  body: v.object({
    financeType: v.optional(v.picklist(['stl'], 'The finance type is stl.'), 'stl'),
    id: v.optional(
      v.picklist(anonymousDocumentIds, 'The document is terms_and_conditions_anonymous.'),
      'terms_and_conditions_anonymous',
    ),
  }),
  answer: 'binary',
})

export const downloadTemporaryDocument = defineContract({
  method: 'get',
  path: '/private/client/document/download-temporary/:id',
  summary:
    "A loan document of the client rendered for review and not signed yet, by its id (PDF, never cached); 409 documentSigned once it is signed (download it by its type), 404 for another client's",
  tags: ['documents'],
  access: 'client',
  params: v.object({
    id: v.pipe(safeString('The id is a document id.'), v.uuid('The id is a document id.')),
  }),
  answer: 'binary',
})
