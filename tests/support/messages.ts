/**
 * Every English text the app can load: the entry texts and each route bundle (src/i18n/bundles.ts), typed as
 * Messages so a new bundle that is missing here fails the type check. The component harnesses render with it.
 */
import enAdmin from '../../src/i18n/locales/en/admin.json'
import enApplication from '../../src/i18n/locales/en/application.json'
import enAuth from '../../src/i18n/locales/en/auth.json'
import enCalculator from '../../src/i18n/locales/en/calculator.json'
import enContent from '../../src/i18n/locales/en/content.json'
import enJourney from '../../src/i18n/locales/en/journey.json'
import enLegal from '../../src/i18n/locales/en/legal.json'
import enRepay from '../../src/i18n/locales/en/repay.json'
import enSandbox from '../../src/i18n/locales/en/sandbox.json'
import enTracking from '../../src/i18n/locales/en/tracking.json'
import en from '../../src/i18n/locales/en.json'
import type { Messages } from '../../src/i18n/messages'

export const messages: Messages = {
  ...en,
  calculator: enCalculator,
  auth: enAuth,
  journey: enJourney,
  application: enApplication,
  repay: enRepay,
  legal: enLegal,
  admin: enAdmin,
  content: enContent,
  sandbox: enSandbox,
  tracking: enTracking,
}
