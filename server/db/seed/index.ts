/**
 * Reference data seeded on every start. Each seeder is idempotent and never overwrites edited rows: inserts
 * use ON CONFLICT DO NOTHING, so a label or contact an admin changed survives restarts and upgrades.
 */
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import { defaultDocumentUploadConfig } from '../../../domain/journey/uploads'
import { defaultLimitGrowth, LIMITS_CONFIG_KEY } from '../../../domain/loan/limits'
import { defaultServicingConfig } from '../../../domain/loan/servicing-config'
import { defaultPricingConfig } from '../../../domain/pricing/config'
import { seedConfig } from '../../services/config'
import type { Db } from '../client'
import { classification, contact, institution, promoCode } from '../schema'
import { classificationRows } from './classification'
import { seedContacts } from './contacts'
import { seedInstitutions } from './institutions'
import { seedPromos } from './promos'
import { buildPsgcAreas, loadPsgcDataset, seedPsgc } from './psgc'

export interface SeedOptions {
  /** The PSGC dataset is 44,000 rows; API tests that do not need it skip it. */
  psgc?: boolean
}

export async function seedReferenceData(db: Db, options: SeedOptions = {}) {
  // Parsed before the transaction opens: PGlite has one connection, so nothing else should wait on file I/O.
  const areas = options.psgc ? buildPsgcAreas(loadPsgcDataset()) : []
  await db.transaction(async (tx) => {
    await seedConfig(tx, 'calculator', defaultCalculatorConfig)
    await seedConfig(tx, 'pricing', defaultPricingConfig)
    await seedConfig(tx, 'document-upload', defaultDocumentUploadConfig)
    await seedConfig(tx, 'servicing', defaultServicingConfig)
    await seedConfig(tx, LIMITS_CONFIG_KEY, defaultLimitGrowth)
    await tx.insert(promoCode).values(seedPromos).onConflictDoNothing()
    await tx.insert(institution).values(seedInstitutions).onConflictDoNothing()
    await tx.insert(classification).values(classificationRows('en')).onConflictDoNothing()
    await tx.insert(contact).values(seedContacts).onConflictDoNothing()
    if (areas.length) await seedPsgc(tx, areas)
  })
}
