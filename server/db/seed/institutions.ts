/**
 * Payout institutions. Ids are stable forever: disbursement entries and saved bank accounts will reference
 * them, so a retired institution is deleted by an admin, never renumbered. Banks take 1-99 and e-wallets
 * 101-199 so the two ranges can grow independently. The list order is the order here (most used first).
 */
import type { InstitutionParent } from '../../../domain/reference'

interface SeedInstitution {
  id: number
  code: string
  name: string
}

// Robinsons Bank (merged into BPI, 2024) and UCPB (into Land Bank, 2022) are left out on purpose: a payout to a
// bank that no longer exists would only bounce. Citi's consumer accounts moved to UnionBank in 2022.
const banks: SeedInstitution[] = [
  { id: 1, code: 'bdo', name: 'BDO Unibank' },
  { id: 2, code: 'bpi', name: 'Bank of the Philippine Islands (BPI)' },
  { id: 3, code: 'metrobank', name: 'Metrobank' },
  { id: 4, code: 'landbank', name: 'Land Bank of the Philippines' },
  { id: 5, code: 'pnb', name: 'Philippine National Bank (PNB)' },
  { id: 6, code: 'securitybank', name: 'Security Bank' },
  { id: 7, code: 'unionbank', name: 'UnionBank of the Philippines' },
  { id: 8, code: 'rcbc', name: 'RCBC' },
  { id: 9, code: 'chinabank', name: 'China Bank' },
  { id: 10, code: 'eastwest', name: 'EastWest Bank' },
  { id: 11, code: 'dbp', name: 'Development Bank of the Philippines' },
  { id: 12, code: 'aub', name: 'Asia United Bank (AUB)' },
  { id: 13, code: 'bankcom', name: 'Bank of Commerce' },
  { id: 14, code: 'psbank', name: 'PSBank' },
  { id: 15, code: 'maybank', name: 'Maybank Philippines' },
  { id: 16, code: 'cimb', name: 'CIMB Bank Philippines' },
  { id: 17, code: 'gotyme', name: 'GoTyme Bank' },
  { id: 18, code: 'tonik', name: 'Tonik Digital Bank' },
  { id: 19, code: 'mayabank', name: 'Maya Bank' },
  { id: 20, code: 'seabank', name: 'SeaBank Philippines' },
  { id: 21, code: 'unobank', name: 'UNOBank' },
  { id: 22, code: 'ofbank', name: 'Overseas Filipino Bank (OFBank)' },
  { id: 23, code: 'sterling', name: 'Sterling Bank of Asia' },
  { id: 24, code: 'pbcom', name: 'Philippine Bank of Communications (PBCom)' },
  { id: 25, code: 'veterans', name: 'Philippine Veterans Bank' },
  { id: 26, code: 'pbb', name: 'Philippine Business Bank' },
  { id: 27, code: 'ctbc', name: 'CTBC Bank Philippines' },
  { id: 28, code: 'hsbc', name: 'HSBC Philippines' },
  { id: 29, code: 'chinabank_savings', name: 'China Bank Savings' },
  { id: 30, code: 'bdo_network', name: 'BDO Network Bank' },
  { id: 31, code: 'citysavings', name: 'City Savings Bank' },
  { id: 32, code: 'cardbank', name: 'CARD Bank' },
]

const ewallets: SeedInstitution[] = [
  { id: 101, code: 'gcash', name: 'GCash' },
  { id: 102, code: 'maya', name: 'Maya' },
  { id: 103, code: 'grabpay', name: 'GrabPay' },
  { id: 104, code: 'shopeepay', name: 'ShopeePay' },
  { id: 105, code: 'coinsph', name: 'Coins.ph' },
  { id: 106, code: 'palawanpay', name: 'PalawanPay' },
]

const withParent = (list: SeedInstitution[], parent: InstitutionParent) =>
  list.map((item, index) => ({ ...item, parent, sortOrder: (index + 1) * 10 }))

export const seedInstitutions = [...withParent(banks, 'bank_account'), ...withParent(ewallets, 'e-wallet')]
