/** The kinds of servicing jobs (`servicing_job.kind`), in a module of their own so posting and jobs share them. */
export const RECEIPT_JOB = 'receipt'
export const REFUND_JOB = 'refund'
