import type { AnyRoute } from '../route'
import { affiliateRoutes } from './affiliate'
import { approvalRoutes } from './approvals'
import { backOfficeLoanRoutes } from './back-office-loans'
import { clientDeskRoutes } from './clients'
import { contentRoutes } from './content'
import { debtRoutes } from './debt'
import { documentRoutes } from './documents'
import { environmentRoutes } from './environment'
import { healthRoutes } from './health'
import { identityRoutes } from './identity'
import { backOfficeIdentityRoutes } from './identity-back-office'
import { singleLinkRoutes } from './identity-single-link'
import { journeyRoutes } from './journey'
import { lendingRoutes } from './lending'
import { paymentGatewayRoutes } from './payment-gateway'
import { paymentRoutes } from './payments'
import { payoutRoutes } from './payout'
import { pricingRoutes } from './pricing'
import { promoCodeRoutes } from './promo-codes'
import { referenceRoutes } from './reference'
import { referralRoutes } from './referrals'
import { sandboxModeRoutes } from './sandbox-mode'
import { sandboxQaRoutes } from './sandbox-qa'
import { sandboxScenarioRoutes } from './sandbox-scenarios'
import { servicingRoutes } from './servicing'
import { staffRoutes } from './staff'
import { statechartRoutes } from './statecharts'
import { trackingRoutes } from './tracking'
import { uploadRoutes } from './uploads'
import { verificationRoutes } from './verification'

/** Every /web route. Each resource file exports its list; add new resources here. */
export const allRoutes: AnyRoute[] = [
  ...identityRoutes,
  ...backOfficeIdentityRoutes,
  ...clientDeskRoutes,
  ...singleLinkRoutes,
  ...affiliateRoutes,
  ...referenceRoutes,
  ...environmentRoutes,
  ...pricingRoutes,
  ...approvalRoutes,
  ...promoCodeRoutes,
  ...journeyRoutes,
  ...referralRoutes,
  ...payoutRoutes,
  ...uploadRoutes,
  ...verificationRoutes,
  ...lendingRoutes,
  ...documentRoutes,
  ...paymentRoutes,
  ...servicingRoutes,
  ...sandboxScenarioRoutes,
  ...sandboxQaRoutes,
  ...sandboxModeRoutes,
  ...debtRoutes,
  ...backOfficeLoanRoutes,
  ...contentRoutes,
  ...staffRoutes,
  ...statechartRoutes,
  ...paymentGatewayRoutes,
  ...trackingRoutes,
  ...healthRoutes,
]
