/**
 * Reference data seeded on every start. Each seeder is idempotent and never overwrites edited rows.
 */
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import { seedConfig } from '../../services/config'
import type { Db } from '../client'

export interface SeedOptions {
  /** The PSGC dataset is 43,000 rows; API tests that do not need it skip it. */
  psgc?: boolean
}

export async function seedReferenceData(db: Db, _options: SeedOptions = {}) {
  await db.transaction(async (tx) => {
    await seedConfig(tx, 'calculator', defaultCalculatorConfig)
  })
}
