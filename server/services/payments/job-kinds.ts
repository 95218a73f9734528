/** The kinds of servicing jobs (`servicing_job.kind`), in a module of their own so posting and jobs share them. */
export const RECEIPT_JOB = 'receipt'
export const REFUND_JOB = 'refund'
/** Sends the payment reminders due (server/services/servicing/reminders.ts); one job per scheduled instant. */
export const REMINDER_JOB = 'reminder'
/** A debt sale's notice to the client, deferred to the lawful hours when the sale was made at night (issue 18). */
export const DEBT_SALE_NOTICE_JOB = 'debt_sale_notice'
