import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './server/db/schema.ts',
    './server/db/schema-identity.ts',
    './server/db/schema-journey.ts',
    './server/db/schema-lending.ts',
    './server/db/schema-affiliate.ts',
    './server/db/schema-payments.ts',
    './server/db/schema-servicing.ts',
    './server/db/schema-collection.ts',
    './server/db/schema-debt.ts',
    './server/db/schema-audit.ts',
    './server/db/schema-approval.ts',
    './server/db/schema-content.ts',
    './server/db/schema-sandbox.ts',
    './server/db/schema-tracking.ts',
    './server/db/schema-referrals.ts',
  ],
  out: './server/db/migrations',
})
