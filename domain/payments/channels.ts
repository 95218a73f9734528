/**
 * How Filipinos pay Hiram back: the repayment channels as reference data, shared by the server (the payment
 * intention's instructions, the channel a gateway reports, the back office's filters) and the repay pages
 * (`/repay/ewallets/{slug}`, `/repay/payment-centers/{slug}`). The code is what the API speaks (issue 16), the
 * slug the page's URL segment. Brand names are proper nouns and stay here; the pages' longer texts are in the
 * locale file, keyed by slug.
 *
 * `{reference}` and `{amount}` in a step are filled in with the client's payment reference and amount; where the
 * page does not know them (a visitor), it says "your payment reference".
 */
export const paymentChannelCodes = [
  'bank_transfer',
  'gcash',
  'maya',
  'shopeepay',
  'grabpay',
  'seven_eleven',
  'cebuana',
  'mlhuillier',
  'bayad',
  'ecpay',
] as const
export type PaymentChannelCode = (typeof paymentChannelCodes)[number]

export type PaymentChannelKind = 'bank' | 'ewallet' | 'payment-center'

export interface PaymentChannel {
  code: PaymentChannelCode
  slug: string
  name: string
  kind: PaymentChannelKind
  /** E-wallets pay through the gateway's checkout page; the others by the reference at the counter or bank. */
  checkout: boolean
  /** When a payment usually posts, in words. */
  posting: string
  steps: readonly string[]
}

const ewalletSteps = (app: string) =>
  [
    'Tap Pay now here: we open the payment page for your loan, with the amount filled in.',
    `Choose ${app}, log in and confirm the payment in the ${app} app.`,
    `Or, in the ${app} app, open Pay Bills, choose Loans and the biller Hiram Lending, and enter your payment reference {reference} and the amount {amount}.`,
    'Keep the confirmation: your payment posts to your loan as soon as we receive it.',
  ] as const

const counterSteps = (counter: string) =>
  [
    `Go to any ${counter} branch or counter and ask to pay a bill to Hiram Lending.`,
    'Give your payment reference {reference} and the amount {amount}.',
    'Pay in cash and check the reference on the receipt before you leave.',
    'Keep the receipt until the payment shows in My loan.',
  ] as const

export const paymentChannels: readonly PaymentChannel[] = [
  {
    code: 'bank_transfer',
    slug: 'bank-transfer',
    name: 'Bank transfer (InstaPay / PESONet)',
    kind: 'bank',
    checkout: false,
    posting: 'InstaPay within minutes; PESONet by the next banking day.',
    steps: [
      'Open your bank or e-wallet app and choose Transfer to another bank.',
      'Choose InstaPay (or PESONet) and the receiving bank BDO Unibank.',
      'Send to your own virtual account {virtualAccount}, account name Hiram Lending Corporation.',
      'Enter the amount {amount} and confirm. No reference to type: the account number is yours alone.',
    ],
  },
  {
    code: 'gcash',
    slug: 'gcash',
    name: 'GCash',
    kind: 'ewallet',
    checkout: true,
    posting: 'Within minutes.',
    steps: ewalletSteps('GCash'),
  },
  {
    code: 'maya',
    slug: 'maya',
    name: 'Maya',
    kind: 'ewallet',
    checkout: true,
    posting: 'Within minutes.',
    steps: ewalletSteps('Maya'),
  },
  {
    code: 'shopeepay',
    slug: 'shopeepay',
    name: 'ShopeePay',
    kind: 'ewallet',
    checkout: true,
    posting: 'Within minutes.',
    steps: ewalletSteps('ShopeePay'),
  },
  {
    code: 'grabpay',
    slug: 'grabpay',
    name: 'GrabPay',
    kind: 'ewallet',
    checkout: true,
    posting: 'Within minutes.',
    steps: ewalletSteps('GrabPay'),
  },
  {
    code: 'seven_eleven',
    slug: '7-eleven',
    name: '7-Eleven (CLiQQ)',
    kind: 'payment-center',
    checkout: false,
    posting: 'Within 1 hour.',
    steps: counterSteps('7-Eleven (CLiQQ kiosk or cashier)'),
  },
  {
    code: 'cebuana',
    slug: 'cebuana-lhuillier',
    name: 'Cebuana Lhuillier',
    kind: 'payment-center',
    checkout: false,
    posting: 'Within 1 banking day.',
    steps: counterSteps('Cebuana Lhuillier'),
  },
  {
    code: 'mlhuillier',
    slug: 'm-lhuillier',
    name: 'M Lhuillier',
    kind: 'payment-center',
    checkout: false,
    posting: 'Within 1 banking day.',
    steps: counterSteps('M Lhuillier'),
  },
  {
    code: 'bayad',
    slug: 'bayad-center',
    name: 'Bayad Center',
    kind: 'payment-center',
    checkout: false,
    posting: 'Within 1 banking day.',
    steps: counterSteps('Bayad Center'),
  },
  {
    code: 'ecpay',
    slug: 'ecpay',
    name: 'ECPay',
    kind: 'payment-center',
    checkout: false,
    posting: 'Within 1 banking day.',
    steps: counterSteps('ECPay partner outlet'),
  },
]

export function channelOf(code: PaymentChannelCode): PaymentChannel {
  const channel = paymentChannels.find((c) => c.code === code)
  if (!channel) throw new RangeError(`unknown payment channel ${code}`)
  return channel
}

export const channelBySlug = (kind: PaymentChannelKind, slug: string) =>
  paymentChannels.find((c) => c.kind === kind && c.slug === slug)

export const channelsOfKind = (kind: PaymentChannelKind) => paymentChannels.filter((c) => c.kind === kind)

/** A step with the client's figures filled in (or the generic words for a visitor). */
export function fillStep(
  step: string,
  values: { reference?: string; amount?: string; virtualAccount?: string },
): string {
  return step
    .replace('{reference}', values.reference ?? 'your payment reference')
    .replace('{amount}', values.amount ?? 'the amount you want to pay')
    .replace('{virtualAccount}', values.virtualAccount ?? '8801 followed by your payment reference')
}
