/**
 * Classification lists served by GET /public/classification/{path}. Codes are what the API stores and
 * compares, so they never change once shipped; labels may be edited in the database and seeding will not put
 * the old text back. The order here is the order the selects show.
 */
import type { ClassificationLocale } from '../../../domain/reference'

type Labels = Record<string, string>

export const classificationLists: Record<string, Labels> = {
  gender: {
    male: 'Male',
    female: 'Female',
  },
  'civil-status': {
    single: 'Single',
    married: 'Married',
    widowed: 'Widowed',
    separated: 'Separated',
    annulled: 'Annulled',
    live_in: 'Live-in',
  },
  'employment-type': {
    employed_private: 'Employed (private company)',
    employed_government: 'Employed (government)',
    self_employed: 'Self-employed',
    business_owner: 'Business owner',
    ofw: 'Overseas Filipino Worker (OFW)',
    seafarer: 'Seafarer',
    freelancer: 'Freelancer',
    contractual: 'Contractual or project-based',
    student: 'Student',
    homemaker: 'Homemaker',
    unemployed: 'Unemployed',
    retired: 'Retired or pensioner',
  },
  'income-source': {
    salary: 'Salary',
    business: 'Business income',
    remittance: 'Remittance',
    pension: 'Pension',
    allowance: 'Allowance',
    freelance: 'Freelance or online work',
    other: 'Other',
  },
  relation: {
    parent: 'Parent',
    sibling: 'Sibling',
    spouse: 'Spouse or partner',
    child: 'Child',
    relative: 'Other relative',
    friend: 'Friend',
    colleague: 'Colleague',
  },
  education: {
    elementary: 'Elementary',
    high_school: 'High school',
    vocational: 'Vocational or technical (TESDA)',
    college_undergraduate: 'College undergraduate',
    college_graduate: 'College graduate',
    postgraduate: "Postgraduate (master's or doctorate)",
  },
  // Broadly the PSA's PSIC sections, regrouped the way borrowers describe their work.
  industry: {
    agriculture: 'Agriculture, forestry and fishing',
    bpo: 'BPO and call centre (IT-BPM)',
    construction: 'Construction',
    education: 'Education',
    finance: 'Banking, finance and insurance',
    government: 'Government and public administration',
    healthcare: 'Healthcare and social work',
    hospitality: 'Hotels, restaurants and tourism',
    it_telecom: 'Information technology and telecommunications',
    manufacturing: 'Manufacturing',
    mining: 'Mining and quarrying',
    real_estate: 'Real estate',
    retail: 'Retail and wholesale trade',
    transport: 'Transport, logistics and delivery',
    utilities: 'Electricity, gas and water',
    maritime: 'Shipping and maritime',
    security: 'Security services',
    domestic: 'Household and domestic work',
    media_arts: 'Media, arts and entertainment',
    professional: 'Professional services (legal, accounting, consulting)',
    other: 'Other',
  },
  'payment-frequency': {
    monthly: 'Monthly',
    semi_monthly: 'Twice a month (kinsenas)',
    weekly: 'Weekly',
    daily: 'Daily',
  },
  'finance-purpose': {
    bills: 'Bills and utilities',
    education: 'Education and tuition',
    medical: 'Medical expenses',
    business: 'Business capital',
    emergency: 'Emergency',
    household: 'Household needs',
    travel: 'Travel',
    other: 'Other',
  },
  'id-document-type': {
    SSS: 'SSS ID',
    UMID: 'UMID (Unified Multi-Purpose ID)',
    PP: 'Philippine passport',
    DL: "Driver's license (LTO)",
    POSTAL_ID: 'Postal ID (PHLPost)',
    NATIONAL_ID: 'National ID (PhilSys)',
  },
}

export function classificationRows(locale: ClassificationLocale = 'en') {
  return Object.entries(classificationLists).flatMap(([path, labels]) =>
    Object.entries(labels).map(([code, label], index) => ({
      path,
      code,
      locale,
      label,
      sortOrder: (index + 1) * 10,
    })),
  )
}
